/**
 * Counts the listeners, timers and message ports created while it is installed and not yet
 * released, by wrapping the platform functions. Used by leak tests; call restore() after.
 */
export interface ResourceCounter {
  live(): {
    listeners: number;
    timers: number;
    ports: number;
  };
  restore(): void;
}
export declare function countResources(): ResourceCounter;
//# sourceMappingURL=resources.d.ts.map
