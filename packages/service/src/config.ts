/**
 * The local service's options: defaults and validation. `startService()` and the
 * `video-plugin-service` command (whose flags and environment variables command-line.ts reads into
 * these options) share this one definition.
 */
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import * as z from 'zod/mini';
import {
  EVENT_RETENTION_DAYS,
  InvalidParameterError,
  parseOrThrow,
  secretListSchema,
  secretSchema,
  strictObject,
} from 'video-plugin/internal';
import { parseOriginPattern, type OriginPattern } from './origins.js';
import {
  DEFAULT_MAX_WAITING_JOBS,
  DEFAULT_SEARCH_SLOTS,
  LIMIT_NAMES,
  type Bucket,
  type LimitName,
} from './limit-values.js';
import { CLOCK_MODES, type ClockMode } from './jobs/clock.js';
import { Partners } from './partners.js';
import { parseMediaStore, type MediaStoreLocation } from './media/store.js';

/** Partner ID accepted when none is configured. */
export const DEMO_PARTNER_ID = 'demo-partner';
/** The longest a session lasts from its login, and the default: 30 days. */
export const MAX_SESSION_AGE_MS = 30 * 24 * 3600_000;
/** How long a session lasts without a call, by default: 24 hours (at most {@link MAX_SESSION_AGE_MS}). */
export const DEFAULT_SESSION_IDLE_MS = 24 * 3600_000;

/** Secret of the demo partner. Public on purpose: the service is a local stand-in. */
export const DEMO_SECRET = 'video-plugin-demo-secret-not-for-production';
/**
 * Webhook secret of a partner whose token secret is {@link DEMO_SECRET} and who gave none of its
 * own. Public on purpose, like the demo secret, and distinct from it: it cannot mint tokens.
 */
export const DEMO_WEBHOOK_SECRET = 'video-plugin-demo-webhook-secret-not-for-production';
/** Page origins allowed to embed the plugin when none are configured: any local port. */
export const DEFAULT_ALLOWED_ORIGINS: readonly string[] = ['http://localhost:*', 'http://127.0.0.1:*'];
/** Port of the service when none is given. */
export const DEFAULT_PORT = 8001;
/** Interface the service listens on when none is given: loopback only. */
export const DEFAULT_HOST = '127.0.0.1';
/** How long a topic search or a generation takes, in ms, when not set. */
export const DEFAULT_JOB_MS = 5000;
/** Wait before a webhook's first retry, in ms; it doubles with each retry (see {@link DEFAULT_WEBHOOK_MAX_RETRY_MS}). */
export const DEFAULT_WEBHOOK_RETRY_MS = 1000;
/** Longest wait between two tries of a webhook, in ms, when not set: 1 hour. */
export const DEFAULT_WEBHOOK_MAX_RETRY_MS = 3_600_000;
/** Longest wait between two tries that may be configured, in ms: 1 day. */
export const MAX_WEBHOOK_RETRY_MS = 86_400_000;
/** How long a delivery is retried from its event, in ms, when not set: 3 days (as Stripe does). */
export const DEFAULT_WEBHOOK_RETRY_FOR_MS = 3 * 86_400_000;
/** How long the service keeps an event in its log, in ms; a delivery is never retried longer. */
export const EVENT_RETENTION_MS = EVENT_RETENTION_DAYS * 86_400_000;
/** Most tries of one webhook delivery that may be configured (the default is no count: only time). */
export const MAX_WEBHOOK_TRIES = 1000;
/** Time limit of one webhook attempt, in ms, when not set. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5000;

/**
 * The start of every sandbox's partner ID (`sandbox_…`, sandboxes.ts). A configured partner may
 * not use it: with a data file, the records of every partner ID so named are removed at start.
 */
export const SANDBOX_ID_PREFIX = 'sandbox_';
/** Sandboxes at once, by default (`sandboxes.max`). */
export const DEFAULT_SANDBOX_MAX = 32;
/** How long a sandbox lives, by default (`sandboxes.ttlMs`): 1 hour. */
export const DEFAULT_SANDBOX_TTL_MS = 3_600_000;
/** Longest life of a sandbox that may be configured: 1 day. */
export const MAX_SANDBOX_TTL_MS = 86_400_000;
/** A sandbox's jobs running or waiting at once, by default (`sandboxes.jobsPerSandbox`). */
export const DEFAULT_SANDBOX_JOBS = 50;

