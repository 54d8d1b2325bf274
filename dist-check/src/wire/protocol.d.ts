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
export declare const PROTOCOL_VERSION = 1;
/** Marks the two window-level handshake messages as ours. */
export declare const HANDSHAKE_KEY = 'videoPlugin';
/** iframe → parent window. */
export declare const helloSchema: z.ZodMiniObject<
  {
    videoPlugin: z.ZodMiniType<'hello', 'hello', z.core.$ZodTypeInternals<'hello', 'hello'>>;
    v: z.ZodMiniCustom<number, number>;
    channel: z.ZodMiniCustom<string, string>;
  },
  z.core.$strip
>;
export type HelloMessage = z.infer<typeof helloSchema>;
/** parent window → iframe, with the port as the only transferable. */
export declare const connectSchema: z.ZodMiniObject<
  {
    videoPlugin: z.ZodMiniType<'connect', 'connect', z.core.$ZodTypeInternals<'connect', 'connect'>>;
    v: z.ZodMiniCustom<number, number>;
    channel: z.ZodMiniCustom<string, string>;
    sdk: z.ZodMiniCustom<string, string>;
    config: z.ZodMiniCustom<unknown, unknown>;
  },
  z.core.$strip
>;
export type ConnectMessage = z.infer<typeof connectSchema>;
/** Messages the host sends on the port. */
export declare const hostMessageSchemas: {
  readonly call: z.ZodMiniObject<
    {
      t: z.ZodMiniType<'call', 'call', z.core.$ZodTypeInternals<'call', 'call'>>;
      id: z.ZodMiniCustom<number, number>;
      method: z.ZodMiniCustom<string, string>;
      params: z.ZodMiniCustom<unknown, unknown>;
    },
    z.core.$strip
  >;
  readonly sub: z.ZodMiniObject<
    {
      t: z.ZodMiniType<'sub', 'sub', z.core.$ZodTypeInternals<'sub', 'sub'>>;
      sid: z.ZodMiniCustom<number, number>;
      topic: z.ZodMiniCustom<string, string>;
      key: z.ZodMiniCustom<string, string>;
    },
    z.core.$strip
  >;
  readonly unsub: z.ZodMiniObject<
    {
      t: z.ZodMiniType<'unsub', 'unsub', z.core.$ZodTypeInternals<'unsub', 'unsub'>>;
      sid: z.ZodMiniCustom<number, number>;
    },
    z.core.$strip
  >;
};
/** Messages the service sends on the port. */
export declare const serviceMessageSchemas: {
  readonly ready: z.ZodMiniObject<
    {
      t: z.ZodMiniType<'ready', 'ready', z.core.$ZodTypeInternals<'ready', 'ready'>>;
      info: z.ZodMiniOptional<z.ZodMiniCustom<Record<string, unknown>, Record<string, unknown>>>;
    },
    z.core.$strip
  >;
  readonly refused: z.ZodMiniObject<
    {
      t: z.ZodMiniType<'refused', 'refused', z.core.$ZodTypeInternals<'refused', 'refused'>>;
      error: z.ZodMiniObject<
        {
          code: z.ZodMiniCustom<string, string>;
          message: z.ZodMiniCustom<string, string>;
          data: z.ZodMiniOptional<z.ZodMiniCustom<Record<string, unknown>, Record<string, unknown>>>;
        },
        z.core.$strip
      >;
    },
    z.core.$strip
  >;
  readonly ok: z.ZodMiniObject<
    {
      t: z.ZodMiniType<'ok', 'ok', z.core.$ZodTypeInternals<'ok', 'ok'>>;
      id: z.ZodMiniCustom<number, number>;
      value: z.ZodMiniCustom<unknown, unknown>;
    },
    z.core.$strip
  >;
  readonly err: z.ZodMiniObject<
    {
      t: z.ZodMiniType<'err', 'err', z.core.$ZodTypeInternals<'err', 'err'>>;
      id: z.ZodMiniCustom<number, number>;
      error: z.ZodMiniObject<
        {
          code: z.ZodMiniCustom<string, string>;
          message: z.ZodMiniCustom<string, string>;
          data: z.ZodMiniOptional<z.ZodMiniCustom<Record<string, unknown>, Record<string, unknown>>>;
        },
        z.core.$strip
      >;
    },
    z.core.$strip
  >;
  readonly evt: z.ZodMiniObject<
    {
      t: z.ZodMiniType<'evt', 'evt', z.core.$ZodTypeInternals<'evt', 'evt'>>;
      name: z.ZodMiniCustom<string, string>;
      payload: z.ZodMiniCustom<unknown, unknown>;
    },
    z.core.$strip
  >;
  readonly upd: z.ZodMiniObject<
    {
      t: z.ZodMiniType<'upd', 'upd', z.core.$ZodTypeInternals<'upd', 'upd'>>;
      sid: z.ZodMiniCustom<number, number>;
      value: z.ZodMiniCustom<unknown, unknown>;
    },
    z.core.$strip
  >;
  readonly bye: z.ZodMiniObject<
    {
      t: z.ZodMiniType<'bye', 'bye', z.core.$ZodTypeInternals<'bye', 'bye'>>;
    },
    z.core.$strip
  >;
};
type Infer<T> = {
  [K in keyof T]: T[K] extends z.ZodMiniType ? z.infer<T[K]> : never;
}[keyof T];
export type HostMessage = Infer<typeof hostMessageSchemas>;
export type ServiceMessage = Infer<typeof serviceMessageSchemas>;
/**
 * Validates a message from the other side: cheap checks first (an object with a known `t`),
 * then the schema of that kind. Returns `undefined` for anything that is not a valid message.
 */
export declare function parseMessage<S extends Record<string, z.ZodMiniType>>(
  schemas: S,
  data: unknown,
): z.infer<S[keyof S]> | undefined;
/** Reads `channel` and `v` from an iframe URL hash (`#channel=…&v=…`). */
export declare function readFrameHash(hash: string):
  | {
      channel: string;
      version: number;
    }
  | undefined;
/** Writes the hash that {@link readFrameHash} reads. */
export declare function frameHash(channel: string): string;
export {};
//# sourceMappingURL=protocol.d.ts.map
