/**
 * Sandboxes: short-lived partners the service makes on request, so that each job of a
 * partner's CI has a partner of its own on one shared service. A sandbox is a partner like any
 * other (config.partners holds it; every part looks it up there when it uses it): its accounts,
 * sessions, jobs, events and event log, media, webhooks and budgets are its own, and no other
 * partner's calls reach them.
 *
 * It ends when it is reset (`DELETE /api/sandboxes/:partnerID`, `resetSandbox()`) or when its time
 * is over (a timer): its records are removed in one transaction (Store.removePartner), its jobs are
 * stopped before they write another step or file, its webhook deliveries stop, its media files are removed, and its open status
 * streams and sockets are ended. Its tokens and sessions are then refused with `sandbox_expired`
 * (partners.ts). Limits: `max` sandboxes at once (429 `sandbox_limit_reached`), and
 * `jobsPerSandbox` jobs running or waiting at once in each (429 `sandbox_job_limit_reached`).
 *
 * With a data file, sandboxes do not outlive the process: the service ends them at `close()`, and
 * at start it removes what a killed run left of any partner whose ID starts with
 * {@link SANDBOX_ID_PREFIX}, files included (docs/service.md "Sandboxes").
 */
import { randomBytes } from 'node:crypto';
import * as z from 'zod/mini';
import { NotFoundError, VideoPluginError, parseOrThrow, strictObject } from 'video-plugin/internal';
import { AUTH_MODES, SANDBOX_ID_PREFIX, originPattern, partnerFrom, webhookURL, type ServiceConfig } from './config.js';
import { removeMediaOf } from './media/files.js';
import type { SandboxEnd } from './partners.js';
import { newId, type Store } from './store/store.js';
import type { Jobs } from './jobs/jobs.js';
import type { Webhooks } from './webhooks/webhooks.js';

/** What a sandbox may be created with: the fields of a configured partner that are not secrets. */
export const SandboxOptionsSchema = strictObject({
  allowedOrigins: z.optional(z.array(originPattern).check(z.minLength(1))),
  webhookURLs: z.optional(z.array(webhookURL).check(z.maxLength(10))),
  authModes: z.optional(z.array(z.enum(AUTH_MODES)).check(z.minLength(1))),
});

/**
 * Options of a new sandbox, each optional: `allowedOrigins` (default, as the demo partner's: any
 * local port), `webhookURLs` (at most 10; its events are signed with its `webhookSecret`) and
 * `authModes` (default both).
 */
export type SandboxOptions = z.infer<typeof SandboxOptionsSchema>;

/** A new sandbox: what a test needs to act as its partner. */
export interface SandboxCredentials {
  /** Its partner ID (`sandbox_…`): the Plugin's `partnerID`, the `iss` of its tokens. */
  partnerID: string;
  /** Its partner secret (32 random bytes, base64url): mints its account tokens. */
  secret: string;
  /** Its webhook secret (32 random bytes, base64url): signs its webhooks, reads its event log. */
  webhookSecret: string;
  /** When it expires (ISO 8601): it is then reset. */
  expiresAt: string;
}

/** Random bytes of a sandbox's secrets: as many as the shortest secret a partner may configure. */
const SECRET_BYTES = 32;

/** What the sandboxes stop, end and remove. */
interface SandboxParts {
  config: ServiceConfig;
  store: Store;
  jobs: Pick<Jobs, 'stopPartner' | 'runningFor'>;
  /** Stops a partner's webhook deliveries (webhooks.ts). */
  webhooks: Pick<Webhooks, 'stopPartner'>;
  /** Ends a session's status streams and sockets (http/stream.ts). */
  endSession: (sessionKey: string) => void;
  /** The media folder ('' without one). */
  mediaDir: string;
}

/** The service's sandboxes: creates them, and resets them on request or when their time is over. */
export class Sandboxes {
  readonly #parts: SandboxParts;
  /** The live sandboxes' expiry timers, by partner ID. */
  readonly #timers = new Map<string, NodeJS.Timeout>();

  constructor(parts: SandboxParts) {
    this.#parts = parts;
  }

  /** How many sandboxes are live. */
  get size(): number {
    return this.#timers.size;
  }