/** The problem with a database URL, or undefined when it is a postgres:// URL with a host. */
export function databaseURLProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not a URL: write postgres://USER:PASSWORD@HOST:5432/DATABASE';
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    return `must be a postgres:// URL (got ${url.protocol}//…): write postgres://USER:PASSWORD@HOST:5432/DATABASE`;
  }
  if (!url.hostname) return 'names no host: write postgres://USER:PASSWORD@HOST:5432/DATABASE';
  return undefined;
}

/** The problem with a webhook URL, or undefined when it is an absolute http(s) URL. */
export function webhookURLProblem(text: string): string | undefined {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    return 'must be an absolute http or https URL, e.g. https://partner.example/hooks/video';
  }
  return undefined;
}

export const originPattern = z.string().check(
  z.refine((text) => typeof parseOriginPattern(text) !== 'string', {
    error: (issue) => String(parseOriginPattern(String(issue.input))),
  }),
);

export const webhookURL = z.string().check(
  z.refine((text) => webhookURLProblem(text) === undefined, {
    error: (issue) => webhookURLProblem(String(issue.input)),
  }),
);

/**
 * How a partner's users may sign in: `jwt` (with tokens from the partner's back end) and
 * `uncontrolled` (the studio's own email sign-in). A hosted service enables `uncontrolled` only for
 * partners who ask for it; the local service allows both unless told otherwise (`--auth-mode`).
 */
export const AUTH_MODES = ['jwt', 'uncontrolled'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

const PartnerSchema = strictObject({
  id: z.string().check(
    z.minLength(1),
    z.refine((id) => !id.startsWith(SANDBOX_ID_PREFIX), {
      error: `must not start with "${SANDBOX_ID_PREFIX}": that prefix is the service's sandboxes' (docs/service.md "Sandboxes")`,
    }),
  ),
  secret: secretSchema('the partner secret you give your back end'),
  webhookSecrets: z.optional(secretListSchema('a webhook secret distinct from the partner secret')),
  allowedOrigins: z.optional(z.array(originPattern).check(z.minLength(1))),
  webhookURLs: z.optional(z.array(webhookURL).check(z.maxLength(10))),
  authModes: z.optional(z.array(z.enum(AUTH_MODES)).check(z.minLength(1))),
});

const ServiceOptionsSchema = strictObject({
  port: z.optional(z.int().check(z.gte(0), z.lte(65535))),
  host: z.optional(z.string().check(z.minLength(1))),
  allowPrivateSources: z.optional(z.boolean()),
  allowLoopbackSources: z.optional(
    z.union([z.boolean(), z.array(z.int().check(z.gte(1), z.lte(65535))).check(z.minLength(1), z.maxLength(100))]),
  ),
  publicHosts: z.optional(
    z.array(
      z.string().check(
        z.regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i, {
          error: 'must be a host name without scheme or port, e.g. "video.example.com"',
        }),
      ),
    ),
  ),
  partners: z.optional(z.array(PartnerSchema).check(z.minLength(1))),
  jobMs: z.optional(z.int().check(z.gte(0), z.lte(600_000))),
  dataFile: z.optional(z.string().check(z.minLength(1))),
  database: z.optional(
    z.string().check(
      z.refine((url) => databaseURLProblem(url) === undefined, {
        error: (issue) => databaseURLProblem(String(issue.input)) ?? 'not a database URL',
      }),
    ),
  ),
  fetchTimeoutMs: z.optional(z.int().check(z.gte(1), z.lte(60_000))),
  heartbeatMs: z.optional(z.int().check(z.gte(10), z.lte(600_000))),
  sessionMaxAgeMs: z.optional(z.int().check(z.gte(0), z.lte(MAX_SESSION_AGE_MS))),
  sessionIdleMs: z.optional(z.int().check(z.gte(0), z.lte(MAX_SESSION_AGE_MS))),
  limits: z.optional(
    z.partialRecord(
      z.enum(LIMIT_NAMES as [LimitName, ...LimitName[]]),
      z.union([
        z.literal(false),
        strictObject({
          burst: z.int().check(z.gte(1), z.lte(1_000_000)),
          perMinute: z.number().check(z.gt(0), z.lte(1_000_000)),
        }),
      ]),
    ),
  ),
  searchSlots: z.optional(
    strictObject({
      perAccount: z.int().check(z.gte(1), z.lte(64)),
      total: z.int().check(z.gte(1), z.lte(256)),
    }),
  ),
  maxWaitingJobs: z.optional(z.int().check(z.gte(1), z.lte(100_000))),
  publicDir: z.optional(z.string().check(z.minLength(1))),
  media: z.optional(z.enum(['real', 'placeholder'])),
  mediaDir: z.optional(z.string().check(z.minLength(1))),
  mediaStore: z.optional(
    z.string().check(
      z.refine((text) => typeof parseMediaStore(text) !== 'string', {
        error: (issue) => String(parseMediaStore(String(issue.input))),
      }),
    ),
  ),
  mediaStoreRetryMs: z.optional(z.int().check(z.gte(0), z.lte(600_000))),
  renderConcurrency: z.optional(z.int().check(z.gte(1), z.lte(64))),
  sceneCacheBytes: z.optional(z.int().check(z.gte(0))),
  renderStallMs: z.optional(z.int().check(z.gte(100), z.lte(600_000))),
  webhookRetryMs: z.optional(z.int().check(z.gte(0), z.lte(MAX_WEBHOOK_RETRY_MS))),
  webhookMaxRetryMs: z.optional(z.int().check(z.gte(0), z.lte(MAX_WEBHOOK_RETRY_MS))),
  webhookRetryForMs: z.optional(z.int().check(z.gte(0), z.lte(EVENT_RETENTION_MS))),
  webhookTries: z.optional(z.int().check(z.gte(1), z.lte(MAX_WEBHOOK_TRIES))),
  webhookTimeoutMs: z.optional(z.int().check(z.gte(1), z.lte(60_000))),
  testControls: z.optional(z.boolean()),
  shared: z.optional(z.boolean()),
  clock: z.optional(z.enum(CLOCK_MODES)),
  sandboxes: z.optional(
    strictObject({
      operatorKey: z.optional(secretSchema('an operator key of your own, not a partner secret')),
      max: z.optional(z.int().check(z.gte(1), z.lte(1000))),
      ttlMs: z.optional(z.int().check(z.gte(10), z.lte(MAX_SANDBOX_TTL_MS))),
      jobsPerSandbox: z.optional(z.int().check(z.gte(1), z.lte(10_000))),
    }),
  ),
});

