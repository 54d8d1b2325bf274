/**
 * The partner's inputs: the constructor options and every method's arguments, as zod/mini schemas.
 * Types come from the schemas; defaults live here too.
 */
import { InvalidParameterError } from './errors.js';
import * as z from './schema.js';
import {
  ACCOUNT_FIELD_LIMITS,
  ASPECT_RATIOS,
  DURATIONS,
  EVENT_NAMES,
  LANGUAGES,
  MAX_ID_LENGTH,
  MAX_INSTRUCTIONS_LENGTH,
  type AccountField,
  type Metadata,
  type Methods,
  type PluginEventName,
} from './wire/api.js';

/** Where each `environment` lives. `serviceURL` overrides it. */
export const SERVICE_URLS = {
  prod: 'https://app.video-plugin.example',
  demo: 'https://demo.video-plugin.example',
} as const;

/** The path of the service page that runs in the iframe. */
export const PLUGIN_PATH = '/plugin';

/** Default limit for `openPlugin` and `openEditorForVideo`, in milliseconds. */
export const DEFAULT_OPEN_TIMEOUT = 30_000;

/**
 * A string of `min` to `max` characters. Like every rule of this file, one check with its own
 * message rather than zod's string, number, boolean and literal schemas: the partner reads the
 * same kind of message, and the Plugin bundle carries 0.6 kB gzip less of zod (BENCHMARKS.md, "Sizes"). The
 * message is passed as a string, zod's short form of `{ error: message }`.
 */
function length(min: number, max: number, what = 'a string') {
  return z.custom<string>(
    (value) => typeof value === 'string' && value.length >= min && value.length <= max,
    `must be ${what} of ${min ? `${min} to ${max}` : `at most ${max}`} characters`,
  );
}
/** One of `values`; the message lists them, as the partner needs them. */
export function oneOf<const T extends readonly (string | number)[]>(values: T) {
  return z.custom<T[number]>(
    (value) => values.includes(value as T[number]),
    `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`,
  );
}
const text = length(1, 2048);
const fn = z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', 'must be a function');
const optionalFn = z.optional(fn);
const element = z.custom<HTMLElement>(
  (value) => typeof HTMLElement !== 'undefined' && value instanceof HTMLElement,
  'must be an HTMLElement (e.g. document.getElementById(...))',
);
/**
 * An absolute http(s) URL of at most 2048 characters (a partner's data must not become a 1 MB
 * request). A refine: zod's z.url() costs 0.8 kB gzip for this one check.
 */
