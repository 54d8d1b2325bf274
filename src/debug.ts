/** Debug logging: one prefix, and nothing at all unless `isDebug` is on. */
export type Logger = (message: string, ...details: unknown[]) => void;

export const LOG_PREFIX = '[video-plugin]';

const silent: Logger = () => {};

/** Returns a logger that writes to the console only when `enabled`. */
export function createLogger(enabled: boolean, scope?: string): Logger {
  if (!enabled) return silent;
  const prefix = scope ? `${LOG_PREFIX} ${scope}:` : LOG_PREFIX;
  return (message, ...details) => console.debug(prefix, message, ...details);
}
