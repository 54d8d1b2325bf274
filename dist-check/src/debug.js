export const LOG_PREFIX = '[video-plugin]';
const silent = () => {};
/** Returns a logger that writes to the console only when `enabled`. */
export function createLogger(enabled, scope) {
  if (!enabled) return silent;
  const prefix = scope ? `${LOG_PREFIX} ${scope}:` : LOG_PREFIX;
  return (message, ...details) => console.debug(prefix, message, ...details);
}
//# sourceMappingURL=debug.js.map
