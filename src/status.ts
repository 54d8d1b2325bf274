/**
 * The `Plugin`'s status subscriptions: one upstream subscription per topic and id, shared by every
 * callback that asked for it; each update delivered once and in order; and the async iterators
 * (`topicSearchStatus`, `videoGenerationStatus`) on top. The `Plugin` checks the arguments and its
 * own state; this module keeps the subscriptions.
 */
import type { Logger } from './debug.js';
import { deliver } from './events.js';
import type { ActionStatus, TopicSearchStatusUpdatePayload } from './wire/api.js';
import type { HostConnection } from './wire/host.js';

export type StatusPayload = TopicSearchStatusUpdatePayload;
export type StatusCallback = (payload: StatusPayload) => void;
/** Where the subscriptions go upstream: the `Plugin`'s connection (the wire). */
type Upstream = Pick<HostConnection, 'subscribe'>;

/** One upstream subscription per topic/id, shared by every callback that asked for it. */
interface StatusSubscription {
  /** One function per subscription, so that a callback subscribed twice is two subscribers. */
  subscribers: Set<StatusCallback>;
  last?: StatusPayload;
  /**
   * The order of `last`, which a new update must exceed: its status's rank plus its progress's
   * fraction (named `status` because that name costs the bundle nothing).
   */
  status?: number;
  stop: () => void;
}

/**
 * Statuses only move forward: COMPLETE and FAILED are final. Two apart, so that a status's rank
 * plus its progress's fraction (0..1) orders the updates of one status too.
 */
const STATUS_RANK: Record<ActionStatus, number> = { PENDING: 0, PROCESSING: 2, COMPLETE: 4, FAILED: 4 };

export class StatusSubscriptions {
  readonly #subscriptions = new Map<string, StatusSubscription>();
  /** Wakes the status iterators (at {@link stop}, which ends them). */
  readonly #wakers = new Set<() => void>();
  readonly #upstream: Upstream;
  readonly #log: Logger;

  constructor(upstream: Upstream, log: Logger) {
    this.#upstream = upstream;
    this.#log = log;
  }

  /**
   * Adds `callback` (checked by the caller) to the subscription of `topic`/`key`, opening it
   * upstream when it is the first; a late subscriber first receives the current status. Returns the
   * function that unsubscribes.
   */
  subscribe(topic: string, key: string, callback: StatusCallback): () => void {
    const subscriber: StatusCallback = (payload) => callback(payload);
    const mapKey = `${topic}:${key}`;
    const subscriptions = this.#subscriptions;
    // A new one gets its `stop` right below, once it is in the map.
    const shared = subscriptions.get(mapKey) ?? ({ subscribers: new Set() } as StatusSubscription);
    if (!subscriptions.has(mapKey)) {
      subscriptions.set(mapKey, shared);
      shared.stop = this.#upstream.subscribe(topic, key, (value) => this.#onStatus(shared, value as StatusPayload));
    }
    const { subscribers, last } = shared;
    subscribers.add(subscriber);
    if (last) queueMicrotask(() => subscribers.has(subscriber) && deliver(subscriber, last));
    return () => {
      if (!subscribers.delete(subscriber) || subscribers.size) return;
      shared.stop();
      subscriptions.delete(mapKey);
    };
  }

  /**
   * The status iterators: a subscription (`subscribe`, called at the first `next()`) whose updates
   * wait in a queue for the loop. `check` runs before each step (it throws once the `Plugin` is
   * destroyed); the loop ends after a final status.
   */
  async *updates(
    subscribe: (callback: StatusCallback) => () => void,
    signalOf: () => AbortSignal | undefined,
    check: () => void,
  ): AsyncGenerator<StatusPayload, void> {
    const queue: StatusPayload[] = [];
    // Set by the loop's first wait, before anything can call it: updates and aborts come later.
    let wake: () => void;
    const stop = subscribe((payload: StatusPayload) => {
      queue.push(payload);
      wake();
    });
    const signal = signalOf();
    const onStop = (): void => wake();
    signal?.addEventListener('abort', onStop);
    this.#wakers.add(onStop);
    try {
      for (;;) {
        signal?.throwIfAborted();
        check();
        const payload = queue.shift();
        if (!payload) await new Promise<void>((resolve) => (wake = resolve));
        else {
          yield payload;
          if (STATUS_RANK[payload.status] > 3) return;
        }
      }
    } finally {
      stop();
      signal?.removeEventListener('abort', onStop);
      this.#wakers.delete(onStop);
    }
  }

  /** Wakes every iterator: at cleanup, where their `check` throws and ends them. */
  wake(): void {
    for (const wake of this.#wakers) wake();
  }

  /** Closes every upstream subscription. */
  stop(): void {
    for (const subscription of this.#subscriptions.values()) subscription.stop();
    this.#subscriptions.clear();
  }

  /**
   * Delivers each update once, in order: a later status, or the same with more progress. After a
   * reconnect or a dropped stream the service sends what it has again, and a slow re-read can
   * arrive after a newer update: neither is delivered.
   */
  #onStatus(subscription: StatusSubscription, payload: StatusPayload): void {
    // The one answer the host reads before passing it on (`payload` is unchecked): dedupe and
    // order need a known status and a numeric fraction, if any. An unknown status ranks undefined
    // (NaN) or, for a forged "constructor", a function (a string once added to): not `>= 0`.
    const rank = STATUS_RANK[payload?.status] + (payload?.progress?.fraction || 0);
    if (!(rank >= 0)) {
      this.#log('dropped', payload);
      return;
    }
    if (rank <= subscription.status!) return;
    subscription.status = rank;
    subscription.last = payload;
    for (const subscriber of [...subscription.subscribers]) deliver(subscriber, payload);
  }
}
