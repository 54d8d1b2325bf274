export function countResources() {
  const listeners = new Map();
  const timers = new Set();
  const ports = new Set();
  const original = {
    add: EventTarget.prototype.addEventListener,
    remove: EventTarget.prototype.removeEventListener,
    setTimeout: window.setTimeout,
    clearTimeout: window.clearTimeout,
    MessageChannel: window.MessageChannel,
    close: MessagePort.prototype.close,
  };
  const ids = new WeakMap();
  let nextId = 0;
  /** One key per (type, capture, listener), as the platform itself tells listeners apart. */
  const keyOf = (type, listener, options) => {
    const capture = typeof options === 'object' ? Boolean(options.capture) : Boolean(options);
    let id = ids.get(listener);
    if (id === undefined) ids.set(listener, (id = ++nextId));
    return `${type}|${capture}|${id}`;
  };
  EventTarget.prototype.addEventListener = function (type, listener, options) {
    if (listener && !(typeof options === 'object' && options.once)) {
      const set = listeners.get(this) ?? new Set();
      set.add(keyOf(type, listener, options));
      listeners.set(this, set);
    }
    return original.add.call(this, type, listener, options);
  };
  EventTarget.prototype.removeEventListener = function (type, listener, options) {
    if (listener) listeners.get(this)?.delete(keyOf(type, listener, options));
    return original.remove.call(this, type, listener, options);
  };
  window.setTimeout = (handler, timeout, ...args) => {
    const id = original.setTimeout.call(
      window,
      (...inner) => {
        timers.delete(id);
        if (typeof handler === 'function') handler(...inner);
      },
      timeout,
      ...args,
    );
    timers.add(id);
    return id;
  };
  window.clearTimeout = (id) => {
    timers.delete(id);
    original.clearTimeout.call(window, id);
  };
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
//# sourceMappingURL=resources.js.map
