/**
 * Counts the listeners, timers and message ports created while it is installed and not yet
 * released, by wrapping the platform functions. Used by leak tests; call restore() after.
 */
export interface ResourceCounter {
  live(): { listeners: number; timers: number; ports: number };
  restore(): void;
}

export function countResources(): ResourceCounter {
  const listeners = new Map<EventTarget, Set<string>>();
  const timers = new Set<unknown>();
  const ports = new Set<MessagePort>();
  const original = {
    add: EventTarget.prototype.addEventListener,
    remove: EventTarget.prototype.removeEventListener,
    setTimeout: window.setTimeout,
    clearTimeout: window.clearTimeout,
    MessageChannel: window.MessageChannel,
    close: MessagePort.prototype.close,
  };
  const ids = new WeakMap<object, number>();
  let nextId = 0;
  /** One key per (type, capture, listener), as the platform itself tells listeners apart. */
  const keyOf = (type: string, listener: object, options?: boolean | EventListenerOptions): string => {
    const capture = typeof options === 'object' ? Boolean(options.capture) : Boolean(options);
    let id = ids.get(listener);
    if (id === undefined) ids.set(listener, (id = ++nextId));
    return `${type}|${capture}|${id}`;
  };

  EventTarget.prototype.addEventListener = function (type, listener, options) {
    if (listener && !(typeof options === 'object' && options.once)) {
      const set = listeners.get(this) ?? new Set<string>();
      set.add(keyOf(type, listener, options));
      listeners.set(this, set);
    }
    return original.add.call(this, type, listener, options);
  };
  EventTarget.prototype.removeEventListener = function (type, listener, options) {
    if (listener) listeners.get(this)?.delete(keyOf(type, listener, options));
    return original.remove.call(this, type, listener, options);
  };
  window.setTimeout = ((handler: TimerHandler, timeout?: number, ...args: unknown[]) => {
    const id: number = original.setTimeout.call(
      window,
      (...inner: unknown[]) => {
        timers.delete(id);
        if (typeof handler === 'function') (handler as (...a: unknown[]) => void)(...inner);
      },
      timeout,
      ...(args as []),
    ) as unknown as number;
    timers.add(id);
    return id;
  }) as unknown as typeof window.setTimeout;
  window.clearTimeout = ((id?: number) => {
    timers.delete(id);
    original.clearTimeout.call(window, id);
  }) as typeof window.clearTimeout;
  window.MessageChannel = class extends original.MessageChannel {
    constructor() {
      super();
      ports.add(this.port1);
    }
  };
  MessagePort.prototype.close = function () {
    ports.delete(this);
    return original.close.call(this);
  };

  return {
    live: () => ({
      listeners: [...listeners.values()].reduce((sum, set) => sum + set.size, 0),
      timers: timers.size,
      ports: ports.size,
    }),
    restore() {
      EventTarget.prototype.addEventListener = original.add;
      EventTarget.prototype.removeEventListener = original.remove;
      window.setTimeout = original.setTimeout;
      window.clearTimeout = original.clearTimeout;
      window.MessageChannel = original.MessageChannel;
      MessagePort.prototype.close = original.close;
    },
  };
}
