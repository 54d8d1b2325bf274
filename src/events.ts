/** Per-instance event listeners: `on`, `off`, and the `callbacks` option. */
import type { PluginEventMap, PluginEventName } from './wire/api.js';

export type PluginEventListener<K extends PluginEventName> = (payload: PluginEventMap[K]) => void;

/** Reports a listener's exception the way the platform reports one from an event listener. */
export function report(error: unknown): void {
  if (typeof reportError === 'function') reportError(error);
  else
    queueMicrotask(() => {
      throw error;
    });
}

/** Calls `listener` with `payload`; an exception is reported, not thrown. */
export function deliver<T>(listener: (payload: T) => void, payload: T): void {
  try {
    listener(payload);
  } catch (error) {
    report(error);
  }
}

export class Emitter {
  readonly #listeners = new Map<PluginEventName, Set<(payload: never) => void>>();

  on<K extends PluginEventName>(name: K, listener: PluginEventListener<K>): () => void {
    // add() returns the set: a new one goes into the map, a known one is set again.
    this.#listeners.set(name, (this.#listeners.get(name) ?? new Set()).add(listener as (payload: never) => void));
    return () => this.off(name, listener);
  }

  off<K extends PluginEventName>(name: K, listener: PluginEventListener<K>): void {
    this.#listeners.get(name)?.delete(listener as (payload: never) => void);
  }

  /** Calls every listener of `name`; one listener's exception does not stop the others. */
  emit<K extends PluginEventName>(name: K, payload: PluginEventMap[K]): void {
    for (const listener of [...(this.#listeners.get(name) ?? [])]) deliver(listener as PluginEventListener<K>, payload);
  }

  clear(): void {
    this.#listeners.clear();
  }
}
