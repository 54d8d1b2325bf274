// Shared helpers of the service tests: start a service on a free loopback port, call its API,
// read its status stream, and serve source pages for topic searches.
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';
import { createAccountToken, loginAccountToken } from '../../../../src/server/index.js';
import { sign as signEventsToken } from '../../../../src/server/events.js';
import { startService, type RunningService, type ServiceOptions } from '../../src/server.js';

export const PARTNER = 'test-partner';
export const SECRET = 'test-partner-secret-0123456789abcdef';
/** The test partner's webhook secret: signs its webhooks and reads its event log, never its tokens. */
export const WEBHOOK_SECRET = 'test-partner-webhook-secret-0123456789abcdef';
/** A second partner, for tests of what one partner's accounts cannot reach of another's. */
export const OTHER = 'other-partner';
export const OTHER_SECRET = 'other-partner-secret-0123456789abcdef';
export const TWO_PARTNERS = [
  { id: PARTNER, secret: SECRET },
  { id: OTHER, secret: OTHER_SECRET },
];

/**
 * The headers of a call from a partner's back end (the event log, the webhook kit, the test
 * controls): an events token signed with its webhook secret, as `video-plugin/server` signs it.
 */
export async function backEnd(partnerID = PARTNER, secret = WEBHOOK_SECRET): Promise<Record<string, string>> {
  return { authorization: `Bearer ${await signEventsToken(partnerID, new TextEncoder().encode(secret))}` };
}

/**
 * Starts a service for this test file (closed after it) with one test partner and quick jobs. Its
 * searches may read the test sites, on loopback ({@link serve}); a test of the default gives
 * `allowLoopbackSources: false`.
 */
export async function startTestService(options: ServiceOptions = {}): Promise<RunningService> {
  const service = await startService({
    port: 0,
    jobMs: 60,
    allowLoopbackSources: true,
    // These suites test the API, not the media: instant SVG stand-ins (render.test.ts and
    // media.test.ts use real media).
    media: 'placeholder',
    partners: [{ id: PARTNER, secret: SECRET }],
    ...options,
  });
  after(() => service.close());
  return service;
}

export interface ApiResult {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  body: any;
  headers: Headers;
}

/** Calls the API: JSON in, JSON out. */
export async function api(
  service: RunningService,
  method: string,
  path: string,
  options: { body?: unknown; session?: string; headers?: Record<string, string>; raw?: string } = {},
): Promise<ApiResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.session) headers.authorization = `Bearer ${options.session}`;
  let payload: string | undefined = options.raw;
  if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  } else if (payload !== undefined) {
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${service.url}${path}`, { method, headers, body: payload });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

/** Creates an account (optionally with fields) and returns its session and account. */
export async function createAccount(
  service: RunningService,
  account: Record<string, string> = {},
  partnerID = PARTNER,
  secret = SECRET,
) {
  const token = await createAccountToken({ partnerID, secret, account });
  const result = await api(service, 'POST', '/api/accounts', { body: { token } });
  if (result.status !== 201) throw new Error(`createAccount failed: ${JSON.stringify(result.body)}`);
  return result.body as { session: string; account: { id: string; externalID?: string; [key: string]: unknown } };
}

/** Logs in by account ID or external ID. */
export async function login(service: RunningService, by: { accountID: string } | { externalID: string }) {
  const token = await loginAccountToken({ partnerID: PARTNER, secret: SECRET, ...by } as Parameters<
    typeof loginAccountToken
  >[0]);
  return api(service, 'POST', '/api/sessions', { body: { token } });
}

export interface StreamEvent {
  event: string;
  /** The event's `id:` line (the `ready` event's: the position to resume from), when it has one. */
  id?: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  data: any;
}

/** An open status stream whose events can be awaited one by one. */
export class EventStream {
  readonly events: StreamEvent[] = [];
  readonly comments: string[] = [];
  #read = 0;
  #waiters: (() => void)[] = [];
  #ended = false;
  readonly #abort = new AbortController();

  static async open(
    service: RunningService,
    session: string,
    query = '',
    headers: Record<string, string> = {},
  ): Promise<EventStream> {
    const stream = new EventStream();
    const response = await fetch(`${service.url}/api/events?${query}`, {
      headers: { ...headers, authorization: `Bearer ${session}` },
      signal: stream.#abort.signal,
    });
    if (response.status !== 200 || !response.body) {
      throw Object.assign(new Error(`stream refused: ${response.status}`), {
        status: response.status,
        body: await response.json(),
      });
    }
    void stream.#pump(response.body);
    after(() => stream.close());
    return stream;
  }

  async #pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          let id: string | undefined;
          const data: string[] = [];
          for (const line of frame.split('\n')) {
            if (line.startsWith(':')) this.comments.push(line);
            else if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('id: ')) id = line.slice(4);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length > 0)
            this.events.push({ event, ...(id === undefined ? {} : { id }), data: JSON.parse(data.join('\n')) });
          this.#wake();
        }
      }
    } catch {
      // aborted by close()
    }
    this.#ended = true;
    this.#wake();
  }

  #wake(): void {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }

  /** The next event (after the ones already taken) that satisfies `predicate`; earlier ones are skipped. */
  async next(predicate: (event: StreamEvent) => boolean = () => true): Promise<StreamEvent> {
    for (;;) {
      while (this.#read < this.events.length) {
        const event = this.events[this.#read++] as StreamEvent;
        if (predicate(event)) return event;
      }
      if (this.#ended) throw new Error('the stream ended');
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  /** Resolves with the next comment line (heartbeat) the server sends. */
  async nextComment(): Promise<string> {
    const seen = this.comments.length;
    while (this.comments.length === seen) {
      if (this.#ended) throw new Error('the stream ended');
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
    return this.comments[seen] as string;
  }

  /** Resolves when the server has ended the stream. */
  async ended(): Promise<void> {
    while (!this.#ended) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  close(): void {
    this.#abort.abort();
  }
}

/** Resolves with `promise`, or rejects naming `what` after `ms` (a deadline, never a sleep). */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Collects the successive distinct statuses of one record from a stream until a final one. */
export async function statusesUntilFinal(
  stream: EventStream,
  kind: string,
  matches: (data: StreamEvent['data']) => boolean,
): Promise<string[]> {
  const statuses: string[] = [];
  for (;;) {
    const { data } = await stream.next((event) => event.event === kind && matches(event.data));
    if (statuses.at(-1) !== data.status) statuses.push(data.status);
    if (data.status === 'COMPLETE' || data.status === 'FAILED') return statuses;
  }
}

/** Serves `handler` on a free loopback port for this test file; returns its origin. */
export async function serve(handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A port on which nothing listens (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
