/**
 * The local service's options: defaults, validation, and the command line / environment that set
 * them. `startService()` and the `video-plugin-service` command share this one definition.
 */
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import * as z from 'zod/mini';
import {
  EVENT_RETENTION_DAYS,
  InvalidParameterError,
  parseOrThrow,
  secretListSchema,
  secretProblem,
  secretSchema,
  strictObject,
} from 'video-plugin/internal';
import { parseOriginPattern, type OriginPattern } from './origins.js';
import { LIMIT_NAMES, type Bucket, type LimitName } from './http/limits.js';
import { DEFAULT_SEARCH_SLOTS } from './jobs/slots.js';

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

const originPattern = z.string().check(
  z.refine((text) => typeof parseOriginPattern(text) !== 'string', {
    error: (issue) => String(parseOriginPattern(String(issue.input))),
  }),
);

const webhookURL = z.string().check(
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
  id: z.string().check(z.minLength(1)),
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
  publicDir: z.optional(z.string().check(z.minLength(1))),
  media: z.optional(z.enum(['real', 'placeholder'])),
  mediaDir: z.optional(z.string().check(z.minLength(1))),
  renderConcurrency: z.optional(z.int().check(z.gte(1), z.lte(64))),
  sceneCacheBytes: z.optional(z.int().check(z.gte(0))),
  renderStallMs: z.optional(z.int().check(z.gte(100), z.lte(600_000))),
  webhookRetryMs: z.optional(z.int().check(z.gte(0), z.lte(MAX_WEBHOOK_RETRY_MS))),
  webhookMaxRetryMs: z.optional(z.int().check(z.gte(0), z.lte(MAX_WEBHOOK_RETRY_MS))),
  webhookRetryForMs: z.optional(z.int().check(z.gte(0), z.lte(EVENT_RETENTION_MS))),
  webhookTries: z.optional(z.int().check(z.gte(1), z.lte(MAX_WEBHOOK_TRIES))),
  webhookTimeoutMs: z.optional(z.int().check(z.gte(1), z.lte(60_000))),
});

/** One partner the service accepts tokens from (programmatic form). */
export type PartnerOptions = z.infer<typeof PartnerSchema>;

/**
 * Options of `startService()`. Every field is optional.
 * - `port` (default 8001; 0 picks a free port) and `host` (default 127.0.0.1);
 * - `allowPrivateSources`: topic searches, images and webhooks may reach private addresses (10/8,
 *   172.16/12, 192.168/16, 100.64/10, fc00::/7; default false; egress.ts);
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
 * - `publicDir`: directory served under `/assets/` (default: the built iframe pages);
 * - `media`: `real` (default: MP4 renders with a voiceover, see docs/service.md) or `placeholder`
 *   (instant SVG stand-ins, for integration tests that never look at the video);
 * - `mediaDir`: where downloaded images and renders are kept (default: `<dataFile>.media/`, or a
 *   temporary folder removed at `close()` when the data is in memory);
 * - `renderConcurrency`: renders at once (default: the machine's cores);
 * - `sceneCacheBytes`: size limit of the scene cache (default 256 MB; media/segments.ts);
 *   `renderStallMs`: how long ffmpeg may report no progress before it counts as hung (default
 *   20000; media/encoder.ts);
 * - `webhookRetryMs`: wait before a webhook's first retry, doubled for each next one (default 1000),
 *   up to `webhookMaxRetryMs` (default 1 hour); `webhookRetryForMs`: how long from its event a
 *   delivery is retried (default 3 days, at most the log's 30); `webhookTries`: an optional cap on
 *   tries per delivery, 1–1000 (default none); `webhookTimeoutMs`: time limit of one attempt
 *   (default 5000). docs/service.md "Delivery, retries and records" has the schedule.
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
}

/** The options after validation, with every default filled in. */
export interface ServiceConfig {
  readonly port: number;
  readonly host: string;
  /** Outbound requests may reach private addresses (egress.ts). */
  readonly allowPrivateSources: boolean;
  /** Names answered in `Host` besides IP addresses and loopback names (http/hosts.ts), lower case. */
  readonly publicHosts: readonly string[];
  readonly partners: ReadonlyMap<string, Partner>;
  readonly jobMs: number;
  readonly dataFile: string | undefined;
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
  readonly publicDir: string;
  readonly media: 'real' | 'placeholder';
  /** Undefined: a temporary folder, made at start and removed at close. */
  readonly mediaDir: string | undefined;
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
}

