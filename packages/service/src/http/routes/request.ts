/**
 * What every route handler shares: the context and request it works with, reading a validated body, the
 * caller's session, the partner of the path, and idempotent starts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as z from 'zod/mini';
import {
  InvalidParameterError,
  NotFoundError,
  MAX_FIELD_LENGTH,
  parseOrThrow,
  IDEMPOTENCY_KEY,
} from 'video-plugin/internal';
import type { AuthMode, Partner, ServiceConfig } from '../../config.js';
import { HttpError, readJson } from '../reply.js';
import { fingerprint, sessionKey, type AccountRecord, type Owner, type Store } from '../../store/store.js';
import { sessionOf } from '../../auth/sessions.js';
import type { Jobs } from '../../jobs/jobs.js';
import type { Streams } from '../stream.js';
import type { Webhooks } from '../../webhooks/webhooks.js';
import { admitWaiting, clientIp, type Budgets } from '../limits.js';
import type { Sandboxes } from '../../sandboxes.js';
import type { LimitedCall } from '../../limit-values.js';
import type { StepClock } from '../../jobs/clock.js';
import type { TestControls } from '../../jobs/test-controls.js';

/** What the handlers work with. */
export interface ApiContext {
  config: ServiceConfig;
  store: Store;
  jobs: Jobs;
  streams: Streams;
  /** Told of new accounts (the video events come from the jobs); sends test events and resends (the webhook kit). */
  webhooks: Pick<Webhooks, 'accountCreated' | 'sendTest' | 'resend'>;
  /** The service's origin, for media URLs. */
  baseURL: () => string;
  /** Where downloaded images and renders are kept (real media). */
  mediaDir: string;
  /** What each caller may still start (http/limits.ts). */
  budgets: Budgets;
  /** The forced outcomes (jobs/test-controls.ts). */
  controls: TestControls;
  /** The step clock, with `--clock manual` (jobs/clock.ts). */
  stepClock: StepClock | undefined;
  /** The sandboxes: made and reset by the operator, and their jobs' limit. */
  sandboxes: Sandboxes;
}

export interface Request {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: Record<string, string>;
  ctx: ApiContext;
}

/** A handler's answer: a status and a JSON body (none for 204), or `undefined` when it answered itself. */
export type Reply = { status: number; body?: unknown } | undefined;
export type Handler = (request: Request) => Promise<Reply> | Reply;

export const nonEmpty = (max = MAX_FIELD_LENGTH) => z.string().check(z.minLength(1), z.maxLength(max));

/**
 * The request's `Idempotency-Key` header (see Store.idempotent): 1 to 255 visible ASCII
 * characters, or none.
 */
function idempotencyKey({ req, url }: Request): string | undefined {
  const key = req.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) {
    throw new InvalidParameterError(
      `${req.method} ${url.pathname}: the Idempotency-Key header (options.idempotencyKey) must be 1 to 255 visible ASCII characters (no spaces), e.g. a UUID made once per user action.`,
      { field: 'options.idempotencyKey' },
    );
  }
  return key;
}

/**
 * Starts a request once per idempotency key (when the request has one): a repeated key answers
 * what the first request answered, with `replayed: true`. See Store.idempotent.
 */
export function once<T extends Record<string, unknown>>(
  request: Request,
  route: 'topics' | 'generations',
  owner: Owner,
  normalised: Record<string, unknown> | (() => Record<string, unknown>),
  start: () => T,
): T & { replayed?: true } {
  const { store } = request.ctx;
  const key = idempotencyKey(request);
  if (key === undefined) return store.transaction(start);
  // A function is called once the key is found good: its lookups come after the key's check.
  const params = typeof normalised === 'function' ? normalised() : normalised;
  const { result, replayed } = store.idempotent(owner, key, fingerprint(route, params), start);
  return replayed ? { ...result, replayed } : result;
}

export async function body<S extends z.core.$ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  const { req, url } = request;
  return parseOrThrow(schema, await readJson(req), `${req.method} ${url.pathname}: body`);
}

/** The session token of `Authorization: Bearer <session>`, if any. */
export function bearer(req: IncomingMessage): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
}

/**
 * The account of the request's session: `Authorization: Bearer <session>` only. Never from the URL
 * (`?session=`): URLs end up in logs, proxies and the Referer.
 */
