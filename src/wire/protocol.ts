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

const serializedError = z.object({
  code: z.string(),
  message: z.string(),
  data: z.optional(z.looseObject({})),
});

/** iframe → parent window. */
export const helloSchema = z.object({
  [HANDSHAKE_KEY]: z.literal('hello'),
  v: z.number(),
  channel: z.string(),
});
export type HelloMessage = z.infer<typeof helloSchema>;

/** parent window → iframe, with the port as the only transferable. */
export const connectSchema = z.object({
  [HANDSHAKE_KEY]: z.literal('connect'),
  v: z.number(),
  channel: z.string(),
  /** The SDK's own version, for the service's logs and compatibility decisions. */
  sdk: z.string(),
  /** The host's configuration, replayed on every reconnect. */
  config: z.unknown(),
});
export type ConnectMessage = z.infer<typeof connectSchema>;

const id = z.number();

/** Messages the host sends on the port. */
export const hostMessageSchemas = {
  call: z.object({ t: z.literal('call'), id, method: z.string(), params: z.unknown() }),
  sub: z.object({ t: z.literal('sub'), sid: id, topic: z.string(), key: z.string() }),
  unsub: z.object({ t: z.literal('unsub'), sid: id }),
} as const;

/** Messages the service sends on the port. */
export const serviceMessageSchemas = {
  ready: z.object({ t: z.literal('ready'), info: z.optional(z.looseObject({})) }),
  refused: z.object({ t: z.literal('refused'), error: serializedError }),
  ok: z.object({ t: z.literal('ok'), id, value: z.unknown() }),
  err: z.object({ t: z.literal('err'), id, error: serializedError }),
  evt: z.object({ t: z.literal('evt'), name: z.string(), payload: z.unknown() }),
  upd: z.object({ t: z.literal('upd'), sid: id, value: z.unknown() }),
  bye: z.object({ t: z.literal('bye') }),
} as const;

type Infer<T> = { [K in keyof T]: T[K] extends z.ZodMiniType ? z.infer<T[K]> : never }[keyof T];
export type HostMessage = Infer<typeof hostMessageSchemas>;
export type ServiceMessage = Infer<typeof serviceMessageSchemas>;

/**
 * Validates a message from the other side: cheap checks first (an object with a known `t`),
 * then the schema of that kind. Returns `undefined` for anything that is not a valid message.
 */
export function parseMessage<S extends Record<string, z.ZodMiniType>>(
  schemas: S,
  data: unknown,
): z.infer<S[keyof S]> | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const kind = (data as { t?: unknown }).t;
  if (typeof kind !== 'string' || !Object.hasOwn(schemas, kind)) return undefined;
  const result = schemas[kind]!.safeParse(data);
  return result.success ? (result.data as z.infer<S[keyof S]>) : undefined;
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
