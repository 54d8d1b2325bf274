import { VideoPluginError, serializeError } from '../errors.js';
import {
  HANDSHAKE_KEY,
  PROTOCOL_VERSION,
  connectSchema,
  hostMessageSchemas,
  parseMessage,
  readFrameHash,
} from './protocol.js';
const SECOND_CONNECT = {
  code: 'bad_request',
  message: 'This service page already has its host; reload the frame to connect again.',
};
/** Announces this page to its parent and serves the host that connects. */
export function serveHost(options) {
  const log = options.log ?? (() => {});
  const frame = readFrameHash(location.hash);
  let port;
  let host;
  const topicStops = new Map();
  let handshaken = false;
  const post = (message) => port?.postMessage(message);
  const stopTopics = () => {
    for (const stop of topicStops.values()) stop();
    topicStops.clear();
  };
  const closePort = () => {
    stopTopics();
    if (port) {
      port.onmessage = null;
      port.close();
    }
    port = undefined;
    host = undefined;
  };
  const onPortMessage = (event) => {
    const message = parseMessage(hostMessageSchemas, event.data);
    const current = host;
    if (!message || !current) {
      log('dropped an invalid message from the host', event.data);
      return;
    }
    switch (message.t) {
      case 'call':
        answer(message.id, message.method, message.params, current);
        return;
      case 'sub': {
        const topic = options.topics?.[message.topic];
        if (!topic || !Object.hasOwn(options.topics, message.topic)) {
          log(`dropped a subscription to unknown topic ${message.topic}`);
          return;
        }
        topicStops.get(message.sid)?.();
        const source = port;
        const push = (value) => {
          if (port === source) post({ t: 'upd', sid: message.sid, value });
        };
        topicStops.set(message.sid, topic(message.key, push, current));
        return;
      }
      case 'unsub':
        topicStops.get(message.sid)?.();
        topicStops.delete(message.sid);
        return;
    }
  };
  const answer = (id, method, params, caller) => {
    const source = port;
    // A reply to a host that has since reconnected would reach nobody who asked.
    const ok = (value) => {
      if (port === source) post({ t: 'ok', id, value });
    };
    const fail = (error) => {
      log(`call #${id} ${method} failed`, error);
      if (port === source) post({ t: 'err', id, error: serializeError(error) });
    };
    try {
      const handler = Object.hasOwn(options.methods, method) ? options.methods[method] : undefined;
      if (!handler) {
        throw new VideoPluginError(
          'bad_request',
          `The service does not know the method ${method}. Update video-plugin or the service.`,
        );
      }
      const value = handler(params, caller);
      // Answer a plain value in this task; wait only for a promise.
      if (typeof value?.then === 'function') {
        value.then(ok, fail);
      } else ok(value);
    } catch (error) {
      fail(error);
    }
  };
  const onWindowMessage = async (event) => {
    if (!frame || event.source !== window.parent || event.source === window) return;
    const data = event.data;
    if (typeof data !== 'object' || data === null || data[HANDSHAKE_KEY] !== 'connect') return;
    const connect = connectSchema.safeParse(data);
    const offered = event.ports[0];
    if (!connect.success || connect.data.channel !== frame.channel || connect.data.v !== PROTOCOL_VERSION || !offered) {
      log('dropped an invalid connect message', data);
      return;
    }
    // The host connects once per page load, in answer to our one hello: a second connect (any
    // script of the parent page can read the channel) must not take the connection over.
    if (handshaken) {
      log(`refused a second connect from ${event.origin}`);
      offered.postMessage({ t: 'refused', error: SECOND_CONNECT });
      offered.close();
      return;
    }
    handshaken = true;
    const refusal = await options.checkOrigin?.(event.origin, connect.data);
    if (refusal) {
      log(`refused host origin ${event.origin}`, refusal);
      offered.postMessage({ t: 'refused', error: refusal });
      offered.close();
      return;
    }
    closePort();
    port = offered;
    host = { origin: event.origin, config: connect.data.config, sdk: connect.data.sdk, channel: frame.channel };
    port.onmessage = onPortMessage;
    post({ t: 'ready', info: options.info?.() });
    log(`connected to host ${event.origin}`);
    options.onConnect?.(host);
  };
  // Say goodbye as soon as the page starts to leave: Firefox and WebKit abort the page's requests
  // before `pagehide`, and a call whose request was aborted must reach the host as interrupted (it
  // may have taken effect), not as a network failure. Nothing is answered after the goodbye.
  const onLeave = () => {
    if (!port) return;
    post({ t: 'bye' });
    closePort();
  };
  if (frame) {
    window.addEventListener('message', onWindowMessage);
    window.addEventListener('beforeunload', onLeave);
    window.addEventListener('pagehide', onLeave);
    if (frame.version !== PROTOCOL_VERSION) log(`the page URL asks for protocol version ${frame.version}`);
    if (window.parent !== window) {
      window.parent.postMessage({ [HANDSHAKE_KEY]: 'hello', v: PROTOCOL_VERSION, channel: frame.channel }, '*');
    }
  }
  return {
    channel: frame?.channel,
    get host() {
      return host;
    },
    emit(name, payload) {
      if (!port) log(`event ${name} dropped: no host connected`);
      post({ t: 'evt', name, payload });
    },
    close() {
      window.removeEventListener('message', onWindowMessage);
      window.removeEventListener('beforeunload', onLeave);
      window.removeEventListener('pagehide', onLeave);
      closePort();
    },
  };
}
//# sourceMappingURL=service.js.map
