/**
 * The local service's options: defaults, validation, and the command line / environment that set
 * them. `startService()` and the `video-plugin-service` command share this one definition.
 */
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import * as z from 'zod/mini';
import { InvalidParameterError, parseOrThrow, strictObject } from 'video-plugin/internal';
import { parseOriginPattern, type OriginPattern } from './origins.js';

/** Partner ID accepted when none is configured. */
export const DEMO_PARTNER_ID = 'demo-partner';
/** Secret of the demo partner. Public on purpose: the service is a local stand-in. */
/** The longest a session lasts from its login, and the default: 30 days. */
export const MAX_SESSION_AGE_MS = 30 * 24 * 3600_000;

export const DEMO_SECRET = 'video-plugin-demo-secret-not-for-production';
/** Page origins allowed to embed the plugin when none are configured: any local port. */
export const DEFAULT_ALLOWED_ORIGINS: readonly string[] = ['http://localhost:*', 'http://127.0.0.1:*'];
/** Port of the service when none is given. */
export const DEFAULT_PORT = 8001;
/** Interface the service listens on when none is given: loopback only. */
export const DEFAULT_HOST = '127.0.0.1';
/** How long a topic search or a generation takes, in ms, when not set. */
export const DEFAULT_JOB_MS = 5000;
/** Wait before a webhook's first retry, in ms; it doubles with each retry (see {@link MAX_WEBHOOK_RETRY_MS}). */
export const DEFAULT_WEBHOOK_RETRY_MS = 1000;
/** Longest wait between two tries of a webhook, in ms. */
export const MAX_WEBHOOK_RETRY_MS = 60_000;
/** Tries of one webhook delivery (the first included) when not set. */
export const DEFAULT_WEBHOOK_TRIES = 5;
/** Most tries of one webhook delivery that may be configured. */
export const MAX_WEBHOOK_TRIES = 10;
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
  secret: z.string().check(z.minLength(1)),
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
  publicDir: z.optional(z.string().check(z.minLength(1))),
  media: z.optional(z.enum(['real', 'placeholder'])),
  mediaDir: z.optional(z.string().check(z.minLength(1))),
  renderConcurrency: z.optional(z.int().check(z.gte(1), z.lte(64))),
  sceneCacheBytes: z.optional(z.int().check(z.gte(0))),
  renderStallMs: z.optional(z.int().check(z.gte(100), z.lte(600_000))),
  webhookRetryMs: z.optional(z.int().check(z.gte(0), z.lte(MAX_WEBHOOK_RETRY_MS))),
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
 * - `partners`: `[{ id, secret, allowedOrigins?, webhookURLs?, authModes? }]`, default one demo
 *   partner; `authModes` (default both, `jwt` and `uncontrolled`) says whether the studio's own
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
 * - `publicDir`: directory served under `/assets/` (default: the built iframe pages);
 * - `media`: `real` (default: MP4 renders with a voiceover, see docs/service.md) or `placeholder`
 *   (instant SVG stand-ins, for integration tests that never look at the video);
 * - `mediaDir`: where downloaded images and renders are kept (default: `<dataFile>.media/`, or a
 *   temporary folder removed at `close()` when the data is in memory);
 * - `renderConcurrency`: renders at once (default: the machine's cores);
 * - `sceneCacheBytes`: size limit of the scene cache (default 256 MB; media/segments.ts);
 *   `renderStallMs`: how long ffmpeg may report no progress before it counts as hung (default
 *   20000; media/encoder.ts);
 * - `webhookRetryMs`: wait before a webhook's first retry, doubled for each next one, at most 60000
 *   (default 1000); `webhookTries`: tries per delivery, 1–10 (default 5); `webhookTimeoutMs`: time
 *   limit of one attempt (default 5000).
 */
export type ServiceOptions = z.infer<typeof ServiceOptionsSchema>;

/** A partner with its parsed origins and HS256 key. */
export interface Partner {
  readonly id: string;
  readonly secret: string;
  readonly key: Uint8Array;
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
  readonly publicDir: string;
  readonly media: 'real' | 'placeholder';
  /** Undefined: a temporary folder, made at start and removed at close. */
  readonly mediaDir: string | undefined;
  readonly renderConcurrency: number;
  /** Undefined: the renderer's defaults (`CACHE_BYTES`, `STALL_MS`). */
  readonly sceneCacheBytes: number | undefined;
  readonly renderStallMs: number | undefined;
  readonly webhookRetryMs: number;
  readonly webhookTries: number;
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
    partners.set(partner.id, {
      id: partner.id,
      secret: partner.secret,
      key: new TextEncoder().encode(partner.secret),
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
    publicDir: parsed.publicDir ?? defaultPublicDir(),
    media: parsed.media ?? 'real',
    mediaDir: parsed.mediaDir ?? (parsed.dataFile ? `${parsed.dataFile}.media` : undefined),
    renderConcurrency: parsed.renderConcurrency ?? availableParallelism(),
    sceneCacheBytes: parsed.sceneCacheBytes,
    renderStallMs: parsed.renderStallMs,
    webhookRetryMs: parsed.webhookRetryMs ?? DEFAULT_WEBHOOK_RETRY_MS,
    webhookTries: parsed.webhookTries ?? DEFAULT_WEBHOOK_TRIES,
    webhookTimeoutMs: parsed.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
  };
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
  --secret SECRET        that partner's HS256 secret (default: a demo secret, printed)   env VIDEO_PLUGIN_SECRET
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
  --webhook-url URL      post the partner's signed events (account.created, video.completed,
                         video.rendered) to URL, http or https; repeatable (default: none)
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
        'auth-mode': { type: 'string', multiple: true },
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
  return { help: false, options };
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
