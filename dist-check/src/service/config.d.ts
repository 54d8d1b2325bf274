import * as z from 'zod/mini';
import { type OriginPattern } from './origins.js';
/** Partner ID accepted when none is configured. */
export declare const DEMO_PARTNER_ID = 'demo-partner';
/** Secret of the demo partner. Public on purpose: the service is a local stand-in. */
export declare const DEMO_SECRET = 'video-plugin-demo-secret-not-for-production';
/** Page origins allowed to embed the plugin when none are configured: any local port. */
export declare const DEFAULT_ALLOWED_ORIGINS: readonly string[];
/** Port of the service when none is given. */
export declare const DEFAULT_PORT = 8001;
/** Interface the service listens on when none is given: loopback only. */
export declare const DEFAULT_HOST = '127.0.0.1';
/** How long a topic search or a generation takes, in ms, when not set. */
export declare const DEFAULT_JOB_MS = 5000;
declare const PartnerSchema: z.ZodMiniObject<
  {
    id: z.ZodMiniString<string>;
    secret: z.ZodMiniString<string>;
    allowedOrigins: z.ZodMiniOptional<z.ZodMiniArray<z.ZodMiniString<string>>>;
  },
  z.core.$strict
>;
declare const ServiceOptionsSchema: z.ZodMiniObject<
  {
    port: z.ZodMiniOptional<z.ZodMiniInt>;
    host: z.ZodMiniOptional<z.ZodMiniString<string>>;
    partners: z.ZodMiniOptional<
      z.ZodMiniArray<
        z.ZodMiniObject<
          {
            id: z.ZodMiniString<string>;
            secret: z.ZodMiniString<string>;
            allowedOrigins: z.ZodMiniOptional<z.ZodMiniArray<z.ZodMiniString<string>>>;
          },
          z.core.$strict
        >
      >
    >;
    jobMs: z.ZodMiniOptional<z.ZodMiniInt>;
    dataFile: z.ZodMiniOptional<z.ZodMiniString<string>>;
    fetchTimeoutMs: z.ZodMiniOptional<z.ZodMiniInt>;
    heartbeatMs: z.ZodMiniOptional<z.ZodMiniInt>;
    publicDir: z.ZodMiniOptional<z.ZodMiniString<string>>;
    media: z.ZodMiniOptional<
      z.ZodMiniEnum<{
        real: 'real';
        placeholder: 'placeholder';
      }>
    >;
    mediaDir: z.ZodMiniOptional<z.ZodMiniString<string>>;
    renderConcurrency: z.ZodMiniOptional<z.ZodMiniInt>;
  },
  z.core.$strict
>;
/** One partner the service accepts tokens from (programmatic form). */
export type PartnerOptions = z.infer<typeof PartnerSchema>;
/**
 * Options of `startService()`. Every field is optional.
 * - `port` (default 8001; 0 picks a free port) and `host` (default 127.0.0.1);
 * - `partners`: `[{ id, secret, allowedOrigins? }]`, default one demo partner; `allowedOrigins`
 *   defaults to `http://localhost:*` and `http://127.0.0.1:*`;
 * - `jobMs`: how long a topic search or a generation takes (default 5000);
 * - `dataFile`: JSON file that keeps the state across restarts (default: in memory);
 * - `fetchTimeoutMs`: time limit of a topic search's fetch (default 5000);
 * - `heartbeatMs`: interval of the status stream's keep-alive comment (default 15000);
 * - `publicDir`: directory served under `/assets/` (default: the built iframe pages);
 * - `media`: `real` (default: MP4 renders with a voiceover, see docs/service.md) or `placeholder`
 *   (instant SVG stand-ins, for integration tests that never look at the video);
 * - `mediaDir`: where downloaded images and renders are kept (default: `<dataFile>.media/`, or a
 *   temporary folder removed at `close()` when the data is in memory);
 * - `renderConcurrency`: renders at once (default: the machine's cores).
 */
export type ServiceOptions = z.infer<typeof ServiceOptionsSchema>;
/** A partner with its parsed origins and HS256 key. */
export interface Partner {
  readonly id: string;
  readonly secret: string;
  readonly key: Uint8Array;
  readonly allowedOrigins: readonly OriginPattern[];
}
/** The options after validation, with every default filled in. */
export interface ServiceConfig {
  readonly port: number;
  readonly host: string;
  readonly partners: ReadonlyMap<string, Partner>;
  readonly jobMs: number;
  readonly dataFile: string | undefined;
  readonly fetchTimeoutMs: number;
  readonly heartbeatMs: number;
  readonly publicDir: string;
  readonly media: 'real' | 'placeholder';
  /** Undefined: a temporary folder, made at start and removed at close. */
  readonly mediaDir: string | undefined;
  readonly renderConcurrency: number;
}
/** Validates the options and fills in the defaults. Throws `invalid_parameter` naming the field. */
export declare function resolveConfig(options?: ServiceOptions): ServiceConfig;
/** Usage text of the `video-plugin-service` command. */
export declare const USAGE =
  "Usage: video-plugin-service [options]\n\nRuns the local video-plugin service: the pages shown in the plugin's iframe and their JSON API.\n\nOptions:\n  --port N               port to listen on (default 8001; 0 picks a free one)   env VIDEO_PLUGIN_PORT\n  --host HOST            interface to listen on (default 127.0.0.1)\n  --partner ID           partner ID accepted in tokens (default demo-partner)        env VIDEO_PLUGIN_PARTNER_ID\n  --secret SECRET        that partner's HS256 secret (default: a demo secret, printed)   env VIDEO_PLUGIN_SECRET\n  --allowed-origin ORIGIN  page origin allowed to embed the plugin; repeatable\n                         (default http://localhost:* and http://127.0.0.1:*)\n  --job-ms N             how long a topic search or generation takes, in ms (default 5000)\n                                                                                 env VIDEO_PLUGIN_JOB_MS\n  --data FILE            keep accounts, videos and sessions in FILE across restarts (default: memory)\n  --media real|placeholder  real MP4 videos with a voiceover (default), or instant SVG stand-ins\n                         for tests that never look at the video\n  --media-dir DIR        where images and renders are kept (default: FILE.media/ with --data,\n                         else a temporary folder removed at exit)\n  --render-concurrency N renders at once (default: the number of cores)\n  -h, --help             show this help\n\nFlags win over environment variables.";
/** A command-line mistake: the message says what to fix. The command exits with status 2. */
export declare class UsageError extends Error {}
/** The command line, understood: either a request for help or the options to start with. */
export type CommandLine =
  | {
      help: true;
    }
  | {
      help: false;
      options: ServiceOptions;
    };
/** Reads the flags (and the environment variables they override) into service options. */
export declare function parseCommandLine(argv: readonly string[], env?: NodeJS.ProcessEnv): CommandLine;
export {};
//# sourceMappingURL=config.d.ts.map
