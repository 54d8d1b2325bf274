/**
 * The two ways a diagnosis asks the service: its `GET /api/diagnose` endpoint (CORS, from the
 * page), and a trial of the real handshake — a hidden service frame connected by the SDK's own
 * `HostConnection`, whose debug lines are kept (what `isDebug` would print), then asked what only
 * the frame can see (its storage, its referrer).
 */
import { LOG_PREFIX } from '../debug.js';
import type { SerializedError } from '../errors.js';
import { VERSION } from '../version.js';
import type { FrameDiagnosis, HostConfig, Methods } from '../wire/api.js';
import { HELLO_GRACE_MS, HostConnection } from '../wire/host.js';
import { HANDSHAKE_KEY, PROTOCOL_VERSION, frameHash } from '../wire/protocol.js';

/** What `GET /api/diagnose` answers (docs/service.md). */
export interface ServiceAnswer {
  service: string;
  version: string;
  protocolVersion: number;
  partnerID: string;
  origin: string | null;
  originAllowed: boolean | null;
  frameAncestors: string[];
  pluginURL: string;
}

export type Probe =
  | { kind: 'answered'; answer: ServiceAnswer }
  /** The service answered with an error (e.g. 404 `partner_not_found`). */
  | { kind: 'refused'; status: number; error: SerializedError }
  /** No readable answer: the service is down, or has no such endpoint (no CORS), or is not one. */
  | { kind: 'unreachable'; why: string }
  /** Not asked: the page's CSP `connect-src` would block it (and report a violation). */
  | { kind: 'skipped' };

/** Asks the service's diagnose endpoint; never throws. */
export async function probeService(endpoint: URL, signal: AbortSignal): Promise<Probe> {
  let response: Response;
  try {
    response = await fetch(endpoint, { mode: 'cors', credentials: 'omit', cache: 'no-store', signal });
  } catch (error) {
    return { kind: 'unreachable', why: String(error) };
  }
  const body = (await response.json().catch(() => undefined)) as
    (ServiceAnswer & { error?: SerializedError }) | undefined;
  if (!body || typeof body !== 'object') {
    return { kind: 'unreachable', why: `it answered ${response.status} without JSON: not a video-plugin service?` };
  }
  if (!response.ok || body.error) {
    return {
      kind: 'refused',
      status: response.status,
      error: body.error ?? { code: 'internal_error', message: `The service answered ${response.status}.` },
    };
  }
  return { kind: 'answered', answer: body };
}

export type Trial =
  | { kind: 'connected'; ms: number; frame: FrameDiagnosis | undefined; frameError?: SerializedError }
  /** The service page answered the handshake with a refusal (origin, partner, configuration…). */
  | { kind: 'refused'; error: SerializedError }
  /**
   * No handshake: the frame never said hello, or said it in another protocol version. `error` is
   * what the Plugin would reject with: its own explanation from the service's answer where there is
   * one (an unknown partner, an origin not allowed, nothing listening), else a `connection_failed`.
   */
  | { kind: 'silent'; loaded: boolean; error: SerializedError }
  /** Not tried: the page's CSP `frame-src` blocks the frame (and would report a violation). */
  | { kind: 'skipped' };

export interface TrialResult {
  trial: Trial;
  /** Every `hello` the frame posted: its origin and protocol version, whether or not accepted. */
  hellos: { origin: string; v: unknown }[];
  /** The lines `isDebug: true` would have printed for this connection. */
  debugLog: string[];
}

export interface TrialOptions {
  base: URL;
  partnerID: string;
  authMode: 'jwt' | 'uncontrolled';
  /** Limit for the whole handshake. */
  timeout: number;
  /** How long to wait for a hello once the frame has loaded (its script runs before `load`). */
  afterLoad: number;
  /**
   * The service's diagnose endpoint for this partner, asked by the connection as the `Plugin` asks
   * it when its frame stays silent (none when this page's CSP would refuse the request).
   */
  explain: URL | undefined;
  /**
   * Resolves true when the service's answer already says the browser stops the frame for a reason
   * the service does not explain (its frame-ancestors refuse a page above this one, or this one):
   * then a frame that loaded without a hello is silent after the grace, not after `afterLoad`.
   */
  stopped: Promise<boolean>;
}

/** A detail of a debug line as the console would show it, in one line. */
function show(detail: unknown): string {
  if (typeof detail === 'string') return detail;
  try {
    return JSON.stringify(detail, (_key, value: unknown) => (value instanceof MessagePort ? '[MessagePort]' : value));
  } catch {
    return String(detail);
  }
}