/** One partner the service accepts tokens from (programmatic form). */
export type PartnerOptions = z.infer<typeof PartnerSchema>;

/**
 * Options of `startService()`. Every field is optional.
 * - `port` (default 8001; 0 picks a free port) and `host` (default 127.0.0.1);
 * - `allowPrivateSources`: topic searches, images and webhooks may reach private addresses (10/8,
 *   172.16/12, 192.168/16, 100.64/10, fc00::/7; default false; egress.ts);
 * - `allowLoopbackSources`: topic searches and their images may reach this machine (127/8, ::1):
 *   `true` on any port but the service's own, or only the ports listed (`[4000]`); default false,
 *   so no search reads back another local port (egress.ts);
 * - `publicHosts`: host names the service answers to besides IP addresses and `localhost` (a
 *   request with any other `Host` gets 403: DNS rebinding; docs/service.md "Security");
 * - `partners`: `[{ id, secret, webhookSecrets?, allowedOrigins?, webhookURLs?, authModes? }]`,
 *   default one demo partner; `secret` (at least 32 bytes) verifies its account tokens;
 *   `webhookSecrets` (each at least 32 bytes, never the `secret`) sign its webhooks (the first) and
 *   authenticate its event log reads (any): required with `webhookURLs` unless `secret` is the demo
 *   secret (then {@link DEMO_WEBHOOK_SECRET}); `authModes` (default both, `jwt` and `uncontrolled`) says whether the studio's own
 *   sign-in is open for the partner;
 *   `allowedOrigins` defaults to `http://localhost:*` and `http://127.0.0.1:*`; `webhookURLs` (http
 *   or https, at most 10) receive the partner's signed events (docs/service.md "Webhooks");
 * - `jobMs`: how long a topic search or a generation takes (default 5000);
 * - `dataFile`: SQLite database that keeps the state across restarts, every change committed before
 *   it is answered (default: in memory; docs/service.md "Data");
 * - `database`: a PostgreSQL URL (`postgres://user:password@host:5432/db`) that keeps the state
 *   instead of a data file, committed before each answer like it; needs `mediaDir` (docs/service.md
 *   "Running it for a team"). Never with `dataFile`. The password is never printed;
 * - `fetchTimeoutMs`: time limit of a topic search's fetch (default 5000);
 * - `heartbeatMs`: interval of the status stream's keep-alive comment (default 15000);
 * - `sessionMaxAgeMs`: how long a session lasts from its login, at most (default 30 days; the
 *   page's `getLoginToken` logs the user in again when it ends);
 * - `sessionIdleMs`: how long a session lasts without a call (default 24 hours);
 * - `limits`: budgets that answer 429 `rate_limited`, by name (`topicSearches.account`...), each
 *   `{ burst, perMinute }` or `false` (not limited); unnamed ones keep their defaults
 *   (http/limits.ts, docs/service.md "Limits");
 * - `searchSlots`: topic searches fetching at once, `{ perAccount, total }` (default 2 and 8);
 *   the others wait PENDING;
 * - `maxWaitingJobs`: searches and renders one account may have waiting for a slot (default 50);
 *   more answer 429 `rate_limited` naming `waitingJobs.account` (jobs/waiting.ts);
 * - `publicDir`: directory served under `/assets/` (default: the built iframe pages);
 * - `media`: `real` (default: MP4 renders with a voiceover, see docs/service.md) or `placeholder`
 *   (instant SVG stand-ins, for integration tests that never look at the video);
 * - `mediaDir`: where downloaded images and renders are kept (default: `<dataFile>.media/`, or a
 *   temporary folder removed at `close()` when the data is in memory);
 * - `mediaStore`: `s3://BUCKET?endpoint=URL&region=R`, the media in an S3 bucket instead of the
 *   media folder (default: the folder; media/store.ts, docs/service.md "Media on S3"), with
 *   `mediaStoreRetryMs` how long storing a render's files keeps trying (default 30000);
 * - `renderConcurrency`: renders at once (default: the machine's cores);
 * - `sceneCacheBytes`: size limit of the scene cache (default 256 MB; media/segments.ts);
 *   `renderStallMs`: how long ffmpeg may report no progress before it counts as hung (default
 *   20000; media/encoder.ts);
 * - `webhookRetryMs`: wait before a webhook's first retry, doubled for each next one (default 1000),
 *   up to `webhookMaxRetryMs` (default 1 hour); `webhookRetryForMs`: how long from its event a
 *   delivery is retried (default 3 days, at most the log's 30); `webhookTries`: an optional cap on
 *   tries per delivery, 1–1000 (default none); `webhookTimeoutMs`: time limit of one attempt
 *   (default 5000). docs/service.md "Delivery, retries and records" has the schedule.
 * - `testControls`: for tests only (default false): partners' back ends may force their next jobs'
 *   outcomes (a failure code, a stall at a stage, a duration) with POST /api/test/outcomes, and
 *   `service.testControls` does it in-process (docs/service.md "Test controls");
 * - `shared`: the service is meant for shared use, by more than one partner (default false: a
 *   developer's own service). Shared, it never names its partners to anyone: `GET /api/health`
 *   leaves out `partners`, and an unknown partner's `partner_not_found` (diagnose, origin check,
 *   every partner route) says to check the ID without listing the known ones (docs/service.md
 *   "Who sees the partner IDs");
 * - `clock`: `real` (default) or `manual`: the jobs' timed steps wait on a step clock that moves
 *   only by `service.clock.advance(ms)` or POST /api/test/clock/advance (media stays real).
 * - `sandboxes`: `{ operatorKey?, max?, ttlMs?, jobsPerSandbox? }`, partners made at run time
 *   (`service.createSandbox()`, docs/service.md "Sandboxes"): `operatorKey` (at least 32 bytes)
 *   opens `POST /api/sandboxes` and `DELETE /api/sandboxes/:partnerID` to callers that send it as
 *   a bearer (without it they answer 403 `sandboxes_disabled`; the in-process method works
 *   either way); `max` sandboxes at once (default 32), each living `ttlMs` (default 1 hour, at most
 *   1 day) with at most `jobsPerSandbox` jobs running or waiting at once (default 50).
 */
