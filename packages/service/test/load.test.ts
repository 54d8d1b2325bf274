// The service under 200 concurrent API requests on loopback: a shuffled mix (fixed seed) of account
// creations, logins, reads, foreign reads, topic searches, refused tokens and status streams from
// two partners' accounts. Every answer is checked for its own content (no answer mixed up with
// another request's), and afterwards everything the burst opened is gone: streams, store listeners,
// jobs, sockets, sessions. (Heap is not measured: `npm test` runs node without --expose-gc, so the
// counts of what the service holds stand in for it.)
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { test } from 'node:test';
import { createAccountToken, loginAccountToken } from '../../../src/server/index.js';
import {
  PARTNER,
  SECRET,
  serve,
  startTestService,
  type ApiResult,
  OTHER,
  OTHER_SECRET,
  TWO_PARTNERS,
} from './support/helpers.js';
import { mulberry32 } from '../../../test/support/random.js';

const SECRETS: Record<string, string> = { [PARTNER]: SECRET, [OTHER]: OTHER_SECRET };
const BURST = 200;

const service = await startTestService({
  jobMs: 40,
  partners: TWO_PARTNERS,
});
/** Source pages titled after their path, so that each topic shows which request made it. */
const source = await serve((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><title>Shop ${req.url}</title>`);
});

/** The burst's own connection pool: destroying it must leave the service with no socket open. */
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

function call(method: string, path: string, options: { session?: string; body?: unknown } = {}): Promise<ApiResult> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (options.session) headers.authorization = `Bearer ${options.session}`;
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    if (payload) headers['content-type'] = 'application/json';
    const req = request(`${service.url}${path}`, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined, headers: new Headers() });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

interface SseEvent {
  event: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  data: any;
}

/**
 * A status stream read through the burst's agent (fetch would keep its socket pooled after an
 * abort, and the socket count would not return until keep-alive expiry); `close()` drops the socket.
 */
function openStream(session: string, query = '') {
  const events: SseEvent[] = [];
  let wake = () => {};
  let failure: Error | undefined;
  let buffer = '';
  const req = request(`${service.url}/api/events?${query}`, { agent, headers: { authorization: `Bearer ${session}` } });
  req.on('response', (res) => {
    if (res.statusCode !== 200) failure = new Error(`stream refused: ${res.statusCode}`);
    res.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let end;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^data: (.*)$/m.exec(block)?.[1];
        const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
        if (data !== undefined) events.push({ event, data: JSON.parse(data) });
      }
      wake();
    });
  });
  req.on('error', (error) => {
    failure ??= error;
    wake();
  });
  req.end();
  let read = 0;
  return {
    events,
    /** The next event after the ones already taken that satisfies `predicate`. */
    async next(predicate: (event: SseEvent) => boolean): Promise<SseEvent> {
      for (;;) {
        while (read < events.length) {
          const event = events[read++] as SseEvent;
          if (predicate(event)) return event;
        }
        if (failure) throw failure;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    close: () => req.destroy(),
  };
}

/** Waits for a topic or generation to reach a final status on `stream`. */
function final(stream: ReturnType<typeof openStream>, kind: string, id: string) {
  return stream.next(
    (event) =>
      event.event === kind &&
      (event.data.id ?? event.data.requestId) === id &&
      ['COMPLETE', 'FAILED'].includes(event.data.status),
  );
}

/** Resolves once `check()` holds, yielding to I/O in between (the server sees sockets close a turn later). */
async function settles(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} did not return: ${JSON.stringify(service.stats())}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

interface Resident {
  partnerID: string;
  externalID: string;
  accountID: string;
  session: string;
  topicId: string;
  videoId: string;
}

/** An account of `partnerID` with a COMPLETE topic and a video, made through the API. */
async function resident(partnerID: string, index: number): Promise<Resident> {
  const externalID = `resident-${partnerID}-${index}`;
  const token = await createAccountToken({ partnerID, secret: SECRETS[partnerID] as string, account: { externalID } });
  const { account, session } = (await call('POST', '/api/accounts', { body: { token } })).body;
  const stream = openStream(session);
  await stream.next((event) => event.event === 'ready');
  const { topicId } = (await call('POST', '/api/topics', { session, body: { sourceURL: `${source}/${externalID}` } }))
    .body;
  await final(stream, 'topic', topicId);
  const { requestId, videoId } = (
    await call('POST', '/api/generations', { session, body: { topicId, aspectRatio: '16:9', duration: 5 } })
  ).body;
  await final(stream, 'generation', requestId);
  stream.close();
  return { partnerID, externalID, accountID: account.id, session, topicId, videoId };
}

test(`${BURST} concurrent API requests are all answered correctly, and leave nothing open behind`, async () => {
  const residents = await Promise.all(
    [PARTNER, OTHER].flatMap((partnerID) => [0, 1, 2, 3].map((index) => resident(partnerID, index))),
  );
  await settles(() => service.stats().streams === 0 && service.stats().jobs === 0, 'setup streams and jobs');
  const baseline = service.stats();
  // The service runs in this process: a warning it raises under load (e.g. a listener leak) shows here.
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  process.on('warning', onWarning);

  // Each request is a function that sends it and checks its answer; it returns what must be cleaned up.
  type Outcome = { session?: string; topic?: { resident: Resident; topicId: string; path: string } };
  const random = mulberry32(7);
  const pick = () => residents[Math.floor(random() * residents.length)] as Resident;
  const kinds: [count: number, make: (index: number) => () => Promise<Outcome>][] = [
    [
      30,
      (index) => {
        const partnerID = index % 2 ? OTHER : PARTNER;
        const externalID = `burst-${index}`;
        return async () => {
          const token = await createAccountToken({
            partnerID,
            secret: SECRETS[partnerID] as string,
            account: { externalID },
          });
          const result = await call('POST', '/api/accounts', { body: { token, partnerID } });
          assert.equal(result.status, 201, JSON.stringify(result.body));
          assert.equal(result.body.account.externalID, externalID);
          const read = await call('GET', '/api/account', { session: result.body.session });
          assert.equal(read.body.account.id, result.body.account.id);
          return { session: result.body.session };
        };
      },
    ],
    [
      30,
      () => {
        const who = pick();
        return async () => {
          const token = await loginAccountToken({
            partnerID: who.partnerID,
            secret: SECRETS[who.partnerID] as string,
            externalID: who.externalID,
          });
          const result = await call('POST', '/api/sessions', { body: { token } });
          assert.equal(result.status, 200, JSON.stringify(result.body));
          assert.equal(result.body.account.id, who.accountID);
          return { session: result.body.session };
        };
      },
    ],
    [
      30,
      () => {
        const who = pick();
        return async () => {
          const result = await call('GET', '/api/videos', { session: who.session });
          assert.deepEqual(
            result.body.videos.map((video: { id: string; name: string }) => [video.id, video.name]),
            [[who.videoId, `Shop /${who.externalID}`]],
          );
          return {};
        };
      },
    ],
    [
      30,
      (index) => {
        const who = pick();
        const target = index % 2 ? pick() : who;
        return async () => {
          const result = await call('GET', `/api/videos/${target.videoId}`, { session: who.session });
          if (target === who) assert.equal(result.body.video.id, who.videoId);
          else assert.equal(result.body.error.code, 'video_not_found');
          return {};
        };
      },
    ],
    [
      30,
      (index) => {
        const who = pick();
        const path = `/burst/${index}`;
        return async () => {
          const result = await call('POST', '/api/topics', {
            session: who.session,
            body: { sourceURL: source + path },
          });
          assert.equal(result.status, 202, JSON.stringify(result.body));
          assert.match(result.body.topicId, /^topic_/);
          return { topic: { resident: who, topicId: result.body.topicId, path } };
        };
      },
    ],
    [
      20,
      () => {
        const who = pick();
        return async () => {
          const result = await call('GET', '/api/account', { session: who.session });
          assert.equal(result.body.account.id, who.accountID);
          assert.equal(result.body.account.externalID, who.externalID);
          return {};
        };
      },
    ],
    [
      10,
      () => async () => {
        const token = await createAccountToken({
          partnerID: PARTNER,
          secret: 'not-the-secret-0123456789abcdef0123456789',
        });
        const result = await call('POST', '/api/accounts', { body: { token } });
        assert.equal(result.body.error.code, 'token_bad_signature');
        return {};
      },
    ],
    [
      20,
      () => {
        const who = pick();
        return async () => {
          const stream = openStream(who.session, `topic=${who.topicId}&video=${who.videoId}`);
          await stream.next((event) => event.event === 'ready');
          stream.close();
          assert.deepEqual(
            stream.events.map(({ event, data }) => [event, data.id]),
            [
              ['topic', who.topicId],
              ['video', who.videoId],
              ['ready', undefined],
            ],
          );
          return {};
        };
      },
    ],
  ];
  const requests = kinds.flatMap(([count, make]) => Array.from({ length: count }, (_, index) => make(index)));
  assert.equal(requests.length, BURST);
  for (let index = requests.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [requests[index], requests[other]] = [
      requests[other] as () => Promise<Outcome>,
      requests[index] as () => Promise<Outcome>,
    ];
  }

  const outcomes = await Promise.all(requests.map((send) => send()));
  // The requests really were in flight together: nearly one socket each (the 20 streams closed theirs).
  assert.ok(service.stats().connections >= BURST * 0.75, JSON.stringify(service.stats()));

  // Every topic search ran to COMPLETE under its own account, titled after its own source URL.
  const topics = outcomes.flatMap((outcome) => (outcome.topic ? [outcome.topic] : []));
  for (const who of residents) {
    const mine = topics.filter((topic) => topic.resident === who);
    if (mine.length === 0) continue;
    const stream = openStream(who.session, mine.map((topic) => `topic=${topic.topicId}`).join('&'));
    for (const topic of mine) {
      await final(stream, 'topic', topic.topicId);
      const read = await call('GET', `/api/topics/${topic.topicId}`, { session: who.session });
      assert.equal(read.body.topic.status, 'COMPLETE');
      assert.equal(read.body.topic.title, `Shop ${topic.path}`);
    }
    stream.close();
  }

  // Log out every session the burst opened.
  const sessions = outcomes.flatMap((outcome) => (outcome.session ? [outcome.session] : []));
  await Promise.all(sessions.map((session) => call('DELETE', '/api/sessions/current', { session })));
  agent.destroy();

  await settles(() => {
    const now = service.stats();
    // The stream hub's own listener (it keeps recent changes for replay) is part of the baseline.
    return now.streams === 0 && now.listeners === baseline.listeners && now.jobs === 0 && now.connections === 0;
  }, 'streams, listeners, jobs and sockets');
  const after = service.stats();
  assert.equal(after.sessions, baseline.sessions);
  assert.equal(after.accounts, baseline.accounts + 30);
  assert.equal(after.topics, baseline.topics + 30);
  assert.equal(after.videos, baseline.videos);
  assert.equal(after.usedJtis, baseline.usedJtis + 60, 'one jti per accepted token, none for refused ones');
  process.off('warning', onWarning);
  assert.deepEqual(warnings, []);
});