/** Connects a hidden service frame as the `Plugin` does, then asks it `diagnose`; never throws. */
export async function tryHandshake(options: TrialOptions): Promise<TrialResult> {
  const debugLog: string[] = [];
  const hellos: TrialResult['hellos'] = [];
  const channel = crypto.randomUUID();
  const src = new URL('./plugin', options.base);
  src.searchParams.set('partner', options.partnerID);
  src.hash = frameHash(channel);
  const iframe = document.createElement('iframe');
  iframe.title = 'video-plugin diagnose (hidden)';
  iframe.style.cssText = 'display:none';
  const config: HostConfig = { partnerID: options.partnerID, authMode: options.authMode, isDebug: false };
  const onHello = (event: MessageEvent): void => {
    const data = event.data as Record<string, unknown> | null;
    if (event.source === iframe.contentWindow && data?.[HANDSHAKE_KEY] === 'hello') {
      hellos.push({ origin: event.origin, v: data.v });
    }
  };
  addEventListener('message', onHello);
  let loaded = false;
  let capturing = true;
  const started = performance.now();
  let afterLoadTimer: ReturnType<typeof setTimeout> | undefined;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  const connection = new HostConnection<Methods>({
    iframe,
    serviceOrigin: options.base.origin,
    channel,
    sdkVersion: VERSION,
    config: () => config,
    connectTimeout: options.timeout,
    explain: options.explain,
    // What a Plugin would print, up to its own line for the connection (not the diagnose call).
    log: (message, ...details) => {
      if (capturing) debugLog.push([LOG_PREFIX, message, ...details.map(show)].join(' '));
    },
    onConnected: () => {
      debugLog.push(`${LOG_PREFIX} connected ${Math.round(performance.now() - started)} ms`);
      capturing = false;
    },
  });
  // A frame that loaded and said nothing will say nothing: do not wait for the whole limit. (One
  // that said hello in our protocol is in its handshake, which has the connection's own limit.)
  // Where it is known that none will come, the Plugin's grace is enough: the frame said hello in
  // another protocol or from another origin (a page says it once, before its load), or the
  // service's answer says the browser stopped the frame.
  const ours = (hello: TrialResult['hellos'][number]) =>
    hello.v === PROTOCOL_VERSION && hello.origin === options.base.origin;
  const silentAfterLoad = new Promise<void>((resolve) => {
    const silent = (): void => {
      if (!hellos.some(ours)) resolve();
    };
    iframe.addEventListener('load', () => {
      loaded = true;
      clearTimeout(afterLoadTimer);
      clearTimeout(graceTimer);
      afterLoadTimer = setTimeout(silent, options.afterLoad);
      graceTimer = setTimeout(() => {
        if (hellos.length > 0) silent();
        else void options.stopped.then((stopped) => stopped && silent());
      }, HELLO_GRACE_MS);
    });
  });
  document.body.append(iframe);
  iframe.src = src.href;
  try {
    const outcome = await Promise.race([
      connection.whenConnected().then(
        () => 'connected' as const,
        (error: unknown) => error,
      ),
      silentAfterLoad.then(() => 'silent' as const),
    ]);
    if (outcome === 'connected') {
      const ms = Math.round(performance.now() - started);
      try {
        const frame = await connection.call('diagnose', undefined, { timeout: options.timeout });
        return { trial: { kind: 'connected', ms, frame }, hellos, debugLog };
      } catch (error) {
        // A service page from before `diagnose` existed: connected all the same.
        return { trial: { kind: 'connected', ms, frame: undefined, frameError: plain(error) }, hellos, debugLog };
      }
    }
    // Refused in the handshake; without a hello of ours, the refusal is the service's explanation
    // of a silent frame (the browser stopped it), as the Plugin gets it.
    if (outcome !== 'silent' && connection.state === 'refused' && hellos.some(ours)) {
      return { trial: { kind: 'refused', error: plain(outcome) }, hellos, debugLog };
    }
    const error =
      outcome === 'silent'
        ? {
            code: 'connection_failed',
            message: `The service frame ${src.origin}${src.pathname} loaded but did not say hello in protocol ${PROTOCOL_VERSION}.`,
          }
        : plain(outcome);
    return { trial: { kind: 'silent', loaded, error }, hellos, debugLog };
  } finally {
    clearTimeout(afterLoadTimer);
    clearTimeout(graceTimer);
    removeEventListener('message', onHello);
    connection.destroy();
    iframe.remove();
  }
}

function plain(error: unknown): SerializedError {
  const { code, message, data } = (error ?? {}) as Partial<SerializedError>;
  const known = { code: typeof code === 'string' ? code : 'internal_error', message: String(message ?? error) };
  return data ? { ...known, data } : known;
}
