/**
 * The service side of the wire: runs inside the service's iframe page. It announces the page to
 * its parent, accepts the host's port after checking the host origin, answers calls, pushes
 * events and subscription updates. See protocol.ts for the exchange.
 */
import type { Logger } from '../debug.js';
import { valid, type Schema } from '../schema.js';
import { parse } from '../validate.js';
import type { CallMeta, MethodMap } from './api.js';
import { VideoPluginError, serializeError, type SerializedError } from '../errors.js';
import {
  HANDSHAKE_KEY,
  PROTOCOL_VERSION,
  connectSchema,
  hostMessageSchemas,
  parseMessage,
  readFrameHash,
  type ConnectMessage,
  type ServiceMessage,
} from './protocol.js';

/** What a handler knows about the host that called it. */
export interface HostInfo {
  /** The host page's origin, as the browser reported it in the handshake. */
  origin: string;
  /** The configuration the host sent in the handshake. */
  config: unknown;
  /** The SDK version the host runs. */
  sdk: string;
  /** The channel id from the iframe URL. */
  channel: string;
}

declare const sent: unique symbol;
/**
 * What the host sent where `T` is due: typed by the methods map, but checked by nobody yet (any
 * script of the host page can call), so a handler reads it only through {@link check}, with a
 * schema whose result `T` fits. `unknown` stays `unknown` (a map that does not say).
 */
export type Unchecked<T> = unknown extends T ? unknown : { readonly [sent]: T };

/**
 * The handlers of a methods map (`Handlers<Methods>`, api.ts): exactly its methods, each taking
 * its params and the call's metadata as sent, and answering its answer (or a promise of it).
 */
export type Handlers<M extends MethodMap> = {
  [K in keyof M]: (
    params: Unchecked<M[K]['params']>,
    meta: Unchecked<CallMeta>,
    host: HostInfo,
  ) => M[K]['answer'] | PromiseLike<M[K]['answer']>;
};

/**
 * Checks what the host sent (`parse`: an `InvalidParameterError` naming `field` and the key at
 * fault). The schema's result must take every value of the map's type, so a param renamed in
 * the map and not in the handler's schema fails the type check.
 */
export const check: <T>(schema: Schema<T, unknown>, value: Unchecked<NoInfer<T>>, field: string) => T = parse as never;
/** Starts pushing values for `key`; returns the function that stops. */
export type TopicHandler = (key: string, push: (value: unknown) => void, host: HostInfo) => () => void;

export interface ServeOptions<M extends MethodMap = MethodMap> {
  methods: Handlers<M>;
  topics?: Record<string, TopicHandler>;
  /** Decides whether the host origin may connect; return an error to refuse it. */
  checkOrigin?: (
    origin: string,
    connect: ConnectMessage,
  ) => Promise<SerializedError | undefined> | SerializedError | undefined;
  /** Runs after every accepted handshake. */
  onConnect?: (host: HostInfo) => void;
  /** The `info` sent with `ready`. */
  info?: () => Record<string, unknown>;
  log?: Logger;
}

export interface ServiceEndpoint {
  /** The channel id from the page URL, or `undefined` when the page was opened on its own. */
  readonly channel: string | undefined;
  /** The connected host, if any. */
  readonly host: HostInfo | undefined;
  /** Pushes an event to the host; dropped while no host is connected. */
  emit(name: string, payload?: unknown): void;
  /** Stops listening and closes the port. */
  close(): void;
}

const SECOND_CONNECT: SerializedError = {
  code: 'bad_request',
  message: 'This service page already has its host; reload the frame to connect again.',
};

/**
 * Announces this page to its parent and serves the host that connects, with the handlers of `M`
 * (the studio's: `serveHost<Methods>`).
 */
