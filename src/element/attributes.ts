/**
 * The element's attributes in the `Plugin`'s terms: the configuration its attributes and
 * properties make (the `Plugin`'s options, what restarts a session and what changes live), the
 * values `display` and `preload` take, what an empty attribute means, when two configurations are
 * the same (no rebuild), and how an option error is restated to name the attribute or property to fix.
 */
import { InvalidParameterError, VideoPluginError } from '../errors.js';
import { pluginOptionsSchema, type Appearance, type GetLoginToken } from '../options.js';

/** Where the studio shows: in the element's box, or in a dialog over the page. */
export type Display = 'inline' | 'modal' | 'drawer';
export const DISPLAYS: readonly string[] = ['inline', 'modal', 'drawer'];

/**
 * When the studio is created: `auto` as soon as the element is in the document, `intent` at the
 * first sign the user is about to use it (pointer over, focus, touch), `none` at the first click
 * on the launcher or the first method call. Like `<video preload>`: `auto` is the default.
 */
export type Preload = 'auto' | 'intent' | 'none';
export const PRELOADS: readonly string[] = ['auto', 'intent', 'none'];

/** What the element builds its `Plugin` from; compared by value to decide whether to rebuild. */
export interface ElementConfig {
  partnerID: unknown;
  options: Record<string, unknown>;
  display: Display;
}

/** What changes live, through `Plugin#update`, without a new session. */
export interface Look {
  appearance?: Appearance;
  locale?: string;
}

/** The element's properties a configuration is made of (set as attributes or as properties). */
export interface ElementProperties extends Pick<Element, 'getAttribute'> {
  partnerID?: string | undefined;
  environment?: string | undefined;
  authMode?: string | undefined;
  serviceURL?: string | undefined;
  debug?: boolean | undefined;
  connectTimeout?: number | undefined;
  callTimeout?: number | undefined;
  editor?: unknown;
  display?: string | undefined;
  preload?: string | undefined;
  height?: string | undefined;
  theme?: 'light' | 'dark' | 'auto' | undefined;
  appearance?: Appearance | undefined;
  locale?: string | undefined;
}

/**
 * The configuration the element's attributes and properties make (with `getLoginToken`, the
 * element's own stable function), or the error naming the attribute whose value is not one it takes.
 * The options are checked by the `Plugin` when it is built.
 */
export function configOf(
  element: ElementProperties,
  getLoginToken: GetLoginToken,
): ElementConfig | InvalidParameterError {
  const display = given(element.display) ?? 'inline';
  for (const [field, value, values] of [
    ['display', display, DISPLAYS],
    ['preload', given(element.preload) ?? 'auto', PRELOADS],
  ] as const) {
    if (!values.includes(value)) {
      return new InvalidParameterError(
        `<video-plugin>: the ${field} attribute must be one of ${values.map((v) => `"${v}"`).join(', ')}, got "${value}".`,
        { field },
      );
    }
  }
  const serviceURL = given(element.serviceURL);
  if (serviceURL && markupService(element, serviceURL)) {
    return new InvalidParameterError(
      `<video-plugin>: the service-url attribute is not allowed in markup: it must be the serviceURL property, or in a <meta name="${SERVICE_META}">.`,
      { field: 'service-url' },
    );
  }
  const options: Record<string, unknown> = {
    environment: given(element.environment),
    authMode: given(element.authMode),
    serviceURL,
    isDebug: element.debug ?? false,
    connectTimeout: given(element.connectTimeout),
    callTimeout: given(element.callTimeout),
    editor: given(element.editor),
    getLoginToken,
    height: display === 'inline' ? given(element.height) : undefined,
  };
  for (const key of Object.keys(options)) if (options[key] === undefined) delete options[key];
  return { partnerID: given(element.partnerID), options, display: display as Display };
}

