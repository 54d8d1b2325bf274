/**
 * Debug logging: one prefix, and nothing at all unless `isDebug` is on; and the one line printed
 * without it, when the studio cannot start.
 */
import { DestroyedError, type VideoPluginError } from './errors.js';

export type Logger = (message: string, ...details: unknown[]) => void;

export const LOG_PREFIX = '[video-plugin]';

const silent: Logger = () => {};

/** Returns a logger that writes to the console only when `enabled`. */
export function createLogger(enabled: boolean, scope?: string): Logger {
  if (!enabled) return silent;
  const prefix = scope ? `${LOG_PREFIX} ${scope}:` : LOG_PREFIX;
  return (message, ...details) => console.debug(prefix, message, ...details);
}

/**
 * Prints why the studio cannot start (its first connection failed, but not by `cleanup()`), once,
 * with `console.error`, even without `isDebug`: a page that does not listen for `error` still shows
 * the cause and the fix.
 */
export function reportStartFailure(error: unknown): void {
  if (error instanceof DestroyedError) return;
  const { name, code, message } = error as VideoPluginError;
  reported.add(error as VideoPluginError);
  console.error(`${LOG_PREFIX} ${name} (${code}): ${message}`);
}

/** The errors {@link reportStartFailure} printed: whoever else would print them (embed.ts) does not. */
export const reported = new WeakSet<VideoPluginError>();
