/**
 * The fuzzer's attacker (test/support/fuzz.ts forges the messages): it posts them with fresh
 * ports, exploits every port it keeps or is handed, and records what comes back on them. Used by
 * the fuzz tests and the hostile sibling frame (test/fixtures/hostile.ts).
 */
import { HANDSHAKE_KEY } from '../../src/wire/protocol.js';
import { portBurst, type Direction, type ForgedMessage, type FuzzContext } from './fuzz.js';

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
export class Attacker {
  readonly received: Received[] = [];
  readonly #kept: MessagePort[] = [];
  #waiters: { test: (r: Received) => boolean; resolve: (r: Received) => void }[] = [];

  constructor(readonly context: FuzzContext) {}

  /** Posts every message to every target (targetOrigin `*`, as an attacker would). */
  flood(targets: readonly Window[], messages: readonly ForgedMessage[], direction: Direction): Tally {
    const tally: Tally = { posted: 0, unpostable: 0, mislabeled: [] };
    for (const message of messages) {
      let wrong = false;
      for (const target of targets) {
        const posted = this.post(target, message, direction);
        if (posted) tally.posted++;
        else tally.unpostable++;
        if (posted !== message.postable && !wrong) {
          wrong = true;
          tally.mislabeled.push(`${message.index} ${message.mutation}: ${posted ? 'posted' : 'refused'}`);
        }
      }
    }
    return tally;
  }

  /** Posts one message with fresh ports, then sends a burst of replies on the ends it keeps. */
  post(target: Window, message: Pick<ForgedMessage, 'index' | 'data' | 'ports'>, direction: Direction): boolean {
    const channels = { none: 0, transfer: 1, transfer2: 2, 'in-data': 1, 'in-data-untransferred': 1 }[message.ports];
    const pairs = Array.from({ length: channels }, () => new MessageChannel());
    const transfer = message.ports === 'in-data-untransferred' ? [] : pairs.map((pair) => pair.port2);
    let data = message.data;
    if (message.ports.startsWith('in-data')) data = { ...(data as object), port: pairs[0]!.port2 };
    try {
      target.postMessage(data, '*', transfer);
    } catch {
      for (const pair of pairs) pair.port1.close();
      return false;
    }
    for (const { port1 } of pairs) {
      this.#kept.push(port1);
      port1.onmessage = (event) => this.#record({ index: message.index, data: event.data });
      for (const reply of portBurst(direction, this.context)) port1.postMessage(reply);
    }
    return true;
  }

  /** Resolves with the first received message (past or future) that passes `test`. */
  when(test: (received: Received) => boolean): Promise<Received> {
    const found = this.received.find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.#waiters.push({ test, resolve }));
  }

  close(): void {
    for (const port of this.#kept.splice(0)) port.close();
  }

  #record(received: Received): void {
    this.received.push(received);
    for (const waiter of this.#waiters.filter((w) => w.test(received))) waiter.resolve(received);
    this.#waiters = this.#waiters.filter((w) => !w.test(received));
  }
}

/** A short, clonable description of a message, for reports. */
export function summarize(data: unknown): string {
  if (typeof data !== 'object' || data === null) return typeof data;
  const record = data as Record<string, unknown>;
  const tag = record.t ?? record[HANDSHAKE_KEY];
  return typeof tag === 'string' ? tag.slice(0, 40) : Object.keys(record).slice(0, 5).join(',');
}
