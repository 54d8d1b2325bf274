// The few browser globals the SDK's modules reach for, stood in for under Node: the window's
// message listeners (addEventListener/removeEventListener, here an EventTarget of its own), a
// `document` that takes listeners, `location.origin`, and `reportError`, which records what a
// listener threw instead of crashing the test process (the SDK reports such errors, never throws
// them). Node has MessageChannel, MessagePort, Event, CustomEvent and EventTarget itself.
const windowTarget = new EventTarget();

/** The origin of the partner's page, as `location.origin` gives it. */
export const PAGE_ORIGIN = 'http://127.0.0.1:5000';

/** What `reportError` was given, in order; tests read and empty it. */
export const reported: unknown[] = [];

Object.assign(globalThis, {
  addEventListener: windowTarget.addEventListener.bind(windowTarget),
  removeEventListener: windowTarget.removeEventListener.bind(windowTarget),
  document: new EventTarget(),
  location: { origin: PAGE_ORIGIN },
  reportError: (error: unknown) => reported.push(error),
});

/**
 * Posts `data` to the page's window as a frame would: a `message` event whose `source` is the
 * frame's window and whose `origin` is its page's. Dispatched at once, as listeners run in order.
 */
export function postToWindow(data: unknown, source: unknown, origin: string): void {
  windowTarget.dispatchEvent(Object.assign(new Event('message'), { data, source, origin }));
}
