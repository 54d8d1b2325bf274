/**
 * The wire between the partner's page (host) and the service's iframe: message shapes shared by
 * both sides, so that they can never drift. See docs/protocol.md for the whole exchange.
 *
 * 1. The iframe URL carries `#channel=<uuid>&v=<version>`.
 * 2. The iframe posts `hello` to its parent (target `*`: it carries nothing secret).
 * 3. The host checks source, origin, channel and version, then posts `connect` with a
 *    `MessagePort`, targeted at the exact service origin.
 * 4. The service checks the host origin and answers on the port with `ready` or `refused`.
 * 5. Everything else travels on the port: calls and replies by unique id, events, subscriptions.
 */
import * as z from 'zod/mini';
/** Version of this protocol; both sides must agree. */
export const PROTOCOL_VERSION = 1;
/** Marks the two window-level handshake messages as ours. */
export const HANDSHAKE_KEY = 'videoPlugin';
// Checks rather than zod's primitive schemas, which would cost the Plugin bundle 0.5 kB gzip more.
const string = z.custom((value) => typeof value === 'string');
/** A finite number, as `z.number()` accepts. */
const number = z.custom(Number.isFinite);
/** Any value: payloads are checked where they are used. */
const anything = z.custom();
/** A plain object of any keys (`info`, error `data`). */
const record = z.custom((value) => typeof value === 'object' && value !== null && !Array.isArray(value));
/**
 * The kind of a message (`t`, or the handshake key). Typed as its literal, checked as a string:
 * the receiver already picked the schema by this very value (`parseMessage`, the handshake's
 * `=== 'hello'`/`'connect'` checks), so a literal schema would check it twice — and cost the
 * Plugin bundle zod's literal machinery (issue 11's size budget).
 */
const kind = (_) => string;
const serializedError = z.object({
  code: string,
  message: string,
  data: z.optional(record),
});
/** iframe → parent window. */
export const helloSchema = z.object({
  [HANDSHAKE_KEY]: kind('hello'),
  v: number,
  channel: string,
});
/** parent window → iframe, with the port as the only transferable. */
export const connectSchema = z.object({
  [HANDSHAKE_KEY]: kind('connect'),
  v: number,
  channel: string,
  /** The SDK's own version, for the service's logs and compatibility decisions. */
  sdk: string,
  /** The host's configuration, replayed on every reconnect. */
  config: anything,
});
const id = number;
/** Messages the host sends on the port. */
export const hostMessageSchemas = {
  call: z.object({ t: kind('call'), id, method: string, params: anything }),
  sub: z.object({ t: kind('sub'), sid: id, topic: string, key: string }),
  unsub: z.object({ t: kind('unsub'), sid: id }),
};
/** Messages the service sends on the port. */
export const serviceMessageSchemas = {
  ready: z.object({ t: kind('ready'), info: z.optional(record) }),
  refused: z.object({ t: kind('refused'), error: serializedError }),
  ok: z.object({ t: kind('ok'), id, value: anything }),
  err: z.object({ t: kind('err'), id, error: serializedError }),
  evt: z.object({ t: kind('evt'), name: string, payload: anything }),
  upd: z.object({ t: kind('upd'), sid: id, value: anything }),
  bye: z.object({ t: kind('bye') }),
};
/**
 * Validates a message from the other side: cheap checks first (an object with a known `t`),
 * then the schema of that kind. Returns `undefined` for anything that is not a valid message.
 */
export function parseMessage(schemas, data) {
  if (typeof data !== 'object' || data === null) return undefined;
  const kind = data.t;
  if (typeof kind !== 'string' || !Object.hasOwn(schemas, kind)) return undefined;
  const result = schemas[kind].safeParse(data);
  return result.success ? result.data : undefined;
}
/** Reads `channel` and `v` from an iframe URL hash (`#channel=…&v=…`). */
export function readFrameHash(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const channel = params.get('channel');
  const version = Number(params.get('v'));
  if (!channel || !Number.isInteger(version)) return undefined;
  return { channel, version };
}
/** Writes the hash that {@link readFrameHash} reads. */
export function frameHash(channel) {
  return `#channel=${encodeURIComponent(channel)}&v=${PROTOCOL_VERSION}`;
}
//# sourceMappingURL=protocol.js.map
