/**
 * The service side of the wire: runs inside the service's iframe page. It announces the page to
 * its parent, accepts the host's port after checking the host origin, answers calls, pushes
 * events and subscription updates. See protocol.ts for the exchange.
 */
import type { Logger } from '../debug.js';
import { type SerializedError } from '../errors.js';
import { type ConnectMessage } from './protocol.js';
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
export type MethodHandler = (params: unknown, host: HostInfo) => unknown;
/** Starts pushing values for `key`; returns the function that stops. */
export type TopicHandler = (key: string, push: (value: unknown) => void, host: HostInfo) => () => void;
export interface ServeOptions {
  methods: Record<string, MethodHandler>;
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
/** Announces this page to its parent and serves the host that connects. */
export declare function serveHost(options: ServeOptions): ServiceEndpoint;
//# sourceMappingURL=service.d.ts.map
