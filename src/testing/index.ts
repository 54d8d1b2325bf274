/**
 * `video-plugin/testing`: what a partner's own test suite needs from the local service
 * (`video-plugin-service`), for Playwright Test, Vitest, Jest or Node's test runner alike:
 * - a **sandbox** per test or worker on one shared service ({@link createSandbox}): a partner of
 *   its own, with its accounts, jobs, events, media and budgets, ended by `reset()`;
 * - **tokens** minted for it, and **users** signed in over the service's HTTP API
 *   ({@link TestSandbox.signIn});
 * - **forced outcomes** and the **step clock** (`--test-controls`, `--clock manual`), so a test of
 *   "the search failed" or "generate, then complete" needs no broken machine and no sleep;
 * - {@link waitForStatus}: waits for a status on the service's subscriptions (the status stream
 *   the studio follows, or the SDK's own status iterators): no polling, and a job that ended
 *   otherwise fails the wait at once with its error;
 * - {@link sandboxFixtures}: the same as Playwright Test fixtures, a sandbox per test.
 *
 * Node ≥ 20 (and Deno, Bun): `fetch` and Web Crypto only. Never ship it to a browser: it holds the
 * sandbox's secrets. docs/testing-your-integration.md has a complete example.
 *
 * @example
 * ```ts
 * import { createSandbox } from 'video-plugin/testing';
 * // A service started with --sandboxes and --allow-loopback-port 4000 (the site searched below).
 * const sandbox = await createSandbox({ serviceURL: 'http://127.0.0.1:8001', operatorKey: process.env.OPERATOR_KEY! });
 * const user = await sandbox.signIn('user-1');
 * const { topicId } = await user.api('POST', '/api/topics', { sourceURL: 'http://localhost:4000/' });
 * await user.waitForStatus('topic', topicId, 'COMPLETE');
 * await sandbox.reset();
 * ```
 * @module
 */
import * as z from 'zod/mini';
import { loginOrCreateAccountToken } from '../server/index.js';
import { call, EventsError, listEvents, resendEvent, sendTestWebhook, sign } from '../server/events.js';
import type { WebhookKitAnswer } from '../server/events.js';
import type { WebhookEvent, WebhookEventType } from '../server/claims.js';
import { parseOrThrow, strictObject } from '../server/validate.js';

export { EventsError };

/** What the service answers when it makes a sandbox (`POST /api/sandboxes`). */
export interface SandboxCredentials {
  /** The sandbox's partner ID (`sandbox_…`): the page's `partner-id`, the tokens' issuer. */
  readonly partnerID: string;
  /** Mints its account tokens (`video-plugin/server`). */
  readonly secret: string;
  /** Signs its webhooks and reads its event log. */
  readonly webhookSecret: string;
  /** When the service ends it by itself (ISO 8601). */
  readonly expiresAt: string;
}

const serviceURLSchema = z.string().check(
  z.refine((text) => /^https?:$/.test(URL.canParse(text) ? new URL(text).protocol : ''), {
    error: 'must be the http or https URL of the local service, e.g. http://127.0.0.1:8001',
  }),
);

const CreateSandboxOptionsSchema = strictObject({
  serviceURL: serviceURLSchema,
  operatorKey: z.string().check(
    z.minLength(1, {
      error: 'must be the operator key the service was started with (--operator-key, VIDEO_PLUGIN_OPERATOR_KEY)',
    }),
  ),
  allowedOrigins: z.optional(z.array(z.string())),
  webhookURLs: z.optional(z.array(z.string())),
  signal: z.optional(z.custom<AbortSignal>((value) => value instanceof AbortSignal)),
});

/**
 * Options of {@link createSandbox}. `allowedOrigins` (default `http://localhost:*` and
 * `http://127.0.0.1:*`) and `webhookURLs` are checked by the service as a configured partner's.
 */
export type CreateSandboxOptions = z.infer<typeof CreateSandboxOptionsSchema>;

const CredentialsSchema = z.object({
  partnerID: z.string(),
  secret: z.string(),
  webhookSecret: z.string(),
  expiresAt: z.string(),
});

/**
 * Makes a sandbox on a running service (started with `--sandboxes --operator-key KEY`).
 *
 * @throws {InvalidParameterError} `invalid_parameter` naming the bad option.
 * @throws {EventsError} the service's refusal: `sandboxes_disabled` (started without
 *   `--sandboxes`), `not_authenticated` (another operator key), `sandbox_limit_reached`,
 *   `invalid_parameter` (`data.field`); or `service_unreachable`.
 */
