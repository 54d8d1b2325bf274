/**
 * The `video-plugin-service` command line: its usage text, and the flags and environment variables
 * read into the options of config.ts (which checks them, as it checks `startService()`'s).
 */
import { parseArgs } from 'node:util';
import { secretProblem } from 'video-plugin/internal';
import {
  AUTH_MODES,
  DEFAULT_HOST,
  DEFAULT_SANDBOX_JOBS,
  DEFAULT_SANDBOX_MAX,
  DEFAULT_SANDBOX_TTL_MS,
  MAX_SANDBOX_TTL_MS,
  DEFAULT_JOB_MS,
  DEFAULT_PORT,
  DEFAULT_WEBHOOK_MAX_RETRY_MS,
  DEFAULT_WEBHOOK_RETRY_FOR_MS,
  DEFAULT_WEBHOOK_RETRY_MS,
  DEMO_PARTNER_ID,
  DEMO_SECRET,
  EVENT_RETENTION_MS,
  MAX_SESSION_AGE_MS,
  MAX_WEBHOOK_RETRY_MS,
  webhookURLProblem,
  type AuthMode,
  type ServiceOptions,
  databaseURLProblem,
} from './config.js';
import { parseOriginPattern } from './origins.js';
import {
  DEFAULT_MAX_WAITING_JOBS,
  DEFAULT_SEARCH_SLOTS,
  LIMIT_NAMES,
  WAITING_JOBS_LIMIT,
  type Bucket,
  type LimitName,
} from './limit-values.js';
import { CLOCK_MODES, type ClockMode } from './jobs/clock.js';
import { parseMediaStore } from './media/store.js';