const httpURL = z.custom<string>((value) => {
  try {
    return typeof value === 'string' && value.length <= 2048 && /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}, 'must be an absolute http(s) URL of at most 2048 characters');
const timeout = z.custom<number>(
  (ms) => typeof ms === 'number' && ms > 0 && ms <= 600_000,
  'must be a number of milliseconds, > 0 and <= 600000',
);
const boolean = z.custom<boolean>((value) => typeof value === 'boolean', 'must be a boolean');
const signal = z.optional(
  z.custom<AbortSignal>(
    (value) => value instanceof AbortSignal,
    'must be an AbortSignal (e.g. new AbortController().signal)',
  ),
);
const plainObject = z.custom<Appearance>(
  (value) => typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype,
  'must be a plain object',
);

const confirmationSchema = z.strictObject({
  shouldShow: z.optional(boolean),
  title: z.optional(text),
  body: z.optional(length(1, 4096)),
  confirmButton: z.optional(text),
  cancelButton: z.optional(text),
});

/** The `getLoginToken` option: a login token for `accountID`, minted by your server. */
export type GetLoginToken = (accountID: string) => Promise<string> | string;

export const partnerIDSchema = length(1, 256, 'the partner ID the service gave you, a string');

export const pluginOptionsSchema = z.strictObject({
  /** `prod` (default) or `demo`. */
  environment: z.optional(oneOf(['prod', 'demo'])),
  /** The element that holds the iframe. */
  domElement: z.optional(element),
  /** `jwt` (default) or `uncontrolled`. */
  authMode: z.optional(oneOf(['jwt', 'uncontrolled'])),
  /** Editor presentation. */
  editor: z.optional(
    z.strictObject({
      labels: z.optional(z.strictObject({ completeVideoConfirmation: z.optional(confirmationSchema) })),
    }),
  ),
  /** Event name → callback; the same as calling `on` for each. */
  callbacks: z.optional(
    z.strictObject(
      Object.fromEntries(EVENT_NAMES.map((name) => [name, optionalFn])) as Record<PluginEventName, typeof optionalFn>,
    ),
  ),
  /** Logs every message in and out, state changes and timings. */
  isDebug: z.optional(boolean),
  /** Base URL of the service; overrides `environment` (local service, staging, tests). */
  serviceURL: z.optional(httpURL),
  /** Limit for connecting to the iframe, in milliseconds (default 15000). */
  connectTimeout: z.optional(timeout),
  /** Default limit for every call, in milliseconds (default 15000). */
  callTimeout: z.optional(timeout),
  /**
   * JWT mode: fetches a login token for `accountID` from your server (like the token you pass to
   * `loginAccount`). Called once when the service iframe reloads without the logged-in account's
   * session (the browser denied or cleared its storage), to log the same account back in before
   * the waiting calls go out. Without it, the `Plugin` emits `sessionLost`.
   */
  getLoginToken: z.optional(fn as unknown as z.Schema<GetLoginToken>),
  /**
   * The studio's colours, font, corner radius and spacing (docs/white-label.md, "Appearance"). Checked by the
   * service, which refuses the connection naming the field. Change it later with `update()`.
   */
  appearance: z.optional(plainObject),
  /** The studio's language, a BCP 47 tag (default: the browser's). Change it later with `update()`. */
  locale: z.optional(length(1, 35)),
  /**
   * `auto`: the iframe takes the height of the studio's content and follows it, between the CSS
   * custom properties `--video-plugin-min-height` (default 400px) and `--video-plugin-max-height`
   * (default 100vh) of `domElement` or its ancestors; taller content scrolls inside the iframe
   * (docs/element-guide.md, "Height"). Needs `domElement`: the full-viewport overlay keeps its size. Without it the
   * iframe fills `domElement`. Set at start.
   */
  height: z.optional(oneOf(['auto'])),
});
/** Options of `new Plugin(partnerID, options)`. */
export type PluginOptions = z.input<typeof pluginOptionsSchema>;

/** The studio's look: see docs/white-label.md, "Appearance". Colours are hex; lengths are CSS pixels. */
export interface Appearance {
  /** `light` (default), `dark`, or `auto` (follows the user's system setting). */
  colorScheme?: 'light' | 'dark' | 'auto';
  /** Buttons and highlights. Their text is black or white, whichever reads better. */
  colorPrimary?: string;
  /** The page's background. */
  colorBackground?: string;
  /** The text. With `colorBackground`, it must contrast at least 4.5:1 (WCAG 2.1 AA). */
  colorText?: string;
  /** A CSS font-family list, e.g. `"Inter, system-ui, sans-serif"`. */
  fontFamily?: string;
  /** Corner radius of fields, buttons and panels, in pixels (0 to 32, default 6). */
  borderRadius?: number;
  /** The spacing unit every gap and padding is a multiple of, in pixels (2 to 8, default 4). */
  spacingUnit?: number;
}

export const tokenSchema = length(1, 8192);
export const idSchema = length(1, MAX_ID_LENGTH);
export const sourceURLSchema = httpURL;

const accountField = (max: number) => z.optional(length(0, max));
/** Each account field, optional, within its limit (ACCOUNT_FIELD_LIMITS, as every door checks). */
export const updatableAccountInfoSchema = z.strictObject(
  Object.fromEntries(Object.entries(ACCOUNT_FIELD_LIMITS).map(([field, max]) => [field, accountField(max)])) as Record<
    AccountField,
    ReturnType<typeof accountField>
  >,
);
/** The fields `updateAccountInfo` can change; only the given ones change. */
export type UpdatableAccountInfo = z.infer<typeof updatableAccountInfoSchema>;

export const videoGenerationParamsSchema = z.strictObject({
  topicId: idSchema,
  aspectRatio: oneOf(ASPECT_RATIOS),
  duration: oneOf(DURATIONS),
  videoInstructions: z.optional(length(0, MAX_INSTRUCTIONS_LENGTH)),
  language: z.optional(oneOf(LANGUAGES)),
  /**
   * The partner's own key-value pairs (an order ID, a campaign…), echoed as given on the video
   * (`getVideoData`, the events), the status updates, the webhooks and the event log. At most 20
   * keys of 1 to 40 characters, each value a string of at most 500 (METADATA_LIMITS). The `Plugin`
   * checks only that it is a plain object, which costs its bundle almost nothing; the studio page
   * and the service check the rest (wire/metadata.ts), naming the field.
   */
  metadata: z.optional(plainObject as unknown as z.Schema<Metadata>),
});
/** The argument of `startVideoGeneration`. */
export type VideoGenerationParams = z.infer<typeof videoGenerationParamsSchema>;

export const openPluginOptionsSchema = z.strictObject({
  /** Opens the search view with this URL filled in and starts a topic search at once. */
  sourceURL: z.optional(httpURL),
  /** Same as `sourceURL` (the spelling of one reference example). */
  sourceUrl: z.optional(httpURL),
  /** Deprecated: the older variant's name of `sourceURL`. */
  businessURL: z.optional(httpURL),
  /** Opens the generation prompt with this topic selected (its search must be PROCESSING or COMPLETE). */
  topicId: z.optional(idSchema),
  /** Opens the final step with this generation's preview (must be PROCESSING or COMPLETE). */
  generationRequestId: z.optional(idSchema),
  /** Milliseconds to wait for the page to open (default 30000). */
  timeout: z.optional(timeout),
  /** Stops waiting: the call rejects with the signal's reason. */
  signal,
});
/** Options of `openPlugin`. */
export type OpenPluginOptions = z.input<typeof openPluginOptionsSchema>;

/**
 * What `openPlugin` opens, from its parsed options: the source URL (one option, spelled three
 * ways), a topic or a generation; none of them, the search view. Throws an `InvalidParameterError`
 * when two spellings of the source URL differ or more than one of the three is given.
 */
export function openPluginTarget(opts: z.infer<typeof openPluginOptionsSchema>): Methods['openPlugin']['params'] {
  const sources = [opts.sourceURL, opts.sourceUrl, opts.businessURL].filter((url) => url !== undefined);
  if (new Set(sources).size > 1) {
    throw new InvalidParameterError('options.sourceURL, sourceUrl and businessURL are one option: pass only one.', {
      field: 'options.sourceURL',
    });
  }
  const targets = [sources[0], opts.topicId, opts.generationRequestId].filter((v) => v !== undefined);
  if (targets.length > 1) {
    throw new InvalidParameterError('options: pass at most one of sourceURL, topicId and generationRequestId.', {
      field: 'options',
    });
  }
  return { sourceURL: sources[0], topicId: opts.topicId, generationRequestId: opts.generationRequestId };
}

export const openEditorOptionsSchema = z.strictObject({ timeout: z.optional(timeout), signal });
/** Options of `mount` and the status iterators. */
export const signalOptionsSchema = z.strictObject({ signal });
/** Options of `mount` and the status iterators. */
export type SignalOptions = z.infer<typeof signalOptionsSchema>;

/**
 * The form of an idempotency key: 1 to 255 visible ASCII characters, no spaces (it travels in an
 * HTTP header). The service page and the API check it; the `Plugin` checks only that it is a string
 * of 1 to 255 characters, which costs its bundle almost nothing.
 */
export const IDEMPOTENCY_KEY = /^[!-~]{1,255}$/;

/** Options of `startTopicSearch` and `startVideoGeneration`. */
export const startOptionsSchema = z.strictObject({
  signal,
  /**
   * Makes the call safe to retry: the same key (per account, kept 24 hours) returns the request it
   * started the first time instead of starting another. 1 to 255 visible ASCII characters, no
   * spaces; e.g. `crypto.randomUUID()`, made once per user action and reused for its retries.
   */
  idempotencyKey: z.optional(length(1, 255)),
});
/** Options of `startTopicSearch` and `startVideoGeneration`. */
export type StartOptions = z.infer<typeof startOptionsSchema>;

/** The argument of `update()`: what may change while the studio runs (checked by the service). */
export const updateSchema = z.strictObject({
  appearance: z.optional(plainObject),
  locale: z.optional(length(1, 35)),
});
/** The argument of `update()`. */
export interface PluginUpdate {
  appearance?: Appearance;
  locale?: string;
}
/** Options of `openEditorForVideo`. */
export type OpenEditorOptions = z.infer<typeof openEditorOptionsSchema>;

export const callbackSchema = fn;
export const booleanSchema = boolean;
export const elementSchema = element;
export const eventNameSchema = oneOf(EVENT_NAMES);
