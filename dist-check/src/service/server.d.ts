import { type ServiceOptions } from './config.js';
export type { ServiceOptions, PartnerOptions } from './config.js';
export { DEMO_PARTNER_ID, DEMO_SECRET, DEFAULT_ALLOWED_ORIGINS } from './config.js';
/** A running service. */
export interface RunningService {
  /** Base URL of the service, e.g. `http://127.0.0.1:8001` (no trailing slash); same as `origin`. */
  readonly url: string;
  /** The service's origin, e.g. `http://127.0.0.1:8001`. */
  readonly origin: string;
  /** The port it listens on (the one picked when 0 was asked). */
  readonly port: number;
  /** The partners it accepts tokens from, with their secrets and allowed origins. */
  readonly partners: readonly {
    id: string;
    secret: string;
    allowedOrigins: readonly string[];
  }[];
  /** Milliseconds a topic search or generation takes. */
  readonly jobMs: number;
  /** The data file, when state is kept across restarts. */
  readonly dataFile: string | undefined;
  /** Counts of what the service holds right now, for tests that check nothing leaks or appears. */
  stats(): ServiceStats;
  /** Stops the service: ends streams and jobs, writes the data file, closes every connection. */
  close(): Promise<void>;
}
/** What {@link RunningService.stats} counts. */
export interface ServiceStats {
  accounts: number;
  sessions: number;
  topics: number;
  generations: number;
  videos: number;
  /** Token IDs remembered against replay. */
  usedJtis: number;
  /** Open status streams and status sockets. */
  streams: number;
  /** Listeners on the store's changes (one per open stream). */
  listeners: number;
  /** Background jobs running. */
  jobs: number;
  /** Open TCP connections, idle keep-alive ones included. */
  connections: number;
}
/**
 * Starts the local service and resolves once it listens.
 *
 * @param options - see {@link ServiceOptions}; e.g. `{ port: 0, jobMs: 100 }` in tests.
 * @throws {InvalidParameterError} `invalid_parameter` naming the bad option; or the listen error
 *   (e.g. `EADDRINUSE`).
 */
export declare function startService(options?: ServiceOptions): Promise<RunningService>;
//# sourceMappingURL=server.d.ts.map
