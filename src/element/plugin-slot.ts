/**
 * What outlives one `Plugin` of `<video-plugin>`: the element rebuilds its `Plugin` when its
 * configuration changes and ends it when it leaves the document, but the partner's listeners
 * (`on`), its `callbacks`, the calls made before a `Plugin` exists and the status subscriptions
 * asked for meanwhile belong to the element. The slot holds the current `Plugin` and all of these:
 * calls wait in it for the next `Plugin` (or fail with why there is none), subscriptions start on
 * it, and every event reaches the DOM, the `on` listeners and `callbacks` from one place.
 */
import { DestroyedError, type VideoPluginError } from '../errors.js';
import { Emitter, deliver, type PluginEventListener } from '../events.js';
import { callbackSchema, eventNameSchema, idSchema, type PluginOptions } from '../options.js';
import type { Plugin } from '../plugin.js';
import { parse } from '../validate.js';
import {
  EVENT_NAMES,
  type PluginEventMap,
  type PluginEventName,
  type TopicSearchStatusUpdatePayload,
} from '../wire/api.js';
import { dispatchPluginEvent } from './events.js';

export type StatusMethod =
  | 'subscribeToTopicSearchStatusUpdates'
  | 'subscribeToVideoGenerationStatusUpdates'
  | 'subscribeToVideoRenderStatusUpdates';

type StatusCallback = (payload: TopicSearchStatusUpdatePayload) => void;

/** A status subscription asked for before the element had its `Plugin`. */
interface PendingSubscription {
  method: StatusMethod;
  id: string;
  callback: StatusCallback;
  stop: (() => void) | undefined;
}

/** The element a slot serves: where its events go, and its `callbacks` property. */
interface SlotElement extends HTMLElement {
  callbacks: PluginOptions['callbacks'];
}

/** The current `Plugin` of one element, and what waits for it or survives its rebuild. */
export class PluginSlot {
  #plugin: Plugin | undefined;
  /** Why the configuration cannot be used, while it cannot: calls reject with it. */
  #failure: VideoPluginError | undefined;
  /** Whether the element was removed from the document (and its `Plugin` ended). */
  #removed = false;
  readonly #element: SlotElement;
  /** Asks the element for a `Plugin` (`preload` may have put it off). */
  readonly #want: () => void;
  readonly #emitter = new Emitter();
  #waiting: { resolve: (plugin: Plugin) => void; reject: (error: unknown) => void }[] = [];
  readonly #pending = new Set<PendingSubscription>();

  constructor(element: SlotElement, want: () => void) {
    this.#element = element;
    this.#want = want;
  }

  /** The current `Plugin`, `undefined` before the first build and after the element left. */
  get plugin(): Plugin | undefined {
    return this.#plugin;
  }

  /** The element is in the document again: calls wait for its next `Plugin`. */
  inserted(): void {
    this.#removed = false;
  }

  /**
   * Makes `plugin` the current one: its events reach the element's listeners, the subscriptions
   * asked for meanwhile start on it and the waiting calls go to it. Returns the previous one.
   */
  fill(plugin: Plugin): Plugin | undefined {
    const previous = this.#plugin;
    this.#plugin = plugin;
    this.#failure = undefined;
    for (const name of EVENT_NAMES) plugin.on(name, (payload) => this.emit(name, payload));
    for (const pending of this.#pending) pending.stop = plugin[pending.method](pending.id, pending.callback);
    this.#pending.clear();
    this.#settle(plugin);
    return previous;
  }

  /** The configuration cannot be used: every waiting call, and every call until the next build, rejects with `failure`. */
  fail(failure: VideoPluginError): void {
    this.#failure = failure;
    this.#settle(undefined, failure);
  }

  /**
   * The element left the document: the slot lets its `Plugin` go (returned, for the element to
   * end) and what waits for one fails. Listeners and `callbacks` stay.
   */
  empty(): Plugin | undefined {
    const plugin = this.#plugin;
    this.#plugin = undefined;
    this.#failure = undefined;
    this.#removed = true;
    this.#pending.clear();
    this.#settle(
      undefined,
      new DestroyedError(
        '<video-plugin> was removed from the document before this call ran: insert it again, then retry.',
      ),
    );
    return plugin;
  }

  /**
   * The `Plugin` to forward `method` to, `undefined` when the call must wait for one (the element
   * is not connected yet); throws when the element was removed or cleaned up, or its
   * configuration is invalid.
   */
  current(method: string): Plugin | undefined {
    const plugin = this.#plugin;
    if (plugin?.isDestroyed) {
      throw new DestroyedError(
        `<video-plugin>.${method}() was called after cleanup(): change an attribute or insert the element again.`,
      );
    }
    if (plugin) return plugin;
    if (this.#removed) {
      throw new DestroyedError(
        `<video-plugin>.${method}() was called after the element was removed from the document (its session ended): insert it again.`,
      );
    }
    if (this.#failure) throw this.#failure;
    return undefined;
  }

  /**
   * Like {@link current}, but waits for the `Plugin` when there is none yet; a call (`want`)
   * creates it when `preload` put that off.
   */
  instance(method: string, want = true): Promise<Plugin> {
    const plugin = this.current(method);
    if (plugin) return Promise.resolve(plugin);
    if (want) this.#want();
    return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
  }

  /** A status subscription: on the current `Plugin`, or on the next one once there is one. */
  subscribe(method: StatusMethod, field: string, id: string, callback: StatusCallback): () => void {
    const plugin = this.current(method);
    if (plugin) return plugin[method](id, callback);
    this.#want();
    const pending: PendingSubscription = {
      method,
      id: parse(idSchema, id, field),
      callback: parse(callbackSchema, callback, 'callback') as StatusCallback,
      stop: undefined,
    };
    this.#pending.add(pending);
    return () => {
      if (this.#pending.delete(pending)) return;
      pending.stop?.();
      pending.stop = undefined;
    };
  }

  /** Adds an `on` listener of the element (checked as the `Plugin` checks its own). */
  on<K extends PluginEventName>(eventName: K, callback: PluginEventListener<K>): () => void {
    parse(eventNameSchema, eventName, 'eventName');
    parse(callbackSchema, callback, 'callback');
    return this.#emitter.on(eventName, callback);
  }

  /** Removes an `on` listener of the element. */
  off<K extends PluginEventName>(eventName: K, callback: PluginEventListener<K>): void {
    parse(eventNameSchema, eventName, 'eventName');
    parse(callbackSchema, callback, 'callback');
    this.#emitter.off(eventName, callback);
  }

  /** Tells every listener: the DOM event, then `on` listeners, then `callbacks`. */
  emit<K extends PluginEventName>(name: K, payload: PluginEventMap[K]): void {
    dispatchPluginEvent(this.#element, name, payload);
    this.#emitter.emit(name, payload);
    const callback = this.#element.callbacks?.[name];
    if (typeof callback === 'function') deliver(callback as PluginEventListener<K>, payload);
  }

  /** Hands every call that waits for a `Plugin` the new one, or else rejects it with `error`. */
  #settle(plugin: Plugin | undefined, error?: VideoPluginError): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const { resolve, reject } of waiting) {
      if (plugin) resolve(plugin);
      else reject(error);
    }
  }
}