export async function createSandbox(options: CreateSandboxOptions): Promise<TestSandbox> {
  const { serviceURL, operatorKey, signal, ...fields } = parseOrThrow(
    CreateSandboxOptionsSchema,
    options,
    'createSandbox',
  );
  const url = new URL('/api/sandboxes', serviceURL);
  const credentials = await call(
    url,
    'POST',
    operatorKey,
    signal,
    'createSandbox',
    CredentialsSchema,
    'a sandbox',
    fields,
  );
  return new TestSandbox(credentials, serviceURL, operatorKey);
}

/** Test job kinds of the forced outcomes (`POST /api/test/outcomes`). */
export type TestJob = 'topicSearch' | 'generation' | 'render';

/**
 * What a test forces on the sandbox's next job of a kind (docs/service.md, "Test controls"):
 * a documented failure code, a stall at a named stage (until {@link TestSandbox.releaseOutcomes}),
 * or its own duration.
 */
export type ForcedOutcome = { fail: string } | { stall: string } | { takeMs: number };

/** A sandbox on the local service, with what a test does with it. */
export class TestSandbox implements SandboxCredentials {
  readonly partnerID: string;
  readonly secret: string;
  readonly webhookSecret: string;
  readonly expiresAt: string;
  /** The service it lives on. */
  readonly serviceURL: string;
  readonly #operatorKey: string;

  constructor(credentials: SandboxCredentials, serviceURL: string, operatorKey: string) {
    this.partnerID = credentials.partnerID;
    this.secret = credentials.secret;
    this.webhookSecret = credentials.webhookSecret;
    this.expiresAt = credentials.expiresAt;
    this.serviceURL = serviceURL;
    this.#operatorKey = operatorKey;
  }

  /**
   * A "sign in or sign up" token of the sandbox for the user `externalID`: what your back end's
   * token route answers the page with (`plugin.loginAccount(token)`).
   */
  token(
    externalID: string,
    account?: { firstName?: string; lastName?: string; emailAddress?: string },
  ): Promise<string> {
    return loginOrCreateAccountToken({
      partnerID: this.partnerID,
      secret: this.secret,
      externalID,
      ...(account ? { account } : {}),
    });
  }

  /** Signs `externalID` in over the HTTP API (its account made on first use): a {@link TestUser}. */
  async signIn(externalID: string): Promise<TestUser> {
    const token = await this.token(externalID);
    const answer = await call(
      new URL('/api/sessions', this.serviceURL),
      'POST',
      undefined,
      undefined,
      'signIn',
      z.object({ session: z.string(), account: z.object({ id: z.string() }) }),
      'a session',
      { token },
    );
    return new TestUser(this.serviceURL, answer.session, answer.account.id);
  }

  /**
   * Forces the outcome of the sandbox's next job of `job` (of `account`, an external or account
   * ID, when given). The service must run with `--test-controls`.
   *
   * @throws {EventsError} `test_controls_off`; `invalid_parameter` naming the allowed codes or stages.
   */
  async forceOutcome(request: { job: TestJob; account?: string; outcome: ForcedOutcome }): Promise<void> {
    await this.#partnerCall('POST', '/api/test/outcomes', 'forceOutcome', request);
  }

  /** Clears the forced outcomes not taken yet and releases the stalled jobs of the sandbox. */
  async releaseOutcomes(): Promise<void> {
    await this.#partnerCall('DELETE', '/api/test/outcomes', 'releaseOutcomes');
  }

  /**
   * Moves the sandbox's step clock (`--clock manual`) by `ms`; resolves once the jobs' steps it
   * released are saved (a status stream has them).
   */
  async advanceClock(ms: number): Promise<{ released: number; waiting: number }> {
    const answer = await this.#partnerCall('POST', '/api/test/clock/advance', 'advanceClock', { ms });
    return answer as { released: number; waiting: number };
  }

  /**
   * Advances the sandbox's step clock `stepMs` at a time until `until` settles (a
   * {@link waitForStatus}, say), and settles as it does: "generate, then complete" with no sleep.
   * Gives up with a `StatusWaitError` after `maxSteps` advances that left `until` pending.
   */
  async advanceUntil<T>(until: Promise<T>, { stepMs = 1000, maxSteps = 1000 } = {}): Promise<T> {
    let settled = false;
    const result = until.finally(() => (settled = true));
    result.catch(() => {}); // handled by the caller's await below
    for (let step = 0; step < maxSteps && !settled; step++) await this.advanceClock(stepMs);
    if (!settled) {
      throw new StatusWaitError(`advanceUntil: still waiting after ${maxSteps} steps of ${stepMs} ms.`, undefined);
    }
    return result;
  }

