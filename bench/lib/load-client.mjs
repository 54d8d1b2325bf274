// bench/load.mjs's client of the HTTP API, as a partner's page and back end use it: calls, new
// accounts, SSE status streams, completed topic searches and downloads dropped after their first bytes.
/* global fetch, AbortController */
import { request } from 'node:http';
import { readEvents } from '../sse.mjs';

export const FINAL = ['COMPLETE', 'FAILED'];
export const RANK = { PENDING: 0, PROCESSING: 1, COMPLETE: 2, FAILED: 2 };

/**
 * The client of the service at `base`, for `partner` (its tokens signed with `secret` by
 * `createAccountToken`); its topic searches read `source`.
 */
export function client({ base, partner, secret, source, createAccountToken }) {
  async function api(method, path, { session, body } = {}) {
    const headers = {};
    if (session) headers.authorization = `Bearer ${session}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  async function newAccount() {
    const token = await createAccountToken({ partnerID: partner, secret, account: {} });
    const { status, body } = await api('POST', '/api/accounts', { body: { token } });
    if (status !== 201) throw new Error(`createAccount: ${status} ${JSON.stringify(body)}`);
    return body;
  }

  /** An SSE status stream: resolves `until(predicate)` with the first event that matches. */
  async function openStream(session) {
    const abort = new AbortController();
    const response = await fetch(`${base}/api/events`, {
      headers: { authorization: `Bearer ${session}` },
      signal: abort.signal,
    });
    const events = [];
    const waiters = new Set();
    const reading = readEvents(response.body, (event, data) => {
      const parsed = { event, data };
      if (handle.onEvent) handle.onEvent(parsed);
      else events.push(parsed);
      for (const waiter of waiters) waiter();
    });
    const handle = {
      /** When set, events go to it instead of being kept (the held-load phase's many subscribers). */
      onEvent: undefined,
      /** Resolves when the stream has ended (closed here or by the service). */
      ended: reading,
      events,
      close: () => abort.abort(),
      /** Resolves once `done(events)` is true; rejects after `ms`. */
      until(done, ms) {
        return new Promise((resolve, reject) => {
          const check = () => {
            if (!done(events)) return;
            waiters.delete(check);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(() => {
            waiters.delete(check);
            reject(new Error(`not done within ${ms} ms`));
          }, ms);
          waiters.add(check);
          check();
        });
      },
    };
    return handle;
  }

  async function completedTopic(session, stream) {
    const { body } = await api('POST', '/api/topics', { session, body: { sourceURL: source } });
    await stream.until(
      (events) =>
        events.some((e) => e.event === 'topic' && e.data.id === body.topicId && FINAL.includes(e.data.status)),
      60_000,
    );
    return body.topicId;
  }

  /** Starts a GET of `path` and destroys the connection after the first body bytes (a seeking player). */
  function abortedDownload(path, range) {
    return new Promise((resolve) => {
      const req = request(`${base}${path}`, { headers: range ? { range } : {}, agent: false }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve(res.statusCode);
        });
        res.once('end', () => resolve(res.statusCode));
      });
      req.on('error', () => resolve(0));
      req.end();
    });
  }

  return { api, newAccount, openStream, completedTopic, abortedDownload };
}