  /**
   * Makes a sandbox: a partner with fresh random secrets, live for `sandboxes.ttlMs`.
   *
   * @param where - the caller, for messages (`createSandbox`, `POST /api/sandboxes: body`).
   * @throws {InvalidParameterError} `invalid_parameter` naming the bad field (nothing is made).
   * @throws {VideoPluginError} `sandbox_limit_reached` (429) when `sandboxes.max` are live.
   */
  create(options: unknown = {}, where = 'createSandbox'): SandboxCredentials {
    const parsed = parseOrThrow(SandboxOptionsSchema, options ?? {}, where);
    const { config } = this.#parts;
    const { max, ttlMs } = config.sandboxes;
    if (this.#timers.size >= max) {
      throw new VideoPluginError(
        'sandbox_limit_reached',
        `${where}: ${max} sandboxes are live, the most this service allows at once (sandboxes.max). Reset one you are done with (DELETE /api/sandboxes/:partnerID), or start the service with a higher limit (--sandboxes-max).`,
        { limit: 'sandboxes.max', max },
      );
    }
    const partnerID = newId(SANDBOX_ID_PREFIX.slice(0, -1));
    const secret = randomBytes(SECRET_BYTES).toString('base64url');
    const webhookSecret = randomBytes(SECRET_BYTES).toString('base64url');
    const expiresAt = Date.now() + ttlMs;
    config.partners.set(
      partnerID,
      partnerFrom({ id: partnerID, secret, webhookSecrets: [webhookSecret], ...parsed, sandbox: { expiresAt } }),
    );
    const timer = setTimeout(() => {
      this.reset(partnerID, 'expired').catch((error: unknown) =>
        console.error(`video-plugin-service: the sandbox ${partnerID} could not be ended at its expiry:`, error),
      );
    }, ttlMs);
    timer.unref();
    this.#timers.set(partnerID, timer);
    return { partnerID, secret, webhookSecret, expiresAt: new Date(expiresAt).toISOString() };
  }

  /**
   * Ends a sandbox: removes its records (one transaction), stops its jobs, removes its media files,
   * then ends its status streams and sockets. Resolves once all of that is done.
   *
   * @throws {NotFoundError} `sandbox_not_found` when `partnerID` is no live sandbox (nothing changes).
   * @throws {DataFileError} when the data file refuses the removal (the sandbox then stays live).
   */
  async reset(partnerID: string, how: SandboxEnd = 'reset'): Promise<void> {
    const { config, store, jobs, webhooks, endSession, mediaDir } = this.#parts;
    if (!config.partners.get(partnerID)?.sandbox || !this.#timers.has(partnerID)) {
      const ended = config.partners.endedError(partnerID);
      throw new NotFoundError(
        'sandbox_not_found',
        ended
          ? `The sandbox "${partnerID}" has already ended (${ended.data?.reason as string}): nothing is left to reset.`
          : `There is no sandbox "${partnerID}" on this service. Give the partnerID that POST /api/sandboxes (createSandbox) returned.`,
        { partnerID },
      );
    }
    // First its records (nothing of it is saved from here on), then the partner: its tokens and
    // sessions are refused as `sandbox_expired` from the same step.
    const removed = store.removePartner(partnerID);
    config.partners.end(partnerID, how, removed.sessionKeys);
    clearTimeout(this.#timers.get(partnerID));
    this.#timers.delete(partnerID);
    webhooks.stopPartner(partnerID);
    await jobs.stopPartner(partnerID);
    await removeMediaOf(mediaDir, removed.videoIDs, removed.topicIDs);
    // Last, so that a client whose stream or socket ends finds every record and file gone.
    for (const key of removed.sessionKeys) endSession(key);
  }

  /**
   * Refuses a new job of a sandbox that has `sandboxes.jobsPerSandbox` running or waiting. Other
   * partners have no such limit (their budgets still apply: http/limits.ts).
   *
   * @throws {VideoPluginError} `sandbox_job_limit_reached` (429).
   */
  admitJob(partnerID: string): void {
    const { config, jobs } = this.#parts;
    if (!config.partners.get(partnerID)?.sandbox) return;
    const max = config.sandboxes.jobsPerSandbox;
    if (jobs.runningFor(partnerID) < max) return;
    throw new VideoPluginError(
      'sandbox_job_limit_reached',
      `The sandbox "${partnerID}" has ${max} jobs running or waiting, the most a sandbox may have at once (sandboxes.jobsPerSandbox). Wait for one to end (its status stream says when), then start this one again.`,
      { limit: 'sandboxes.jobsPerSandbox', max },
    );
  }

  /**
   * Removes what a previous run left of sandboxes in the data file (a killed process cannot end
   * them): every record of a partner whose ID starts with {@link SANDBOX_ID_PREFIX}, and its media
   * files. Returns how many sandboxes it removed. Called at start, before any job resumes.
   */
  async removeLeftovers(): Promise<number> {
    const { store, mediaDir } = this.#parts;
    let count = 0;
    for (const partnerID of store.partnerIDs()) {
      if (!partnerID.startsWith(SANDBOX_ID_PREFIX)) continue;
      const removed = store.removePartner(partnerID);
      await removeMediaOf(mediaDir, removed.videoIDs, removed.topicIDs);
      count++;
    }
    return count;
  }

  /** Ends every live sandbox (the service is closing): none outlives the process. */
  async close(): Promise<void> {
    const ids = [...this.#timers.keys()];
    for (const id of ids) {
      await this.reset(id, 'expired').catch((error: unknown) =>
        console.error(`video-plugin-service: the sandbox ${id} could not be ended at close:`, error),
      );
    }
  }
}
