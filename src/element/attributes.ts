/**
 * The element's attributes in the `Plugin`'s terms: the values `display` and `preload` take, what
 * an empty attribute means, when two configurations are the same (no rebuild), and how an option
 * error is restated to name the attribute or property to fix.
 */
import { InvalidParameterError, VideoPluginError } from '../errors.js';
import { pluginOptionsSchema } from '../options.js';

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
      : new VideoPluginError('internal_error', `<video-plugin>: ${String((error as Error)?.message ?? error)}`);
  }
  const field = typeof error.data?.field === 'string' ? error.data.field : '';
  const attribute = ATTRIBUTES[field];
  const property = field.replace(/^(options|changes)\./, '');
  const subject = attribute ? `the ${attribute} attribute` : `the property ${property}`;
  const message =
    field && error.message.startsWith(field) ? `${subject}${error.message.slice(field.length)}` : error.message;
  return new InvalidParameterError('invalid_parameter', `<video-plugin>: ${message}`, {
    ...error.data,
    field: attribute ?? property,
  });
}
