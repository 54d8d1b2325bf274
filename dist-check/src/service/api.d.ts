/**
 * The JSON API under `/api/` that the plugin's pages call (documented in docs/service.md). Every
 * handler validates its input with a zod/mini schema, works on the caller's own records only, and
 * answers JSON; errors become `{ error: { code, message, data? } }` with a matching status.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServiceConfig } from './config.js';
import type { Jobs } from './jobs.js';
import { type AccountRecord, type Owner, type Store } from './store.js';
import type { Streams } from './stream.js';
/** Languages a generation accepts (DESIGN §2). */
export declare const LANGUAGES: readonly ['de', 'en-AU', 'en-GB', 'en-NZ', 'en-US', 'es', 'fr', 'it-IT', 'pt'];
/** Longest accepted `videoInstructions`. */
export declare const MAX_INSTRUCTIONS_LENGTH = 2000;
/** Longest accepted source URL. */
export declare const MAX_URL_LENGTH = 2048;
/** What the handlers work with. */
export interface ApiContext {
  config: ServiceConfig;
  store: Store;
  jobs: Jobs;
  streams: Streams;
  /** The service's origin, for media URLs. */
  baseURL: () => string;
  /** Where downloaded images and renders are kept (real media). */
  mediaDir: string;
}
/**
 * The account of a session token, for the API and the page's socket alike.
 *
 * @throws {NotAuthenticatedError} `not_authenticated` when there is no token or its session has ended.
 */
export declare function sessionOf(
  store: Store,
  token: string | undefined,
): {
  owner: Owner;
  account: AccountRecord;
  key: string;
};
/** Answers one `/api/` request. Throws API errors; the server turns them into JSON. */
export declare function handleApi(req: IncomingMessage, res: ServerResponse, url: URL, ctx: ApiContext): Promise<void>;
//# sourceMappingURL=api.d.ts.map
