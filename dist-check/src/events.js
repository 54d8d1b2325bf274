/** Reports a listener's exception the way the platform reports one from an event listener. */
export function report(error) {
  if (typeof reportError === 'function') reportError(error);
  else
    queueMicrotask(() => {
      throw error;
    });
}
export class Emitter {
  #listeners = new Map();
  on(name, listener) {
    let set = this.#listeners.get(name);
    if (!set) this.#listeners.set(name, (set = new Set()));
    set.add(listener);
    return () => this.off(name, listener);
  }
  off(name, listener) {
    this.#listeners.get(name)?.delete(listener);
  }
  /** Calls every listener of `name`; one listener's exception does not stop the others. */
  emit(name, payload) {
    const set = this.#listeners.get(name);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(payload);
      } catch (error) {
        report(error);
      }
    }
  }
  clear() {
    this.#listeners.clear();
  }
}
//# sourceMappingURL=events.js.map
