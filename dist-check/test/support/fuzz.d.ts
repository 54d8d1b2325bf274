/** The seed of every fuzz run; each posting party adds its own offset to it. */
export declare const FUZZ_SEED = 2119692322;
/** Forged messages per corpus. */
export declare const FUZZ_COUNT = 1500;
/** What the attacker knows of its victim: at worst everything the embedding page can read. */
export interface FuzzContext {
  /** The victim's channel id (a page script can read it from the iframe URL). */
  channel: string;
  /** A host configuration the service would accept in `connect`. */
  config: unknown;
  /** Call ids worth forging replies to (pending, answered, or never sent). */
  ids: number[];
  /** Subscription ids worth forging updates for. */
  sids: number[];
  /** Whether messages may transfer ports (not when they are relayed as call parameters). */
  ports: boolean;
}
declare const SHAPES: readonly [
  'hello',
  'connect',
  'call',
  'sub',
  'unsub',
  'ready',
  'refused',
  'ok',
  'err',
  'evt',
  'upd',
  'bye',
  'garbage',
];
export type Shape = (typeof SHAPES)[number];
/** How a message carries ports: none, one or two transferred, or one inside the data too. */
export type PortUse = 'none' | 'transfer' | 'transfer2' | 'in-data' | 'in-data-untransferred';
export interface ForgedMessage {
  /** Position in the corpus. */
  index: number;
  shape: Shape;
  /** The mutations applied, joined with `+`; `none` for a well-formed copy. */
  mutation: string;
  /** Whether it still passes every check of its shape: schema, channel and version. */
  wellFormed: boolean;
  /** Whether the browser can clone it (functions, symbols and proxies cannot; 10k-deep nesting, per engine). */
  postable: boolean;
  data: unknown;
  ports: PortUse;
}
/**
 * `count` forged messages for `context`, the same for the same seed. Every shape of the protocol,
 * well-formed or mutated: wrong channel, version or tag, missing and wrongly typed fields, odd
 * values, own `__proto__`/`constructor`/`prototype` keys, 1 MB strings, deep nesting, getters,
 * proxies, cycles, JSON strings and arrays of messages, and extra ports.
 */
export declare function forgeMessages(seed: number, count: number, context: FuzzContext): ForgedMessage[];
/** Where a message goes: to the host (as if from the service) or to the service (as if from the host). */
export type Direction = 'host' | 'service';
/**
 * Well-formed port messages an attacker sends on a port it holds: the one it gave away with a
 * forged message (a reply from the wrong port) or one it was handed (a breach, made loud: it
 * answers every call, pushes events and updates, and as a host logs out and reloads).
 */
export declare function portBurst(direction: Direction, context: FuzzContext): unknown[];
/** What came back on a port an attacker gave away. */
export interface Received {
  /** The forged message the port went with (-1 for a sentinel). */
  index: number;
  data: unknown;
}
/** How a flood went: posted, refused by the browser, and messages whose `postable` was wrong. */
export interface Tally {
  posted: number;
  unpostable: number;
  /** `index mutation: posted|refused`, one per message the generator labelled wrongly. */
  mislabeled: string[];
}
/** Posts forged messages and records everything that comes back on the ports it gives away. */
export declare class Attacker {
  #private;
  readonly context: FuzzContext;
  readonly received: Received[];
  constructor(context: FuzzContext);
  /** Posts every message to every target (targetOrigin `*`, as an attacker would). */
  flood(targets: readonly Window[], messages: readonly ForgedMessage[], direction: Direction): Tally;
  /** Posts one message with fresh ports, then sends a burst of replies on the ends it keeps. */
  post(target: Window, message: Pick<ForgedMessage, 'index' | 'data' | 'ports'>, direction: Direction): boolean;
  /** Resolves with the first received message (past or future) that passes `test`. */
  when(test: (received: Received) => boolean): Promise<Received>;
  close(): void;
}
/** A short, clonable description of a message, for reports. */
export declare function summarize(data: unknown): string;
export {};
//# sourceMappingURL=fuzz.d.ts.map
