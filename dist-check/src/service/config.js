/**
 * The local service's options: defaults, validation, and the command line / environment that set
 * them. `startService()` and the `video-plugin-service` command share this one definition.
 */
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import * as z from 'zod/mini';
import { InvalidParameterError } from '../errors.js';
import { parseOrThrow, strictObject } from '../server/validate.js';
import { parseOriginPattern } from './origins.js';
/** Partner ID accepted when none is configured. */
export const DEMO_PARTNER_ID = 'demo-partner';
/** Secret of the demo partner. Public on purpose: the service is a local stand-in. */
export const DEMO_SECRET = 'video-plugin-demo-secret-not-for-production';
/** Page origins allowed to embed the plugin when none are configured: any local port. */
export const DEFAULT_ALLOWED_ORIGINS = ['http://localhost:*', 'http://127.0.0.1:*'];
/** Port of the service when none is given. */
export const DEFAULT_PORT = 8001;
/** Interface the service listens on when none is given: loopback only. */
export const DEFAULT_HOST = '127.0.0.1';
/** How long a topic search or a generation takes, in ms, when not set. */
export const DEFAULT_JOB_MS = 5000;
const originPattern = z.string().check(
  z.refine((text) => typeof parseOriginPattern(text) !== 'string', {
    error: (issue) => String(parseOriginPattern(String(issue.input))),
  }),
);
const PartnerSchema = strictObject({
  id: z.string().check(z.minLength(1)),
  secret: z.string().check(z.minLength(1)),
  allowedOrigins: z.optional(z.array(originPattern).check(z.minLength(1))),
});
const ServiceOptionsSchema = strictObject({
  port: z.optional(z.int().check(z.gte(0), z.lte(65535))),
  host: z.optional(z.string().check(z.minLength(1))),
  partners: z.optional(z.array(PartnerSchema).check(z.minLength(1))),
  jobMs: z.optional(z.int().check(z.gte(0), z.lte(600_000))),
  dataFile: z.optional(z.string().check(z.minLength(1))),
  fetchTimeoutMs: z.optional(z.int().check(z.gte(1), z.lte(60_000))),
  heartbeatMs: z.optional(z.int().check(z.gte(10), z.lte(600_000))),
  publicDir: z.optional(z.string().check(z.minLength(1))),
  media: z.optional(z.enum(['real', 'placeholder'])),
  mediaDir: z.optional(z.string().check(z.minLength(1))),
  renderConcurrency: z.optional(z.int().check(z.gte(1), z.lte(64))),
});
/** Validates the options and fills in the defaults. Throws `invalid_parameter` naming the field. */
export function resolveConfig(options = {}) {
  const parsed = parseOrThrow(ServiceOptionsSchema, options, 'startService');
  const partners = new Map();
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
      allowedOrigins: (partner.allowedOrigins ?? DEFAULT_ALLOWED_ORIGINS).map((text) => parseOriginPattern(text)),
    });
  }
  return {
    port: parsed.port ?? DEFAULT_PORT,
    host: parsed.host ?? DEFAULT_HOST,
    partners,
    jobMs: parsed.jobMs ?? DEFAULT_JOB_MS,
    dataFile: parsed.dataFile,
    fetchTimeoutMs: parsed.fetchTimeoutMs ?? 5000,
    heartbeatMs: parsed.heartbeatMs ?? 15_000,
    publicDir: parsed.publicDir ?? defaultPublicDir(),
    media: parsed.media ?? 'real',
    mediaDir: parsed.mediaDir ?? (parsed.dataFile ? `${parsed.dataFile}.media` : undefined),
    renderConcurrency: parsed.renderConcurrency ?? availableParallelism(),
  };
}
/**
 * The built iframe pages: `public/` beside the compiled module (dist/service/public). When the
 * service runs from source (tsx, in tests) that folder does not exist, so fall back to the build's.
 */
function defaultPublicDir() {
  const beside = fileURLToPath(new URL('./public/', import.meta.url));
  const built = fileURLToPath(new URL('../../dist/service/public/', import.meta.url));
  return existsSync(beside) || !existsSync(built) ? beside : built;
}
/** Usage text of the `video-plugin-service` command. */
export const USAGE = `Usage: video-plugin-service [options]

Runs the local video-plugin service: the pages shown in the plugin's iframe and their JSON API.

Options:
  --port N               port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)   env VIDEO_PLUGIN_PORT
  --host HOST            interface to listen on (default ${DEFAULT_HOST})
  --partner ID           partner ID accepted in tokens (default ${DEMO_PARTNER_ID})        env VIDEO_PLUGIN_PARTNER_ID
  --secret SECRET        that partner's HS256 secret (default: a demo secret, printed)   env VIDEO_PLUGIN_SECRET
  --allowed-origin ORIGIN  page origin allowed to embed the plugin; repeatable
                         (default http://localhost:* and http://127.0.0.1:*)
  --job-ms N             how long a topic search or generation takes, in ms (default ${DEFAULT_JOB_MS})
                                                                                 env VIDEO_PLUGIN_JOB_MS
  --data FILE            keep accounts, videos and sessions in FILE across restarts (default: memory)
  --media real|placeholder  real MP4 videos with a voiceover (default), or instant SVG stand-ins
                         for tests that never look at the video
  --media-dir DIR        where images and renders are kept (default: FILE.media/ with --data,
                         else a temporary folder removed at exit)
  --render-concurrency N renders at once (default: the number of cores)
  -h, --help             show this help

Flags win over environment variables.`;
/** A command-line mistake: the message says what to fix. The command exits with status 2. */
export class UsageError extends Error {}
/** Reads the flags (and the environment variables they override) into service options. */
export function parseCommandLine(argv, env = {}) {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        partner: { type: 'string' },
        secret: { type: 'string' },
        'allowed-origin': { type: 'string', multiple: true },
        'job-ms': { type: 'string' },
        data: { type: 'string' },
        media: { type: 'string' },
        'media-dir': { type: 'string' },
        'render-concurrency': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError(error.message);
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
  const options = {
    partners: [
      {
        id: partnerID ?? DEMO_PARTNER_ID,
        secret: secret ?? DEMO_SECRET,
        ...(allowedOrigins ? { allowedOrigins } : {}),
      },
    ],
  };
  if (port !== undefined) options.port = port;
  if (jobMs !== undefined) options.jobMs = jobMs;
  if (values.host !== undefined) options.host = values.host;
  if (values.data !== undefined) options.dataFile = values.data;
  if (values.media !== undefined) options.media = values.media;
  if (values['media-dir'] !== undefined) options.mediaDir = values['media-dir'];
  if (renderConcurrency !== undefined) options.renderConcurrency = renderConcurrency;
  return { help: false, options };
}
function wholeNumber(flag, flagValue, envName, envValue, max) {
  const [source, text] = flagValue !== undefined ? [flag, flagValue] : [envName, envValue || undefined];
  if (text === undefined) return undefined;
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(value <= max)) throw new UsageError(`${source} must be a whole number from 0 to ${max} (got "${text}").`);
  return value;
}
function nonEmpty(flag, flagValue, envValue) {
  if (flagValue === '') throw new UsageError(`${flag} must not be empty.`);
  return flagValue ?? (envValue || undefined);
}
//# sourceMappingURL=config.js.map