/** Validates the options and fills in the defaults. Throws `invalid_parameter` naming the field. */
export function resolveConfig(options: ServiceOptions = {}): ServiceConfig {
  const parsed = parseOrThrow(ServiceOptionsSchema, options, 'startService');
  const partners = new Map<string, Partner>();
  for (const [index, partner] of (parsed.partners ?? [{ id: DEMO_PARTNER_ID, secret: DEMO_SECRET }]).entries()) {
    if (partners.has(partner.id)) {
      throw new InvalidParameterError(
        'invalid_parameter',
        `startService: "partners.${index}.id" repeats the partner ID "${partner.id}"; give each partner once.`,
        { field: `partners.${index}.id` },
      );
    }
    const webhookSecrets = webhookSecretsOf(partner, index);
    partners.set(partner.id, {
      id: partner.id,
      secret: partner.secret,
      key: new TextEncoder().encode(partner.secret),
      webhookSecrets,
      webhookKeys: webhookSecrets.map((secret) => new TextEncoder().encode(secret)),
      allowedOrigins: (partner.allowedOrigins ?? DEFAULT_ALLOWED_ORIGINS).map(
        (text) => parseOriginPattern(text) as OriginPattern,
      ),
      webhookURLs: partner.webhookURLs ?? [],
      authModes: partner.authModes ?? AUTH_MODES,
    });
  }
  return {
    port: parsed.port ?? DEFAULT_PORT,
    host: parsed.host ?? DEFAULT_HOST,
    publicHosts: (parsed.publicHosts ?? []).map((name) => name.toLowerCase()),
    allowPrivateSources: parsed.allowPrivateSources ?? false,
    partners,
    jobMs: parsed.jobMs ?? DEFAULT_JOB_MS,
    dataFile: parsed.dataFile,
    fetchTimeoutMs: parsed.fetchTimeoutMs ?? 5000,
    heartbeatMs: parsed.heartbeatMs ?? 15_000,
    sessionMaxAgeMs: parsed.sessionMaxAgeMs ?? MAX_SESSION_AGE_MS,
    sessionIdleMs: parsed.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS,
    limits: parsed.limits ?? {},
    searchSlots: parsed.searchSlots ?? DEFAULT_SEARCH_SLOTS,
    publicDir: parsed.publicDir ?? defaultPublicDir(),
    media: parsed.media ?? 'real',
    mediaDir: parsed.mediaDir ?? (parsed.dataFile ? `${parsed.dataFile}.media` : undefined),
    renderConcurrency: parsed.renderConcurrency ?? availableParallelism(),
    sceneCacheBytes: parsed.sceneCacheBytes,
    renderStallMs: parsed.renderStallMs,
    webhookRetryMs: parsed.webhookRetryMs ?? DEFAULT_WEBHOOK_RETRY_MS,
    webhookMaxRetryMs: parsed.webhookMaxRetryMs ?? DEFAULT_WEBHOOK_MAX_RETRY_MS,
    webhookRetryForMs: parsed.webhookRetryForMs ?? DEFAULT_WEBHOOK_RETRY_FOR_MS,
    webhookTries: parsed.webhookTries,
    webhookTimeoutMs: parsed.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
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
        'invalid_parameter',
        `startService: "${field}.${at}" is the partner's token secret; a webhook secret must differ from it (whoever verifies webhooks must not be able to mint login tokens). Make one with \`openssl rand -base64 32\`.`,
        { field: `${field}.${at}` },
      );
    }
  }
  if (given) return given;
  if (partner.secret === DEMO_SECRET) return [DEMO_WEBHOOK_SECRET];
  if (partner.webhookURLs && partner.webhookURLs.length > 0) {
    throw new InvalidParameterError(
      'invalid_parameter',
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

/** Usage text of the `video-plugin-service` command. */
export const USAGE = `Usage: video-plugin-service [options]

Runs the local video-plugin service: the pages shown in the plugin's iframe and their JSON API.

Options:
  --port N               port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)   env VIDEO_PLUGIN_PORT
  --host HOST            interface to listen on (default ${DEFAULT_HOST})
  --public-host NAME     a host name the service answers to besides IP addresses and localhost
                         (any other Host header gets 403: DNS rebinding); repeatable
  --allow-private-sources  let topic searches, images and webhooks reach private addresses
                         (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7); loopback is allowed
                         while the service listens on loopback; link-local never
  --partner ID           partner ID accepted in tokens (default ${DEMO_PARTNER_ID})        env VIDEO_PLUGIN_PARTNER_ID
  --secret SECRET        that partner's HS256 secret for its account tokens, at least 32 bytes
                         (default: a demo secret, printed)                     env VIDEO_PLUGIN_SECRET
  --webhook-secret SECRET  the secret its webhooks are signed with and its event log is read
                         with, at least 32 bytes, never the --secret; repeatable during a roll:
                         the first signs, any reads (default with the demo secret: a demo
                         webhook secret, printed; required with --webhook-url otherwise)
                                                                       env VIDEO_PLUGIN_WEBHOOK_SECRET
  --allowed-origin ORIGIN  page origin allowed to embed the plugin; repeatable
                         (default http://localhost:* and http://127.0.0.1:*)
  --job-ms N             how long a topic search or generation takes, in ms (default ${DEFAULT_JOB_MS})
                                                                                 env VIDEO_PLUGIN_JOB_MS
  --data FILE            keep all data in FILE, an SQLite database, across restarts (default: memory)
  --media real|placeholder  real MP4 videos with a voiceover (default), or instant SVG stand-ins
                         for tests that never look at the video
  --media-dir DIR        where images and renders are kept (default: FILE.media/ with --data,
                         else a temporary folder removed at exit)
  --render-concurrency N renders at once (default: the number of cores)
  --auth-mode MODE       how the partner's users sign in: jwt (tokens from its back end) or
                         uncontrolled (the studio's own email sign-in); repeatable (default both)
  --session-idle-ms N    end a session after N ms without a call (default 86400000, 24 h)
  --session-max-age-ms N end a session N ms after its login (default 2592000000, 30 days)
  --limit NAME=B/M       a budget: at most B calls at once and M a minute, e.g.
                         topicSearches.account=10/60; NAME=off lifts it; repeatable
                         (NAME: signIn, tokens, topicSearches, generations or renders, then
                         .ip, .account or .partner; defaults in docs/service.md "Limits")
  --searches-at-once N   topic searches fetching at once in all (default ${DEFAULT_SEARCH_SLOTS.total}; ${DEFAULT_SEARCH_SLOTS.perAccount} per account)
  --webhook-url URL      post the partner's signed events (account.created, video.completed,
                         video.rendered) to URL, http or https; repeatable (default: none)
  --webhook-retry-ms N   wait before a webhook's first retry, doubled for each next one
                         (default ${DEFAULT_WEBHOOK_RETRY_MS})
  --webhook-max-retry-ms N  longest wait between two tries (default ${DEFAULT_WEBHOOK_MAX_RETRY_MS}: 1 hour)
  --webhook-retry-for-ms N  how long a delivery is retried from its event (default
                         ${DEFAULT_WEBHOOK_RETRY_FOR_MS}: 3 days); every event stays 30 days in the
                         event log (GET /api/partner/events) either way
  -h, --help             show this help

Flags win over environment variables.`;

/** A command-line mistake: the message says what to fix. The command exits with status 2. */
export class UsageError extends Error {}

/** The command line, understood: either a request for help or the options to start with. */
export type CommandLine = { help: true } | { help: false; options: ServiceOptions };

/** Reads the flags (and the environment variables they override) into service options. */
export function parseCommandLine(argv: readonly string[], env: NodeJS.ProcessEnv = {}): CommandLine {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'public-host': { type: 'string', multiple: true },
        'allow-private-sources': { type: 'boolean' },
        partner: { type: 'string' },
        secret: { type: 'string' },
        'allowed-origin': { type: 'string', multiple: true },
        'job-ms': { type: 'string' },
        data: { type: 'string' },
        media: { type: 'string' },
        'media-dir': { type: 'string' },
        'render-concurrency': { type: 'string' },
        'webhook-url': { type: 'string', multiple: true },
        'webhook-secret': { type: 'string', multiple: true },
        'webhook-retry-ms': { type: 'string' },
        'webhook-max-retry-ms': { type: 'string' },
        'webhook-retry-for-ms': { type: 'string' },
        'auth-mode': { type: 'string', multiple: true },
        'session-idle-ms': { type: 'string' },
        'session-max-age-ms': { type: 'string' },
        limit: { type: 'string', multiple: true },
        'searches-at-once': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return { help: true };

  const port = wholeNumber('--port', values.port, 'VIDEO_PLUGIN_PORT', env.VIDEO_PLUGIN_PORT, 65535);
  const jobMs = wholeNumber('--job-ms', values['job-ms'], 'VIDEO_PLUGIN_JOB_MS', env.VIDEO_PLUGIN_JOB_MS, 600_000);
  const partnerID = nonEmpty('--partner', values.partner, env.VIDEO_PLUGIN_PARTNER_ID);
  const secret = nonEmpty('--secret', values.secret, env.VIDEO_PLUGIN_SECRET);
  const secretFault =
    secret === undefined ? undefined : secretProblem(secret, 'the partner secret you give your back end');
  if (secretFault) throw new UsageError(`--secret ${secretFault}.`);
  const webhookSecrets =
    values['webhook-secret'] ?? (env.VIDEO_PLUGIN_WEBHOOK_SECRET ? [env.VIDEO_PLUGIN_WEBHOOK_SECRET] : undefined);
  for (const webhookSecret of webhookSecrets ?? []) {
    const fault = secretProblem(webhookSecret, 'a webhook secret distinct from --secret');
    if (fault) throw new UsageError(`--webhook-secret ${fault}.`);
    if (webhookSecret === (secret ?? DEMO_SECRET)) {
      throw new UsageError(
        '--webhook-secret must differ from --secret: whoever verifies webhooks must not be able to mint login tokens.',
      );
    }
  }
  const retry = (flag: string, max: number) =>
    wholeNumber(flag, values[flag.slice(2) as 'webhook-retry-ms'], '', undefined, max);
  const webhookRetryMs = retry('--webhook-retry-ms', MAX_WEBHOOK_RETRY_MS);
  const webhookMaxRetryMs = retry('--webhook-max-retry-ms', MAX_WEBHOOK_RETRY_MS);
  const webhookRetryForMs = retry('--webhook-retry-for-ms', EVENT_RETENTION_MS);
  const allowedOrigins = values['allowed-origin'];
  for (const origin of allowedOrigins ?? []) {
    const pattern = parseOriginPattern(origin);
    if (typeof pattern === 'string') throw new UsageError(`--allowed-origin: ${pattern}.`);
  }
  if (values.host === '') throw new UsageError('--host must not be empty.');
  if (values.data === '') throw new UsageError('--data must name a file.');
  if (values.media !== undefined && values.media !== 'real' && values.media !== 'placeholder') {
    throw new UsageError(`--media must be real or placeholder (got "${values.media}").`);
  }
  if (values['media-dir'] === '') throw new UsageError('--media-dir must name a folder.');
  const renderConcurrency = wholeNumber('--render-concurrency', values['render-concurrency'], '', undefined, 64);
  if (renderConcurrency === 0) throw new UsageError('--render-concurrency must be at least 1.');
  const authModes = values['auth-mode'];
  for (const mode of authModes ?? []) {
    if (!(AUTH_MODES as readonly string[]).includes(mode)) {
      throw new UsageError(`--auth-mode must be ${AUTH_MODES.join(' or ')} (got "${mode}").`);
    }
  }
  const sessionIdleMs = wholeNumber('--session-idle-ms', values['session-idle-ms'], '', undefined, MAX_SESSION_AGE_MS);
  const sessionMaxAgeMs = wholeNumber(
    '--session-max-age-ms',
    values['session-max-age-ms'],
    '',
    undefined,
    MAX_SESSION_AGE_MS,
  );
  const searchesAtOnce = wholeNumber('--searches-at-once', values['searches-at-once'], '', undefined, 256);
  if (searchesAtOnce === 0) throw new UsageError('--searches-at-once must be at least 1.');
  const limits = parseLimits(values.limit ?? []);
  const webhookURLs = values['webhook-url'];
  for (const url of webhookURLs ?? []) {
    const problem = webhookURLProblem(url);
    if (problem) throw new UsageError(`--webhook-url ${problem} (got "${url}").`);
  }

  const options: ServiceOptions = {
    partners: [
      {
        id: partnerID ?? DEMO_PARTNER_ID,
        secret: secret ?? DEMO_SECRET,
        ...(webhookSecrets ? { webhookSecrets } : {}),
        ...(allowedOrigins ? { allowedOrigins } : {}),
        ...(webhookURLs ? { webhookURLs } : {}),
        ...(authModes ? { authModes: authModes as AuthMode[] } : {}),
      },
    ],
  };
  if (port !== undefined) options.port = port;
  if (jobMs !== undefined) options.jobMs = jobMs;
  if (values.host !== undefined) options.host = values.host;
  if (values['public-host'] !== undefined) options.publicHosts = values['public-host'];
  if (values['allow-private-sources']) options.allowPrivateSources = true;
  if (values.data !== undefined) options.dataFile = values.data;
  if (values.media !== undefined) options.media = values.media;
  if (values['media-dir'] !== undefined) options.mediaDir = values['media-dir'];
  if (renderConcurrency !== undefined) options.renderConcurrency = renderConcurrency;
  if (webhookRetryMs !== undefined) options.webhookRetryMs = webhookRetryMs;
  if (webhookMaxRetryMs !== undefined) options.webhookMaxRetryMs = webhookMaxRetryMs;
  if (webhookRetryForMs !== undefined) options.webhookRetryForMs = webhookRetryForMs;
  if (sessionIdleMs !== undefined) options.sessionIdleMs = sessionIdleMs;
  if (sessionMaxAgeMs !== undefined) options.sessionMaxAgeMs = sessionMaxAgeMs;
  if (limits) options.limits = limits;
  if (searchesAtOnce !== undefined) {
    options.searchSlots = {
      total: searchesAtOnce,
      perAccount: Math.min(DEFAULT_SEARCH_SLOTS.perAccount, searchesAtOnce),
    };
  }
  return { help: false, options };
}

/** `--limit NAME=BURST/PER_MINUTE` or `NAME=off`, each of them. */
function parseLimits(texts: readonly string[]): Partial<Record<LimitName, Bucket | false>> | undefined {
  if (texts.length === 0) return undefined;
  const limits: Partial<Record<LimitName, Bucket | false>> = {};
  for (const text of texts) {
    const [, name, value] = /^([^=]+)=(.*)$/.exec(text) ?? [];
    if (!name || !(LIMIT_NAMES as readonly string[]).includes(name)) {
      throw new UsageError(
        `--limit must name a budget, e.g. topicSearches.account=10/60 (got "${text}"); the names: ${LIMIT_NAMES.join(', ')}.`,
      );
    }
    if (value === 'off') {
      limits[name as LimitName] = false;
      continue;
    }
    const [, burst, perMinute] = /^(\d+)\/(\d+)$/.exec(value ?? '') ?? [];
    if (!burst || !perMinute || Number(burst) < 1 || Number(perMinute) < 1) {
      throw new UsageError(
        `--limit ${name} must be BURST/PER_MINUTE, two whole numbers from 1, e.g. ${name}=10/60, or off (got "${value}").`,
      );
    }
    limits[name as LimitName] = { burst: Number(burst), perMinute: Number(perMinute) };
  }
  return limits;
}

function wholeNumber(
  flag: string,
  flagValue: string | undefined,
  envName: string,
  envValue: string | undefined,
  max: number,
): number | undefined {
  const [source, text] = flagValue !== undefined ? [flag, flagValue] : [envName, envValue || undefined];
  if (text === undefined) return undefined;
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(value <= max)) throw new UsageError(`${source} must be a whole number from 0 to ${max} (got "${text}").`);
  return value;
}

function nonEmpty(flag: string, flagValue: string | undefined, envValue: string | undefined): string | undefined {
  if (flagValue === '') throw new UsageError(`${flag} must not be empty.`);
  return flagValue ?? (envValue || undefined);
}

/**
 * A URL as it may appear in a log line: its origin and path, without a user, a password, a query
 * or a fragment, where a receiver's URL may carry a secret of its own.
 */
export function loggable(url: string): string {
  try {
    const { origin, pathname, search, hash } = new URL(url);
    return `${origin}${pathname}${search || hash ? ' (query not shown)' : ''}`;
  } catch {
    return '(not a URL)';
  }
}