export type ServiceOptions = z.infer<typeof ServiceOptionsSchema>;

/** A partner with its parsed origins and HS256 key. */
export interface Partner {
  readonly id: string;
  readonly secret: string;
  /** The HS256 key of its account tokens (from `secret`); never signs or reads events. */
  readonly key: Uint8Array;
  /** Its webhook secrets, the newest (which signs) first; none: no webhooks and no event log. */
  readonly webhookSecrets: readonly string[];
  /** The keys of {@link webhookSecrets}: the first signs webhooks, any reads the event log. */
  readonly webhookKeys: readonly Uint8Array[];
  readonly allowedOrigins: readonly OriginPattern[];
  /** Where the partner's webhook events are posted (none: no webhooks). */
  readonly webhookURLs: readonly string[];
  /** How its users may sign in; without `uncontrolled`, the studio's own sign-in answers 403. */
  readonly authModes: readonly AuthMode[];
  /** Set on a sandbox (sandboxes.ts): when it expires, in ms since the epoch. */
  readonly sandbox?: { readonly expiresAt: number };
}

/** The sandboxes' settings, defaults filled in (see {@link ServiceOptions} `sandboxes`). */
export interface SandboxSettings {
  /** Undefined: the HTTP door is closed (403 `sandboxes_disabled`). */
  readonly operatorKey: string | undefined;
  readonly max: number;
  readonly ttlMs: number;
  readonly jobsPerSandbox: number;
}

