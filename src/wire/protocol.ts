/**
 * The wire between the partner's page (host) and the service's iframe: message shapes shared by
 * both sides, so that they can never drift. See docs/protocol.md for the whole exchange.
 *
 * 1. The iframe URL carries `#channel=<uuid>&v=<version>`.
 * 2. The iframe posts `hello` to its parent (target `*`: it carries nothing secret).
 * 3. The host checks source, origin, channel and version, then posts `connect` with a
 *    `MessagePort`, targeted at the exact service origin.
 * 4. The service checks the host origin and answers on the port with `ready` or `refused`.
 * 5. Everything else travels on the port: calls (params and metadata) and replies by unique id,
 *    events, subscriptions.
 */
import * as z from '../schema.js';

/** Version of this protocol; both sides must agree. */
export const PROTOCOL_VERSION = 1;

/** Marks the two window-level handshake messages as ours. */
export const HANDSHAKE_KEY = 'videoPlugin';

// Checks rather than zod's primitive schemas, which would cost the Plugin bundle 0.5 kB gzip more.
const string = z.custom<string>((value) => typeof value === 'string');
/** A finite number, as `z.number()` accepts. */
const number = z.custom<number>(Number.isFinite as (value: unknown) => boolean);

/** Any value: payloads are checked where they are used. */
const anything = z.custom<unknown>();

/** A plain object of any keys (`info`, error `data`). */
const record = z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
);

/**
 * The kind of a message (`t`, or the handshake key). Typed as its literal, checked as a string:
 * the receiver already picked the schema by this very value (`parseMessage`, the handshake's
 * `=== 'hello'`/`'connect'` checks), so a literal schema would check it twice — and cost the
 * Plugin bundle zod's literal machinery (BENCHMARKS.md, "Sizes").
 */
const kind = /* @__NO_SIDE_EFFECTS__ */ <K extends string>(_: K) => string as unknown as z.Schema<K>;

const serializedError = z.object({
  code: string,
  message: string,
  data: z.optional(record),
});

/**
 * A handshake message's schema: its kind under {@link HANDSHAKE_KEY}, beside `shape`, for the
 * schemas the `Plugin` never reads (`connect`). Built by a function marked free of side effects:
 * esbuild keeps an unread `z.object({ [key]: … })` (a computed key might run code), so the Plugin
 * carried the schema of `connect` (the host reads `hello`, whose literal costs less).
 */
const handshake = /* @__NO_SIDE_EFFECTS__ */ <K extends string, S extends Record<string, z.Schema>>(
  name: K,
  shape: S,
) => z.object({ [HANDSHAKE_KEY]: kind(name), ...shape } as { [HANDSHAKE_KEY]: z.Schema<K> } & S);

/** iframe → parent window. */
export const helloSchema = z.object({
  [HANDSHAKE_KEY]: kind('hello'),
  v: number,
  channel: string,
});
export type HelloMessage = z.infer<typeof helloSchema>;

/**
 * parent window → iframe, with the port as the only transferable. The service's schemas (this one
 * and `hostMessageSchemas`) are marked pure: the `Plugin` never reads them, and esbuild then drops
 * them as rollup does (it cannot prove a top-level call free of side effects on its own).
 */
export const connectSchema = handshake('connect', {
  v: number,
  channel: string,
  /** The SDK's own version, for the service's logs and compatibility decisions. */
  sdk: string,
  /** The host's configuration, replayed on every reconnect. */
  config: anything,
});
export type ConnectMessage = z.infer<typeof connectSchema>;

const id = number;

/** Messages the host sends on the port. */
export const hostMessageSchemas = {
  /** `meta`: the call's metadata (`CallMeta` in api.ts), beside its params; absent when the call has none. */
  call: /* @__PURE__ */ z.object({
    t: kind('call'),
    id,
    method: string,
    params: anything,
    meta: /* @__PURE__ */ z.optional(record),
  }),
  sub: /* @__PURE__ */ z.object({ t: kind('sub'), sid: id, topic: string, key: string }),
  unsub: /* @__PURE__ */ z.object({ t: kind('unsub'), sid: id }),
} as const;

/** Messages the service sends on the port. */
export const serviceMessageSchemas = {
  ready: z.object({ t: kind('ready'), info: z.optional(record) }),
  refused: z.object({ t: kind('refused'), error: serializedError }),
  ok: z.object({ t: kind('ok'), id, value: anything }),
  err: z.object({ t: kind('err'), id, error: serializedError }),
  evt: z.object({ t: kind('evt'), name: string, payload: anything }),
  upd: z.object({ t: kind('upd'), sid: id, value: anything }),
  bye: z.object({ t: kind('bye') }),
} as const;

type Infer<T> = { [K in keyof T]: T[K] extends z.Schema ? z.infer<T[K]> : never }[keyof T];
export type HostMessage = Infer<typeof hostMessageSchemas>;
export type ServiceMessage = Infer<typeof serviceMessageSchemas>;

/**
 * Validates a message from the other side: cheap checks first (an object with a known `t`),
 * then the schema of that kind. Returns `undefined` for anything that is not a valid message.
 */
export function parseMessage<S extends Record<string, z.Schema>>(
  schemas: S,
  data: unknown,
): z.infer<S[keyof S]> | undefined {
  // A primitive has no `t` either; the schema checks that it is an object.
  const kind = (data as { t?: unknown } | undefined)?.t;
  if (typeof kind !== 'string' || !Object.hasOwn(schemas, kind)) return undefined;
  return z.valid(schemas[kind]!, data) as z.infer<S[keyof S]> | undefined;
}

/** Reads `channel` and `v` from an iframe URL hash (`#channel=…&v=…`). */
export function readFrameHash(hash: string): { channel: string; version: number } | undefined {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const channel = params.get('channel');
  const version = Number(params.get('v'));
  if (!channel || !Number.isInteger(version)) return undefined;
  return { channel, version };
}

/** Writes the hash that {@link readFrameHash} reads. */
export function frameHash(channel: string): string {
  return `#channel=${encodeURIComponent(channel)}&v=${PROTOCOL_VERSION}`;
}