export function serveHost<M extends MethodMap = MethodMap>(options: ServeOptions<M>): ServiceEndpoint {
  const methods = options.methods as Handlers<MethodMap>;
  const log = options.log ?? (() => {});
  const frame = readFrameHash(location.hash);
  let port: MessagePort | undefined;
  let host: HostInfo | undefined;
  const topicStops = new Map<number, () => void>();
  let handshaken = false;

  const post = (message: ServiceMessage): void => port?.postMessage(message);

  const stopTopics = (): void => {
    for (const stop of topicStops.values()) stop();
    topicStops.clear();
  };

  const closePort = (): void => {
    stopTopics();
    if (port) {
      port.onmessage = null;
      port.close();
    }
    port = undefined;
    host = undefined;
  };

  const onPortMessage = (event: MessageEvent): void => {
    const message = parseMessage(hostMessageSchemas, event.data);
    const current = host;
    if (!message || !current) {
      log('dropped an invalid message from the host', event.data);
      return;
    }
    switch (message.t) {
      case 'call':
        answer(message.id, message.method, message.params, message.meta ?? {}, current);
        return;
      case 'sub': {
        const topic = options.topics?.[message.topic];
        if (!topic || !Object.hasOwn(options.topics!, message.topic)) {
          log(`dropped a subscription to unknown topic ${message.topic}`);
          return;
        }
        topicStops.get(message.sid)?.();
        const source = port;
        const push = (value: unknown): void => {
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

  const answer = (id: number, method: string, params: unknown, meta: unknown, caller: HostInfo): void => {
    const source = port;
    // A reply to a host that has since reconnected would reach nobody who asked.
    const ok = (value: unknown): void => {
      if (port === source) post({ t: 'ok', id, value });
    };
    const fail = (error: unknown): void => {
      log(`call #${id} ${method} failed`, error);
      if (port === source) post({ t: 'err', id, error: serializeError(error) });
    };
    try {
      const handler = Object.hasOwn(methods, method) ? methods[method] : undefined;
      if (!handler) {
        throw new VideoPluginError(
          'bad_request',
          `The service does not know the method ${method}. Update video-plugin or the service.`,
        );
      }
      const value = handler(params, meta as Unchecked<CallMeta>, caller);
      // Answer a plain value in this task; wait only for a promise.
      if (typeof (value as PromiseLike<unknown> | undefined)?.then === 'function') {
        (value as PromiseLike<unknown>).then(ok, fail);
      } else ok(value);
    } catch (error) {
      fail(error);
    }
  };

  const onWindowMessage = async (event: MessageEvent): Promise<void> => {
    if (!frame || event.source !== window.parent || event.source === window) return;
    const data: unknown = event.data;
    if (typeof data !== 'object' || data === null || (data as Record<string, unknown>)[HANDSHAKE_KEY] !== 'connect')
      return;
    const connect = valid(connectSchema, data);
    const offered = event.ports[0];
    if (connect?.channel !== frame.channel || connect.v !== PROTOCOL_VERSION || !offered) {
      log('dropped an invalid connect message', data);
      return;
    }
    // The host connects once per page load, in answer to our one hello: a second connect (any
    // script of the parent page can read the channel) must not take the connection over.
    if (handshaken) {
      log(`refused a second connect from ${event.origin}`);
      offered.postMessage({ t: 'refused', error: SECOND_CONNECT } satisfies ServiceMessage);
      offered.close();
      return;
    }
    handshaken = true;
    const refusal = await options.checkOrigin?.(event.origin, connect);
    if (refusal) {
      log(`refused host origin ${event.origin}`, refusal);
      offered.postMessage({ t: 'refused', error: refusal } satisfies ServiceMessage);
      offered.close();
      return;
    }
    closePort();
    port = offered;
    host = { origin: event.origin, config: connect.config, sdk: connect.sdk, channel: frame.channel };
    port.onmessage = onPortMessage;
    post({ t: 'ready', info: options.info?.() });
    log(`connected to host ${event.origin}`);
    options.onConnect?.(host);
  };

  // Say goodbye as soon as the page starts to leave: Firefox and WebKit abort the page's requests
  // before `pagehide`, and a call whose request was aborted must reach the host as interrupted (it
  // may have taken effect), not as a network failure. Nothing is answered after the goodbye.
  const onLeave = (): void => {
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