/** The options after validation, with every default filled in. */
export interface ServiceConfig {
  readonly port: number;
  readonly host: string;
  /** Outbound requests may reach private addresses (egress.ts). */
  readonly allowPrivateSources: boolean;
  /** Topic searches may reach loopback: on any port (`true`), the ports listed, or not (egress.ts). */
  readonly allowLoopbackSources: boolean | readonly number[];
  /** Names answered in `Host` besides IP addresses and loopback names (http/hosts.ts), lower case. */
  readonly publicHosts: readonly string[];
  /** Configured at start, and sandboxes added at run time: look a partner up when it is used. */
  readonly partners: Partners;
  readonly jobMs: number;
  readonly dataFile: string | undefined;
  /** The PostgreSQL URL the state is kept in (its password included: never print it, see {@link databaseLabel}). */
  readonly database: string | undefined;
  readonly fetchTimeoutMs: number;
  readonly heartbeatMs: number;
  /** How long a session lasts from its login (auth/sessions.ts). */
  readonly sessionMaxAgeMs: number;
  /** How long a session lasts without a call (auth/sessions.ts). */
  readonly sessionIdleMs: number;
  /** The budgets changed from their defaults (http/limits.ts). */
  readonly limits: Readonly<Partial<Record<LimitName, Bucket | false>>>;
  /** Topic searches fetching at once (jobs/slots.ts). */
  readonly searchSlots: { readonly perAccount: number; readonly total: number };
  /** Searches and renders one account may have waiting for a slot (jobs/waiting.ts). */
  readonly maxWaitingJobs: number;
  readonly publicDir: string;
  readonly media: 'real' | 'placeholder';
  /** Undefined: a temporary folder, made at start and removed at close. */
  readonly mediaDir: string | undefined;
  /** Undefined: the media folder holds the media (media/store.ts). */
  readonly mediaStore: MediaStoreLocation | undefined;
  readonly mediaStoreRetryMs: number | undefined;
  readonly renderConcurrency: number;
  /** Undefined: the renderer's defaults (`CACHE_BYTES`, `STALL_MS`). */
  readonly sceneCacheBytes: number | undefined;
  readonly renderStallMs: number | undefined;
  readonly webhookRetryMs: number;
  readonly webhookMaxRetryMs: number;
  readonly webhookRetryForMs: number;
  /** Undefined: no cap on the count, only {@link webhookRetryForMs}. */
  readonly webhookTries: number | undefined;
  readonly webhookTimeoutMs: number;
  /** Forced outcomes may be asked for (jobs/test-controls.ts). */
  readonly testControls: boolean;
  /** Meant for shared use: the partner IDs are never named to a caller (routes/diagnose.ts, request.ts). */
  readonly shared: boolean;
  /** What the jobs' timed steps wait on (jobs/clock.ts). */
  readonly clock: ClockMode;
  readonly sandboxes: SandboxSettings;
}