/** Usage text of the `video-plugin-service` command. */
export const USAGE = `Usage: video-plugin-service [options]
       video-plugin-service sandbox create|reset ...   (a client of a running service; sandbox --help)

Runs the local video-plugin service: the pages shown in the plugin's iframe and their JSON API.

Options:
  --port N               port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)   env VIDEO_PLUGIN_PORT
  --host HOST            interface to listen on (default ${DEFAULT_HOST})
  --public-host NAME     a host name the service answers to besides IP addresses and localhost
                         (any other Host header gets 403: DNS rebinding); repeatable
  --allow-private-sources  let topic searches, images and webhooks reach private addresses
                         (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7); link-local never
  --allow-loopback-sources  let topic searches and their images reach this machine (127/8, ::1),
                         any port but the service's own: to search a site you serve locally
                         (off by default: a search shows whoever asks what a local port serves)
                                                        env VIDEO_PLUGIN_ALLOW_LOOPBACK_SOURCES=1
  --allow-loopback-port N  the same, for port N only; repeatable
                                                env VIDEO_PLUGIN_ALLOW_LOOPBACK_SOURCES=N[,N...]
                         (webhooks reach loopback while the service listens on loopback)
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
  --database URL         keep all data in PostgreSQL instead, postgres://USER:PASSWORD@HOST/DB
                         (needs --media-dir; the password is never printed) env VIDEO_PLUGIN_DATABASE_URL
  --media real|placeholder  real MP4 videos with a voiceover (default), or instant SVG stand-ins
                         for tests that never look at the video
  --media-dir DIR        where images and renders are kept (default: FILE.media/ with --data,
                         else a temporary folder removed at exit)
  --media-store s3://BUCKET?endpoint=URL&region=R  keep the media in an S3 bucket (any
                         S3-compatible server at endpoint; credentials from AWS_ACCESS_KEY_ID
                         and AWS_SECRET_ACCESS_KEY) instead of the media folder
                                                              env VIDEO_PLUGIN_MEDIA_STORE
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
  --max-waiting-jobs N   searches and renders one account may have waiting for a slot (default
                         ${DEFAULT_MAX_WAITING_JOBS}); more answer 429 rate_limited, limit ${WAITING_JOBS_LIMIT}
  --webhook-url URL      post the partner's signed events (account.created, video.completed,
                         video.rendered) to URL, http or https; repeatable (default: none)
  --webhook-retry-ms N   wait before a webhook's first retry, doubled for each next one
                         (default ${DEFAULT_WEBHOOK_RETRY_MS})
  --webhook-max-retry-ms N  longest wait between two tries (default ${DEFAULT_WEBHOOK_MAX_RETRY_MS}: 1 hour)
  --webhook-retry-for-ms N  how long a delivery is retried from its event (default
                         ${DEFAULT_WEBHOOK_RETRY_FOR_MS}: 3 days); every event stays 30 days in the
                         event log (GET /api/partner/events) either way
  --test-controls        for tests only: let partners' back ends force their next jobs' outcomes
                         (fail with a failure code, stall at a stage, take N ms) with
                         POST /api/test/outcomes (docs/service.md "Test controls"); off by default
  --shared               the service is shared by more than one partner (a team's or a CI's
                         service): it never names its partners to a caller (GET /api/health,
                         partner_not_found); off by default, a developer's own service names
                         them                                             env VIDEO_PLUGIN_SHARED=1
  --clock real|manual    manual: the jobs' timed steps wait until a test advances the clock
                         (POST /api/test/clock/advance); renders stay real (default real)
  --sandboxes            open POST /api/sandboxes and DELETE /api/sandboxes/:partnerID: anyone
                         with the operator key may then make short-lived partners of their own
                         (docs/service.md "Sandboxes"); off by default
  --operator-key KEY     the key those routes take as a bearer, at least 32 bytes, not a
                         partner's secret; required with --sandboxes   env VIDEO_PLUGIN_OPERATOR_KEY
  --sandboxes-max N      sandboxes at once (default ${DEFAULT_SANDBOX_MAX})
  --sandbox-ttl-ms N     how long a sandbox lives, in ms (default ${DEFAULT_SANDBOX_TTL_MS}: 1 hour)
  --sandbox-jobs N       a sandbox's jobs running or waiting at once (default ${DEFAULT_SANDBOX_JOBS})
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
        'allow-loopback-sources': { type: 'boolean' },
        'allow-loopback-port': { type: 'string', multiple: true },
        partner: { type: 'string' },
        secret: { type: 'string' },
        'allowed-origin': { type: 'string', multiple: true },
        'job-ms': { type: 'string' },
        data: { type: 'string' },
        database: { type: 'string' },
        media: { type: 'string' },
        'media-dir': { type: 'string' },
        'media-store': { type: 'string' },
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
        'max-waiting-jobs': { type: 'string' },
        'test-controls': { type: 'boolean' },
        shared: { type: 'boolean' },
        clock: { type: 'string' },
        sandboxes: { type: 'boolean' },
        'operator-key': { type: 'string' },
        'sandboxes-max': { type: 'string' },
        'sandbox-ttl-ms': { type: 'string' },
        'sandbox-jobs': { type: 'string' },
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
  const database = values.database ?? (env.VIDEO_PLUGIN_DATABASE_URL || undefined);
  const databaseName = values.database !== undefined ? '--database' : 'VIDEO_PLUGIN_DATABASE_URL';
  if (database !== undefined) {
    const problem = databaseURLProblem(database);
    if (problem !== undefined) throw new UsageError(`${databaseName} ${problem}.`);
    if (values.data !== undefined) {
      throw new UsageError(`${databaseName} and --data are two places for the same data: give one.`);
    }
    if (values['media-dir'] === undefined) {
      throw new UsageError(
        `${databaseName} needs --media-dir DIR: the records outlive the process, so their renders must too.`,
      );
    }
  }
  if (values.media !== undefined && values.media !== 'real' && values.media !== 'placeholder') {
    throw new UsageError(`--media must be real or placeholder (got "${values.media}").`);
  }
  if (values.clock !== undefined && !(CLOCK_MODES as readonly string[]).includes(values.clock)) {
    throw new UsageError(`--clock must be ${CLOCK_MODES.join(' or ')} (got "${values.clock}").`);
  }
  if (values['media-dir'] === '') throw new UsageError('--media-dir must name a folder.');
  const mediaStore = nonEmpty('--media-store', values['media-store'], env.VIDEO_PLUGIN_MEDIA_STORE);
  const mediaStoreProblem = mediaStore === undefined ? undefined : parseMediaStore(mediaStore);
  if (typeof mediaStoreProblem === 'string') {
    const source = values['media-store'] === undefined ? 'VIDEO_PLUGIN_MEDIA_STORE' : '--media-store';
    throw new UsageError(`${source} ${mediaStoreProblem}.`);
  }
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
  const maxWaitingJobs = wholeNumber('--max-waiting-jobs', values['max-waiting-jobs'], '', undefined, 100_000);
  if (maxWaitingJobs === 0) throw new UsageError('--max-waiting-jobs must be at least 1.');
  const limits = parseLimits(values.limit ?? []);
  const webhookURLs = values['webhook-url'];
  for (const url of webhookURLs ?? []) {
    const problem = webhookURLProblem(url);
    if (problem) throw new UsageError(`--webhook-url ${problem} (got "${url}").`);
  }

  const sandboxes = parseSandboxes(values, env);
  const shared = values.shared ?? yesOrNo('VIDEO_PLUGIN_SHARED', env.VIDEO_PLUGIN_SHARED);
  const loopbackSources = parseLoopbackSources(
    values['allow-loopback-sources'],
    values['allow-loopback-port'],
    env.VIDEO_PLUGIN_ALLOW_LOOPBACK_SOURCES,
  );

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
  if (loopbackSources !== undefined) options.allowLoopbackSources = loopbackSources;
  if (values.data !== undefined) options.dataFile = values.data;
  if (database !== undefined) options.database = database;
  if (values.media !== undefined) options.media = values.media;
  if (values['media-dir'] !== undefined) options.mediaDir = values['media-dir'];
  if (mediaStore !== undefined) options.mediaStore = mediaStore;
  if (renderConcurrency !== undefined) options.renderConcurrency = renderConcurrency;
  if (webhookRetryMs !== undefined) options.webhookRetryMs = webhookRetryMs;
  if (webhookMaxRetryMs !== undefined) options.webhookMaxRetryMs = webhookMaxRetryMs;
  if (webhookRetryForMs !== undefined) options.webhookRetryForMs = webhookRetryForMs;
  if (sessionIdleMs !== undefined) options.sessionIdleMs = sessionIdleMs;
  if (sessionMaxAgeMs !== undefined) options.sessionMaxAgeMs = sessionMaxAgeMs;
  if (limits) options.limits = limits;
  if (values['test-controls']) options.testControls = true;
  if (shared) options.shared = true;
  if (values.clock !== undefined) options.clock = values.clock as ClockMode;
  if (sandboxes) options.sandboxes = sandboxes;
  if (searchesAtOnce !== undefined) {
    options.searchSlots = {
      total: searchesAtOnce,
      perAccount: Math.min(DEFAULT_SEARCH_SLOTS.perAccount, searchesAtOnce),
    };
  }
  if (maxWaitingJobs !== undefined) options.maxWaitingJobs = maxWaitingJobs;
  return { help: false, options };
}

/** `--sandboxes` with its operator key and limits; undefined without it (the other flags then refused). */
function parseSandboxes(
  values: Partial<Record<'operator-key' | 'sandboxes-max' | 'sandbox-ttl-ms' | 'sandbox-jobs', string>> & {
    sandboxes?: boolean;
  },
  env: NodeJS.ProcessEnv,
): ServiceOptions['sandboxes'] {
  const flags = ['--operator-key', '--sandboxes-max', '--sandbox-ttl-ms', '--sandbox-jobs'] as const;
  if (!values.sandboxes) {
    const given = flags.find((flag) => values[flag.slice(2) as keyof typeof values] !== undefined);
    if (given) throw new UsageError(`${given} needs --sandboxes (which opens the sandbox routes).`);
    return undefined;
  }
  const operatorKey = nonEmpty('--operator-key', values['operator-key'], env.VIDEO_PLUGIN_OPERATOR_KEY);
  if (operatorKey === undefined) {
    throw new UsageError(
      '--sandboxes needs --operator-key KEY (or VIDEO_PLUGIN_OPERATOR_KEY): the key a caller must send to make or reset a sandbox. Make one with `openssl rand -base64 32`.',
    );
  }
  const fault = secretProblem(operatorKey, 'an operator key of your own');
  if (fault) throw new UsageError(`--operator-key ${fault}.`);
  const max = wholeNumber('--sandboxes-max', values['sandboxes-max'], '', undefined, 1000);
  const ttlMs = wholeNumber('--sandbox-ttl-ms', values['sandbox-ttl-ms'], '', undefined, MAX_SANDBOX_TTL_MS);
  const jobsPerSandbox = wholeNumber('--sandbox-jobs', values['sandbox-jobs'], '', undefined, 10_000);
  if (max === 0 || jobsPerSandbox === 0) {
    throw new UsageError(`${max === 0 ? '--sandboxes-max' : '--sandbox-jobs'} must be at least 1.`);
  }
  return {
    operatorKey,
    ...(max !== undefined ? { max } : {}),
    ...(ttlMs !== undefined ? { ttlMs } : {}),
    ...(jobsPerSandbox !== undefined ? { jobsPerSandbox } : {}),
  };
}

/**
 * `--allow-loopback-sources` (every port), `--allow-loopback-port N` (those ports only) or their
 * environment twin (`1`, `true`, or ports separated by commas); undefined when none allows it.
 */
function parseLoopbackSources(
  every: boolean | undefined,
  ports: readonly string[] | undefined,
  envValue: string | undefined,
): boolean | number[] | undefined {
  if (every && ports) {
    throw new UsageError(
      '--allow-loopback-sources allows every loopback port and --allow-loopback-port only the ones named: give one of them.',
    );
  }
  if (every) return true;
  const portList = (source: string, texts: readonly string[]) =>
    texts.map((text) => {
      const port = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
      if (!(port >= 1 && port <= 65535)) {
        throw new UsageError(`${source} must be a port, a whole number from 1 to 65535 (got "${text}").`);
      }
      return port;
    });
  if (ports) return portList('--allow-loopback-port', ports);
  const text = envValue?.trim() ?? '';
  if (text === '' || /^(0|false)$/i.test(text)) return undefined;
  if (/^(1|true)$/i.test(text)) return true;
  return portList('VIDEO_PLUGIN_ALLOW_LOOPBACK_SOURCES (1, or ports separated by commas)', text.split(','));
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

/** A yes-or-no environment variable: 1 or true, 0 or false (or empty: not set). */
function yesOrNo(name: string, text: string | undefined): boolean | undefined {
  if (text === undefined || text === '') return undefined;
  if (text === '1' || text === 'true') return true;
  if (text === '0' || text === 'false') return false;
  throw new UsageError(`${name} must be 1 or true, 0 or false (got "${text}").`);
}

function nonEmpty(flag: string, flagValue: string | undefined, envValue: string | undefined): string | undefined {
  if (flagValue === '') throw new UsageError(`${flag} must not be empty.`);
  return flagValue ?? (envValue || undefined);
}
