import { type RequestListener } from 'node:http';
import { type RunningService, type ServiceOptions } from '../../src/service/server.js';
export declare const PARTNER = 'test-partner';
export declare const SECRET = 'test-secret-0123456789abcdef';
/** A second partner, for tests of what one partner's accounts cannot reach of another's. */
export declare const OTHER = 'other-partner';
export declare const OTHER_SECRET = 'other-secret-0123456789abcdef';
export declare const TWO_PARTNERS: {
  id: string;
  secret: string;
}[];
/** Starts a service for this test file (closed after it) with one test partner and quick jobs. */
export declare function startTestService(options?: ServiceOptions): Promise<RunningService>;
export interface ApiResult {
  status: number;
  body: any;
  headers: Headers;
}
/** Calls the API: JSON in, JSON out. */
export declare function api(
  service: RunningService,
  method: string,
  path: string,
  options?: {
    body?: unknown;
    session?: string;
    headers?: Record<string, string>;
    raw?: string;
  },
): Promise<ApiResult>;
/** Creates an account (optionally with fields) and returns its session and account. */
export declare function createAccount(
  service: RunningService,
  account?: Record<string, string>,
  partnerID?: string,
  secret?: string,
): Promise<{
  session: string;
  account: {
    id: string;
    externalID?: string;
    [key: string]: unknown;
  };
}>;
/** Logs in by account ID or external ID. */
export declare function login(
  service: RunningService,
  by:
    | {
        accountID: string;
      }
    | {
        externalID: string;
      },
): Promise<ApiResult>;
export interface StreamEvent {
  event: string;
  data: any;
}
/** An open status stream whose events can be awaited one by one. */
export declare class EventStream {
  #private;
  readonly events: StreamEvent[];
  readonly comments: string[];
  static open(
    service: RunningService,
    session: string,
    query?: string,
    useQueryParameter?: boolean,
  ): Promise<EventStream>;
  /** The next event (after the ones already taken) that satisfies `predicate`; earlier ones are skipped. */
  next(predicate?: (event: StreamEvent) => boolean): Promise<StreamEvent>;
  /** Resolves with the next comment line (heartbeat) the server sends. */
  nextComment(): Promise<string>;
  /** Resolves when the server has ended the stream. */
  ended(): Promise<void>;
  close(): void;
}
/** Collects the successive distinct statuses of one record from a stream until a final one. */
export declare function statusesUntilFinal(
  stream: EventStream,
  kind: string,
  matches: (data: StreamEvent['data']) => boolean,
): Promise<string[]>;
/** Serves `handler` on a free loopback port for this test file; returns its origin. */
export declare function serve(handler: RequestListener): Promise<string>;
/** A port on which nothing listens (bound, then released). */
export declare function closedPort(): Promise<number>;
//# sourceMappingURL=helpers.d.ts.map