/** Validates the options and fills in the defaults. Throws `invalid_parameter` naming the field. */
export function resolveConfig(options: ServiceOptions = {}): ServiceConfig {
  const parsed = parseOrThrow(ServiceOptionsSchema, options, 'startService');
  const partners = new Partners();
  for (const [index, partner] of (parsed.partners ?? [{ id: DEMO_PARTNER_ID, secret: DEMO_SECRET }]).entries()) {
    if (partners.has(partner.id)) {
      throw new InvalidParameterError(
        `startService: "partners.${index}.id" repeats the partner ID "${partner.id}"; give each partner once.`,
        { field: `partners.${index}.id` },
      );
    }
    partners.set(partner.id, partnerFrom({ ...partner, webhookSecrets: webhookSecretsOf(partner, index) }));
  }
  if (parsed.database !== undefined && parsed.dataFile !== undefined) {
    throw new InvalidParameterError(
      'startService: "database" and "dataFile" are two places for the same data: give one (database for PostgreSQL, dataFile for an SQLite file).',
      { field: 'database' },
    );
  }
  if (parsed.database !== undefined && parsed.mediaDir === undefined) {
    throw new InvalidParameterError(
      'startService: "database" needs "mediaDir": the records outlive the process, so their renders must too (a folder that is kept, not a temporary one).',
      { field: 'mediaDir' },
    );
  }
  const operatorKey = parsed.sandboxes?.operatorKey;
  for (const partner of partners.values()) {
    if (operatorKey !== undefined && [partner.secret, ...partner.webhookSecrets].includes(operatorKey)) {
      throw new InvalidParameterError(
        `startService: "sandboxes.operatorKey" is a secret of partner "${partner.id}"; the operator key must be one of its own (it creates and resets sandboxes). Make one with \`openssl rand -base64 32\`.`,
        { field: 'sandboxes.operatorKey' },
      );
    }
  }
  return {
    port: parsed.port ?? DEFAULT_PORT,
    host: parsed.host ?? DEFAULT_HOST,
    publicHosts: (parsed.publicHosts ?? []).map((name) => name.toLowerCase()),
    allowPrivateSources: parsed.allowPrivateSources ?? false,
    allowLoopbackSources: parsed.allowLoopbackSources ?? false,
    partners,
    jobMs: parsed.jobMs ?? DEFAULT_JOB_MS,
    dataFile: parsed.dataFile,
    database: parsed.database,
    fetchTimeoutMs: parsed.fetchTimeoutMs ?? 5000,
    heartbeatMs: parsed.heartbeatMs ?? 15_000,
    sessionMaxAgeMs: parsed.sessionMaxAgeMs ?? MAX_SESSION_AGE_MS,
    sessionIdleMs: parsed.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS,
    limits: parsed.limits ?? {},
    searchSlots: parsed.searchSlots ?? DEFAULT_SEARCH_SLOTS,
    maxWaitingJobs: parsed.maxWaitingJobs ?? DEFAULT_MAX_WAITING_JOBS,
    publicDir: parsed.publicDir ?? defaultPublicDir(),
    media: parsed.media ?? 'real',
    mediaDir: parsed.mediaDir ?? (parsed.dataFile ? `${parsed.dataFile}.media` : undefined),
    mediaStore:
      parsed.mediaStore === undefined ? undefined : (parseMediaStore(parsed.mediaStore) as MediaStoreLocation),
    mediaStoreRetryMs: parsed.mediaStoreRetryMs,
    renderConcurrency: parsed.renderConcurrency ?? availableParallelism(),
    sceneCacheBytes: parsed.sceneCacheBytes,
    renderStallMs: parsed.renderStallMs,
    webhookRetryMs: parsed.webhookRetryMs ?? DEFAULT_WEBHOOK_RETRY_MS,
    webhookMaxRetryMs: parsed.webhookMaxRetryMs ?? DEFAULT_WEBHOOK_MAX_RETRY_MS,
    webhookRetryForMs: parsed.webhookRetryForMs ?? DEFAULT_WEBHOOK_RETRY_FOR_MS,
    webhookTries: parsed.webhookTries,
    webhookTimeoutMs: parsed.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
    testControls: parsed.testControls ?? false,
    shared: parsed.shared ?? false,
    clock: parsed.clock ?? 'real',
    sandboxes: {
      operatorKey: parsed.sandboxes?.operatorKey,
      max: parsed.sandboxes?.max ?? DEFAULT_SANDBOX_MAX,
      ttlMs: parsed.sandboxes?.ttlMs ?? DEFAULT_SANDBOX_TTL_MS,
      jobsPerSandbox: parsed.sandboxes?.jobsPerSandbox ?? DEFAULT_SANDBOX_JOBS,
    },
  };
}

