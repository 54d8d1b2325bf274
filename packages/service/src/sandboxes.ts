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
 *
 * On a database several processes share (PostgreSQL), a sandbox is a record of the database, its
 * secrets included: made on any process, every process serves it from the commit on (each reads
 * the others' commits before a request and before a job), and it outlives the process that made
 * it. Its limit is counted, and it is saved, in one write transaction, which first reads the
 * others' commits under their common lock: the count holds across processes. Its reset or expiry,
 * on any process, removes it and its records once; each process then stops its jobs, deliveries,
 * streams and sockets and refuses its tokens. Every process has a timer for every sandbox: the
 * first to fire ends it, the others find it gone. A process that starts ends those whose time is
 * over (no process was running to do it).
 */
import { randomBytes } from 'node:crypto';
import * as z from 'zod/mini';
import { NotFoundError, VideoPluginError, parseOrThrow, strictObject } from 'video-plugin/internal';
import { AUTH_MODES, SANDBOX_ID_PREFIX, originPattern, partnerFrom, webhookURL, type ServiceConfig } from './config.js';
import { removeMediaOf } from './media/files.js';
import type { SandboxEnd } from './partners.js';
import { newId, type RemovedPartner, type SandboxRecord, type Store } from './store/store.js';
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

/** How long a process waits to end an expired sandbox again when its database refused (a shared one). */
const EXPIRY_RETRY_MS = 5000;

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
    // On a shared database, the sandboxes the other processes make and end.
    parts.store.followSandboxes({
      made: (record) => this.#serve(record),
      ended: (partnerID, how, removed) => {
        // Refused from this step on; the rest once the store's current read or write is over.
        this.#forget(partnerID, how, removed);
        queueMicrotask(() => {
          this.#stop(partnerID, removed).catch((error: unknown) =>
            console.error(
              `video-plugin-service: the sandbox ${partnerID}, ended by another process, could not be stopped here:`,
              error,
            ),
          );
        });
      },
    });
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
    const { config, store } = this.#parts;
    const { max, ttlMs } = config.sandboxes;
    const refuseOverLimit = () => {
      if (this.#timers.size < max) return;
      throw new VideoPluginError(
        'sandbox_limit_reached',
        `${where}: ${max} sandboxes are live, the most this service allows at once (sandboxes.max). Reset one you are done with (DELETE /api/sandboxes/:partnerID), or start the service with a higher limit (--sandboxes-max).`,
        { limit: 'sandboxes.max', max },
      );
    };
    const record: SandboxRecord = {
      partnerID: newId(SANDBOX_ID_PREFIX.slice(0, -1)),
      secret: randomBytes(SECRET_BYTES).toString('base64url'),
      webhookSecret: randomBytes(SECRET_BYTES).toString('base64url'),
      ...parsed,
      expiresAt: Date.now() + ttlMs,
    };
    if (store.sharesSandboxes) {
      // The transaction first reads the sandboxes the others made (their changes tell this
      // process, so the timers count them), under the lock the others' writes wait for.
      store.transaction(() => {
        refuseOverLimit();
        store.addSandbox(record);
      });
    } else {
      refuseOverLimit();
    }
    this.#serve(record);
    const { partnerID, secret, webhookSecret, expiresAt } = record;
    return { partnerID, secret, webhookSecret, expiresAt: new Date(expiresAt).toISOString() };
  }

  /** Serves a sandbox as a partner, and ends it when its time is over (made here, or by another process). */
  #serve(record: Readonly<SandboxRecord>): void {
    const { partnerID, secret, webhookSecret, expiresAt, ...options } = record;
    this.#parts.config.partners.set(
      partnerID,
      partnerFrom({ id: partnerID, secret, webhookSecrets: [webhookSecret], ...options, sandbox: { expiresAt } }),
    );
    this.#expireIn(partnerID, expiresAt - Date.now());
  }

  /**
   * Ends the sandbox in `ms`. On a shared database a failure (the database lost) is tried again in
   * {@link EXPIRY_RETRY_MS}, as the other processes' timers do: whichever succeeds first ends it.
   */
  #expireIn(partnerID: string, ms: number): void {
    clearTimeout(this.#timers.get(partnerID));
    const timer = setTimeout(
      () => {
        this.#end(partnerID, 'expired').catch((error: unknown) => {
          const again = this.#parts.store.sharesSandboxes && this.#timers.get(partnerID) === timer;
          console.error(
            `video-plugin-service: the sandbox ${partnerID} could not be ended at its expiry${again ? ` (tried again in ${EXPIRY_RETRY_MS} ms)` : ''}:`,
            error,
          );
          if (again) this.#expireIn(partnerID, EXPIRY_RETRY_MS);
        });
      },
      Math.max(0, ms),
    );
    timer.unref();
    this.#timers.set(partnerID, timer);
  }

  /**
   * Ends a sandbox: removes its records (one transaction), stops its jobs, removes its media files,
   * then ends its status streams and sockets. Resolves once all of that is done.
   *
   * @throws {NotFoundError} `sandbox_not_found` when `partnerID` is no live sandbox (nothing changes).
   * @throws {DataFileError} when the data file refuses the removal (the sandbox then stays live).
   */
  async reset(partnerID: string, how: SandboxEnd = 'reset'): Promise<void> {
    if (!this.#parts.config.partners.get(partnerID)?.sandbox || !this.#timers.has(partnerID)) {
      throw this.#notFound(partnerID);
    }
    // Another process ended it first (a shared database): its change, read then, ended it here.
    if (!(await this.#end(partnerID, how))) throw this.#notFound(partnerID);
  }

  #notFound(partnerID: string): NotFoundError {
    const ended = this.#parts.config.partners.endedError(partnerID);
    return new NotFoundError(
      'sandbox_not_found',
      ended
        ? `The sandbox "${partnerID}" has already ended (${ended.data?.reason as string}): nothing is left to reset.`
        : `There is no sandbox "${partnerID}" on this service. Give the partnerID that POST /api/sandboxes (createSandbox) returned.`,
      { partnerID },
    );
  }

  /**
   * Ends a sandbox: removes its records (one transaction), then stops what runs of it here. False
   * when another process sharing the database had removed it (nothing is left to do here then).
   */
  async #end(partnerID: string, how: SandboxEnd): Promise<boolean> {
    const { store } = this.#parts;
    // First its records (nothing of it is saved from here on), then the partner: its tokens and
    // sessions are refused as `sandbox_expired` from the same step.
    const removed = store.sharesSandboxes ? store.endSandbox(partnerID, how) : store.removePartner(partnerID);
    if (!removed) return false;
    this.#forget(partnerID, how, removed);
    await this.#stop(partnerID, removed);
    return true;
  }

  /** Takes an ended sandbox out of the partners (its tokens and sessions are refused from here on). */
  #forget(partnerID: string, how: SandboxEnd, removed: RemovedPartner): void {
    this.#parts.config.partners.end(partnerID, how, removed.sessionKeys);
    clearTimeout(this.#timers.get(partnerID));
    this.#timers.delete(partnerID);
  }

  /** Stops an ended sandbox's deliveries and jobs, removes its media files, then ends its streams and sockets. */
  async #stop(partnerID: string, removed: RemovedPartner): Promise<void> {
    const { jobs, webhooks, endSession, mediaDir } = this.#parts;
    webhooks.stopPartner(partnerID);
    await jobs.stopPartner(partnerID);
    await removeMediaOf(mediaDir, removed.videoIDs, removed.topicIDs);
    // Last, so that a client whose stream or socket ends finds every record and file gone.
    for (const key of removed.sessionKeys) endSession(key);
  }

  /**
   * Refuses a new job of a sandbox that has `sandboxes.jobsPerSandbox` running or waiting. Other
   * partners have no such limit (their budgets still apply: http/limits.ts). Checked before the
   * call's work and, on a shared database, again in the transaction that queues the job
   * (`starting`: the key of its record), where the jobs the other services queued are known.
   *
   * @throws {VideoPluginError} `sandbox_job_limit_reached` (429).
   */
  admitJob(partnerID: string, starting?: string): void {
    const { config, jobs } = this.#parts;
    if (!config.partners.get(partnerID)?.sandbox) return;
    const max = config.sandboxes.jobsPerSandbox;
    if (jobs.runningFor(partnerID, starting) < max) return;
    throw new VideoPluginError(
      'sandbox_job_limit_reached',
      `The sandbox "${partnerID}" has ${max} jobs running or waiting, the most a sandbox may have at once (sandboxes.jobsPerSandbox). Wait for one to end (its status stream says when), then start this one again.`,
      { limit: 'sandboxes.jobsPerSandbox', max },
    );
  }

  /**
   * At start, before any job resumes or is worked: with a data file, {@link removeLeftovers}; on a
   * shared database, serves the sandboxes it keeps and ends those whose time is over (ended by no
   * process, none running then). Returns how many it removed.
   */
  async start(): Promise<number> {
    const { store } = this.#parts;
    if (!store.sharesSandboxes) return this.removeLeftovers();
    let count = 0;
    for (const record of [...store.sandboxes.values()]) {
      if (record.expiresAt > Date.now()) this.#serve(record);
      else if (await this.#end(record.partnerID, 'expired')) count++;
    }
    return count;
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

  /**
   * The service is closing. With a data file or in memory, ends every live sandbox: none outlives
   * the process. On a shared database they go on: the other processes serve them (this one only
   * drops its timers).
   */
  async close(): Promise<void> {
    if (this.#parts.store.sharesSandboxes) {
      for (const timer of this.#timers.values()) clearTimeout(timer);
      this.#timers.clear();
      return;
    }
    const ids = [...this.#timers.keys()];
    for (const id of ids) {
      await this.reset(id, 'expired').catch((error: unknown) =>
        console.error(`video-plugin-service: the sandbox ${id} could not be ended at close:`, error),
      );
    }
  }
}
