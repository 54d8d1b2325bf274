/** Debug logging: one prefix, and nothing at all unless `isDebug` is on. */
export type Logger = (message: string, ...details: unknown[]) => void;
export declare const LOG_PREFIX = '[video-plugin]';
/** Returns a logger that writes to the console only when `enabled`. */
export declare function createLogger(enabled: boolean, scope?: string): Logger;
//# sourceMappingURL=debug.d.ts.map