/**
 * Whether `url` is a service URL that the page's markup chose and the page did not allow. A CMS
 * author who can write `<video-plugin service-url=…>` must not send the page's login tokens to a
 * service of their choosing, so the attribute is obeyed only for a loopback host (a developer's own
 * local service) or a URL that the page's `<head>` lists, as written, in a
 * `<meta name="video-plugin-service-url" content="url">` (one per URL). Set as the property from script (no
 * attribute of that value), it is the site's own choice. The host is the one the URL reaches
 * (`http://127.0.0.1:80@elsewhere` is elsewhere); what is not an http(s) URL at all is left to the
 * `Plugin`'s own check, which names it.
 */
function markupService(element: ElementProperties, url: string): boolean {
  if (element.getAttribute('service-url') !== url) return false;
  try {
    // Parsed as the Plugin parses it: `http:\\x`, `http:x` and tabs inside name the host they reach.
    const { protocol, hostname } = new URL(url);
    return (
      /^https?:$/.test(protocol) &&
      !/^(localhost|127\.0\.0\.1|\[::1\])$/.test(hostname) &&
      !document.head.querySelector(`meta[name=${SERVICE_META}][content="${CSS.escape(url)}"]`)
    );
  } catch {
    // Not a URL: the Plugin's own check names it.
    return false;
  }
}

/** The `<meta name>` by which a page lists the service URLs its markup may name. */
const SERVICE_META = 'video-plugin-service-url';

/** The appearance (with `theme` as its colorScheme) and locale the element asks for. */
export function lookOf(element: ElementProperties): Look {
  const theme = given(element.theme);
  const appearance = given(element.appearance);
  const look: Look = {};
  if (appearance || theme) look.appearance = { ...appearance, ...(theme ? { colorScheme: theme } : {}) };
  const locale = given(element.locale);
  if (locale) look.locale = locale;
  return look;
}

/** The attribute behind each option, to name it in error messages. */
export const ATTRIBUTES: Record<string, string> = {
  partnerID: 'partner-id',
  'options.environment': 'environment',
  'options.authMode': 'auth-mode',
  'options.serviceURL': 'service-url',
  'options.isDebug': 'debug',
  'options.connectTimeout': 'connect-timeout',
  'options.callTimeout': 'call-timeout',
  'options.appearance.colorScheme': 'theme',
  'options.locale': 'locale',
  'options.height': 'height',
  'changes.appearance.colorScheme': 'theme',
  'changes.locale': 'locale',
};

export const callbacksSchema = pluginOptionsSchema._zod.def.shape.callbacks;

/** Lit's Number converter, except that an empty attribute means "not set" (`Number('')` is 0). */
export const optionalNumber = {
  fromAttribute: (value: string | null) => (value === null || value === '' ? undefined : Number(value)),
};

/** Empty and removed attributes mean "not set" (the `Plugin`'s default applies). */
export function given<T>(value: T | null | undefined | ''): T | undefined {
  return value === null || value === '' ? undefined : value;
}

/** Deep equality for plain data; anything else (functions, elements) by identity. */
export function same(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const plain = (value: object) => [Object.prototype, Array.prototype, null].includes(Object.getPrototypeOf(value));
  if (!plain(a) || !plain(b)) return false;
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  return keysA.every(
    (key) => Object.hasOwn(b, key) && same((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

/**
 * Restates an error from the `Plugin`'s option checks in the element's terms: the attribute or
 * property to fix instead of the option behind it.
 */
export function forElement(error: unknown): VideoPluginError {
  if (!(error instanceof InvalidParameterError)) {
    return error instanceof VideoPluginError
      ? error
      : new VideoPluginError(`<video-plugin>: ${String((error as Error)?.message ?? error)}`);
  }
  const field = typeof error.data?.field === 'string' ? error.data.field : '';
  const attribute = ATTRIBUTES[field];
  const property = field.replace(/^(options|changes)\./, '');
  const subject = attribute ? `the ${attribute} attribute` : `the property ${property}`;
  const message =
    field && error.message.startsWith(field) ? `${subject}${error.message.slice(field.length)}` : error.message;
  return new InvalidParameterError(`<video-plugin>: ${message}`, {
    ...error.data,
    field: attribute ?? property,
  });
}