export function authenticate({ req, ctx }: Request): { owner: Owner; account: AccountRecord; key: string } {
  const token = bearer(req);
  try {
    return sessionOf(ctx.store, token, ctx.config);
  } catch (error) {
    // A session refused here (past a limit, or gone) has no business keeping a socket or stream
    // open either: they end now, not only when their own timer comes (a clock that jumped ahead).
    if (token !== undefined) ctx.streams.endSession(sessionKey(token));
    throw error;
  }
}

/**
 * Spends one `call` from the caller's budgets: its IP address, and its account or partner when
 * known (http/limits.ts). A call of an account (it starts a search, a generation or a render)
 * first needs room among the account's waiting jobs (`waitingJobs.account`): one refused for that
 * spends no budget. Called before any work, so a refused call changes nothing.
 *
 * @throws {HttpError} 429 `rate_limited`.
 */
export function spend(request: Request, call: LimitedCall, who: { owner?: Owner; partnerID?: string } = {}): void {
  const { owner, partnerID } = who;
  const { config, jobs, sandboxes } = request.ctx;
  if (owner) admitWaiting(jobs.waitingJobs(owner), config.maxWaitingJobs, config.fetchTimeoutMs);
  const partner = owner?.partnerID ?? partnerID;
  const sandbox = partner !== undefined && config.partners.get(partner)?.sandbox !== undefined;
  // A call that starts a job counts against its sandbox's jobs at once (sandboxes.ts).
  if (sandbox && JOB_CALLS.has(call)) sandboxes.admitJob(partner);
  const ip = clientIp(request.req);
  request.ctx.budgets.spend(call, {
    // A sandbox's callers share their machine with the other sandboxes (a CI's parallel workers):
    // its per-IP budgets are its own, so that one worker's calls never starve another's.
    ip: sandbox ? `${partner} ${ip}` : ip,
    ...(owner ? { account: `${owner.partnerID}/${owner.accountID}` } : {}),
    ...(partnerID !== undefined ? { partner: partnerID } : {}),
  });
}

/** The calls that start a job (a topic search, a generation, a render). */
const JOB_CALLS: ReadonlySet<LimitedCall> = new Set(['topicSearches', 'generations', 'renders']);

export function partnerOf({ params, ctx }: Request): Partner {
  const partner = ctx.config.partners.get(params.partnerID ?? '');
  if (!partner) {
    const ended = ctx.config.partners.endedError(params.partnerID);
    if (ended) throw ended;
    // A developer's own service names its partners to the developer who started it
    // (docs/diagnose.md); a shared one never does, and no service names its sandboxes, which are
    // each one test's own.
    const fix = 'Check the partner ID given to the Plugin (partner-id on <video-plugin>) and the iss of your tokens';
    if (ctx.config.shared) {
      throw new NotFoundError(
        'partner_not_found',
        `The service knows no partner "${params.partnerID}". ${fix}: they must be the partner ID the service gave you (your dashboard shows it).`,
        { partnerID: params.partnerID },
      );
    }
    const partners = ctx.config.partners.configured().map(({ id }) => id);
    throw new NotFoundError(
      'partner_not_found',
      `The service knows no partner "${params.partnerID}" (it knows ${partners.map((id) => `"${id}"`).join(', ')}). ${fix}.`,
      { partnerID: params.partnerID, partners },
    );
  }
  return partner;
}

/** What each auth mode lets the partner's users do, for messages. */
const MODE_USE = {
  jwt: "tokens from the partner's back end (createAccount, loginAccount)",
  uncontrolled: "the studio's own sign-in",
} as const;

/**
 * Refuses what needs an auth mode the partner did not enable, so a partner that chose one way to
 * sign users in gets no other: the studio's sign-in (`uncontrolled`), a token redeemed (`jwt`), and
 * a handshake whose `authMode` is not one of the partner's.
 *
 * @throws {HttpError} 403 `account_methods_disabled` naming the mode, the partner's modes and the fix.
 */
export function requireAuthMode(partner: Partner, mode: AuthMode): void {
  if (partner.authModes.includes(mode)) return;
  throw new HttpError(
    403,
    'account_methods_disabled',
    `Partner "${partner.id}" does not allow authMode '${mode}' (${MODE_USE[mode]}); its auth modes: ${partner.authModes.join(', ')}. ` +
      `Create the Plugin with authMode '${partner.authModes[0]}', or enable '${mode}' for the partner (the local service: --auth-mode ${mode}).`,
    { partnerID: partner.id, authMode: mode, authModes: [...partner.authModes] },
  );
}