/** A partner as the service keeps it (keys encoded, origins parsed, defaults filled in) from its checked fields. */
export function partnerFrom(
  fields: Omit<PartnerOptions, 'webhookSecrets'> & { webhookSecrets: readonly string[]; sandbox?: Partner['sandbox'] },
): Partner {
  const { webhookSecrets, sandbox } = fields;
  return {
    id: fields.id,
    secret: fields.secret,
    key: new TextEncoder().encode(fields.secret),
    webhookSecrets,
    webhookKeys: webhookSecrets.map((secret) => new TextEncoder().encode(secret)),
    allowedOrigins: (fields.allowedOrigins ?? DEFAULT_ALLOWED_ORIGINS).map(
      (text) => parseOriginPattern(text) as OriginPattern,
    ),
    webhookURLs: fields.webhookURLs ?? [],
    authModes: fields.authModes ?? AUTH_MODES,
    ...(sandbox ? { sandbox } : {}),
  };
}

/**
 * A partner's webhook secrets: those given; the demo one for the demo secret; none otherwise
 * (then no webhook URL may be given, and its event log cannot be read). A webhook secret equal to
 * the token secret is refused: whoever verifies webhooks must not be able to log anyone in.
 */
function webhookSecretsOf(partner: PartnerOptions, index: number): readonly string[] {
  const field = `partners.${index}.webhookSecrets`;
  const given = partner.webhookSecrets;
  for (const [at, secret] of (given ?? []).entries()) {
    if (secret === partner.secret) {
      throw new InvalidParameterError(
        `startService: "${field}.${at}" is the partner's token secret; a webhook secret must differ from it (whoever verifies webhooks must not be able to mint login tokens). Make one with \`openssl rand -base64 32\`.`,
        { field: `${field}.${at}` },
      );
    }
  }
  if (given) return given;
  if (partner.secret === DEMO_SECRET) return [DEMO_WEBHOOK_SECRET];
  if (partner.webhookURLs && partner.webhookURLs.length > 0) {
    throw new InvalidParameterError(
      `startService: "${field}" is required with webhookURLs: give the secret the webhooks are signed with (at least 32 bytes, not the partner secret; --webhook-secret on the command line). Make one with \`openssl rand -base64 32\`.`,
      { field },
    );
  }
  return [];
}

/**
 * The built iframe pages: `public/` beside the compiled module (dist/service/public, and
 * packages/service/dist/public in the package). When the service runs from source
 * (packages/service/src, with tsx in tests) that folder does not exist, so fall back to the build's.
 */
function defaultPublicDir(): string {
  const beside = fileURLToPath(new URL('./public/', import.meta.url));
  const built = fileURLToPath(new URL('../../../dist/service/public/', import.meta.url));
  return existsSync(beside) || !existsSync(built) ? beside : built;
}

/**
 * A URL as it may appear in a log line: its origin and the first segment of its path, without a
 * user, a password, the rest of the path, a query or a fragment, where a receiver's URL may carry a
 * secret of its own.
 */
export function loggable(url: string): string {
  try {
    const { origin, pathname, search, hash } = new URL(url);
    // The first segment names the endpoint; what follows may be a capability (Slack's, Discord's
    // and Zapier's hook URLs carry their secret in the path), as may a query or a fragment.
    const [first = '', ...rest] = pathname.slice(1).split('/');
    const more = rest.some(Boolean);
    return `${origin}/${first}${more ? '/…' : ''}${more || search || hash ? ' (the rest not shown)' : ''}`;
  } catch {
    return '(not a URL)';
  }
}