  /** Every event of the sandbox's event log so far, oldest first (what its webhooks carried). */
  async events(): Promise<WebhookEvent[]> {
    const events: WebhookEvent[] = [];
    for await (const page of listEvents(this.#backEnd())) events.push(...page.events);
    return events;
  }

  /** Sends a signed test event of `type` to the sandbox's webhook URLs (`test: true`). */
  sendTestWebhook(type: WebhookEventType): Promise<WebhookKitAnswer> {
    return sendTestWebhook({ ...this.#backEnd(), type });
  }

  /** Delivers a logged event again (same `id`, `redelivery: true`). */
  resendEvent(eventID: string): Promise<WebhookKitAnswer> {
    return resendEvent({ ...this.#backEnd(), eventID });
  }

  /**
   * Ends the sandbox at once: its records, jobs, media, sessions and streams are gone, and its
   * tokens answer 401 `sandbox_expired`. Ending one already ended is not an error.
   */
  async reset(): Promise<void> {
    const url = new URL(`/api/sandboxes/${encodeURIComponent(this.partnerID)}`, this.serviceURL);
    try {
      await call(url, 'DELETE', this.#operatorKey, undefined, 'reset', z.unknown(), 'an empty answer');
    } catch (error) {
      if (!(error instanceof EventsError && error.code === 'sandbox_not_found')) throw error;
    }
  }

  /** `await using sandbox = await createSandbox(…)` resets it at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.reset();
  }

  #backEnd(): { partnerID: string; secret: string; serviceURL: string } {
    return { partnerID: this.partnerID, secret: this.webhookSecret, serviceURL: this.serviceURL };
  }

  async #partnerCall(method: 'POST' | 'DELETE', path: string, context: string, body?: unknown): Promise<unknown> {
    const token = await sign(this.partnerID, new TextEncoder().encode(this.webhookSecret));
    return call(new URL(path, this.serviceURL), method, token, undefined, context, z.unknown(), 'an answer', body);
  }
}

/** A status as the service and the SDK report it. */
export type Status = 'PENDING' | 'PROCESSING' | 'COMPLETE' | 'FAILED';

/** What a status subscription yields: the SDK's `…Status()` iterators, or {@link TestUser.statuses}. */
export interface StatusUpdate {
  status: string;
  error?: { code?: string; message?: string } | undefined;
}

/** Why {@link waitForStatus} gave up: the job ended otherwise, or the subscription ended first. */
export class StatusWaitError extends Error {
  /** The last update seen (undefined when none came). */
  readonly last: StatusUpdate | undefined;
  constructor(message: string, last: StatusUpdate | undefined) {
    super(message);
    this.last = last;
  }
}
StatusWaitError.prototype.name = 'StatusWaitError';

/**
 * Waits on a status subscription until one of `want` comes, and resolves with that update. Fails
 * at once with a {@link StatusWaitError} (carrying the job's error) when the job ends with another
 * final status (COMPLETE or FAILED), or when the subscription ends first: a test learns why, now,
 * instead of waiting out its time limit. No polling: each update is read as it comes.
 *
 * `updates` is any async iterable of `{ status, error? }`: in the page, the SDK's own iterators
 * (`plugin.videoGenerationStatus(requestId)`); in Node, {@link TestUser.statuses}.
 */
export async function waitForStatus<U extends StatusUpdate>(
  updates: AsyncIterable<U>,
  want: Status | readonly Status[],
  what = 'the job',
): Promise<U> {
  const wanted: readonly string[] = typeof want === 'string' ? [want] : want;
  let last: U | undefined;
  for await (const update of updates) {
    last = update;
    if (wanted.includes(update.status)) return update;
    if (update.status === 'COMPLETE' || update.status === 'FAILED') {
      const reason = update.error ? ` (${update.error.code ?? 'error'}: ${update.error.message ?? ''})` : '';
      throw new StatusWaitError(`${what} ended ${update.status}${reason}, not ${wanted.join(' or ')}.`, update);
    }
  }
  throw new StatusWaitError(
    `the status updates of ${what} ended at ${last?.status ?? 'no status'}, before ${wanted.join(' or ')}.`,
    last,
  );
}

/** A record kind of the status stream, and the render of a video (its first render's status). */
export type StatusKind = 'topic' | 'generation' | 'render';

/** A user of a sandbox signed in over the HTTP API, as the studio is. */
export class TestUser {
  /** The service it is signed in to. */
  readonly serviceURL: string;
  /** Its session (`Authorization: Bearer`). */
  readonly session: string;
  /** Its account ID (`acct_…`). */
  readonly accountID: string;

  constructor(serviceURL: string, session: string, accountID: string) {
    this.serviceURL = serviceURL;
    this.session = session;
    this.accountID = accountID;
  }

  /**
   * Calls the service's HTTP API (docs/service.md, "Routes") as the user: the answer's JSON, or an
   * {@link EventsError} with the service's code and message.
   */
  api<T = Record<string, unknown>>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    return call(
      new URL(path, this.serviceURL),
      method,
      this.session,
      undefined,
      `${method} ${path}`,
      z.unknown(),
      'an answer',
      body,
    ) as Promise<T>;
  }

  /**
   * The status updates of a topic, a generation or a video's render, from the status stream
   * (`GET /api/events?<kind>=<id>`): the current status first, then each change of status, until
   * the loop breaks (which closes the stream) or the stream ends.
   */
  async *statuses(kind: StatusKind, id: string, signal?: AbortSignal): AsyncGenerator<StatusUpdate, void, undefined> {
    const filter = kind === 'render' ? 'video' : kind;
    const url = new URL(`/api/events?${filter}=${encodeURIComponent(id)}`, this.serviceURL);
    const controller = new AbortController();
    const abort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', abort, { once: true });
    try {
      const response = await fetch(url, {
        headers: { authorization: `Bearer ${this.session}` },
        signal: controller.signal,
      });
      if (!response.ok || !response.body) {
        const answer = (await response.json().catch(() => undefined)) as
          { error?: { code: string; message: string } } | undefined;
        throw new EventsError(
          answer?.error?.code ?? 'service_bad_answer',
          `statuses: ${answer?.error?.message ?? `HTTP ${response.status}`}`,
          response.status,
        );
      }
      let buffer = '';
      let previous: string | undefined;
      const decoder = new TextDecoder();
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(message)?.[1];
          if (/^event: (.*)$/m.exec(message)?.[1] !== filter || !data) continue;
          const record = JSON.parse(data) as StatusUpdate & { renders?: StatusUpdate[] };
          const update = kind === 'render' ? (record.renders?.[0] ?? { status: 'PENDING' }) : record;
          const key = `${update.status} ${JSON.stringify(update.error ?? null)}`;
          if (key === previous) continue;
          previous = key;
          yield { status: update.status, ...(update.error ? { error: update.error } : {}) };
        }
      }
    } finally {
      signal?.removeEventListener('abort', abort);
      controller.abort();
    }
  }

  /** {@link waitForStatus} on {@link statuses}: resolves with the update once `kind` `id` reaches `want`. */
  waitForStatus(
    kind: StatusKind,
    id: string,
    want: Status | readonly Status[],
    signal?: AbortSignal,
  ): Promise<StatusUpdate> {
    return waitForStatus(this.statuses(kind, id, signal), want, `${kind} ${id}`);
  }
}

/** Options of {@link sandboxFixtures}: where the shared service is, and the sandboxes' settings. */
export type SandboxFixturesOptions = Omit<CreateSandboxOptions, 'signal'>;

/**
 * Playwright Test fixtures: a `sandbox` of its own for every test, on one shared service, reset
 * when the test ends (so a failing test leaves nothing behind for the next).
 *
 * @example
 * ```ts
 * import { test as base } from '@playwright/test';
 * import { sandboxFixtures, type TestSandbox } from 'video-plugin/testing';
 * export const test = base.extend<{ sandbox: TestSandbox }>(
 *   sandboxFixtures({ serviceURL: 'http://127.0.0.1:8001', operatorKey: process.env.OPERATOR_KEY! }),
 * );
 * ```
 */
export function sandboxFixtures(options: SandboxFixturesOptions): {
  sandbox: (fixtures: object, use: (sandbox: TestSandbox) => Promise<void>) => Promise<void>;
} {
  return {
    // Playwright reads a fixture's dependencies from its first parameter, which must be a pattern.
    // eslint-disable-next-line no-empty-pattern
    sandbox: async ({}, use) => {
      const sandbox = await createSandbox(options);
      try {
        await use(sandbox);
      } finally {
        await sandbox.reset();
      }
    },
  };
}
