// Issue 35: a source site that trickles its page a byte at a time, or stops sending and never ends.
// The topic search's fetch has one time budget for all of it (connection, redirects, headers and
// body: `fetchTimeoutMs`), not only an idle timeout that each trickled byte would reset: the search
// fails with `source_timeout` at `reading_page` once the budget is spent, the site's connection is
// closed, and the service's other jobs go on meanwhile.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import {
  EventStream,
  api,
  createAccount,
  serve,
  startTestService,
  statusesUntilFinal,
  within,
} from '../support/helpers.js';

const LIMIT_MS = 3000;
/** Connections of the slow pages still open on the site's side. */
const open = new Set<string>();
let allClosed: (() => void) | undefined;
const timers = new Set<NodeJS.Timeout>();
after(() => timers.forEach(clearInterval));
const source = await serve((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  if (req.url === '/page') return res.end('<title>A page that answers</title><p>Quickly.</p>');
  res.write('<!doctype html><html><head><title>');
  open.add(req.url!);
  res.once('close', () => {
    open.delete(req.url!);
    if (open.size === 0) allClosed?.();
  });
  // /trickle: one byte every 50 ms, forever; /stalled: nothing more, and no end.
  if (req.url === '/trickle') {
    const timer = setInterval(() => res.write('a'), 50);
    timers.add(timer);
    res.once('close', () => clearInterval(timer));
  }
});

/** What `stream` said of the topics so far, for a wait that gave up: each event's topic, status and stage. */
const told = (stream: EventStream) =>
  stream.events
    .filter((event) => event.event === 'topic')
    .map((event) => `${event.data.id} ${event.data.status} ${event.data.progress?.stage ?? ''}`)
    .join('; ');

// A wait that gives up names what the streams said (a hang here once held a CI run for 14 minutes).
const WAIT_MS = LIMIT_MS + 30_000;

test(
  'a page that trickles or never ends fails at reading_page within the fetch budget; other jobs go on',
  { timeout: 120_000 },
  async () => {
    const service = await startTestService({ jobMs: 60, fetchTimeoutMs: LIMIT_MS });
    const { session } = await createAccount(service);
    const stream = await EventStream.open(service, session);
    await stream.next((event) => event.event === 'ready');
    const search = async (path: string) =>
      (await api(service, 'POST', '/api/topics', { session, body: { sourceURL: `${source}${path}` } })).body
        .topicId as string;
    // Read before the searches start, so that a stall of this process between a search's start and
    // this line cannot make the budget look shorter than it was.
    const started = Date.now();
    const slow = { trickle: await search('/trickle'), stalled: await search('/stalled') };
    await within(
      stream.next(
        (event) => event.event === 'topic' && event.data.id === slow.trickle && event.data.status === 'PROCESSING',
      ),
      WAIT_MS,
      "the trickled page's search PROCESSING",
    ).catch((error: Error) => {
      throw new Error(`${error.message}; the stream said: ${told(stream)}`);
    });

    // Another account's search goes on while both slow pages are still being read (this account's
    // two search slots are both taken by them: docs/service.md "Limits").
    const other = await createAccount(service);
    const otherStream = await EventStream.open(service, other.session);
    await otherStream.next((event) => event.event === 'ready');
    const quick = (
      await api(service, 'POST', '/api/topics', { session: other.session, body: { sourceURL: `${source}/page` } })
    ).body.topicId as string;
    assert.equal((await statusesUntilFinal(otherStream, 'topic', (data) => data.id === quick)).at(-1), 'COMPLETE');
    assert.deepEqual([...open].sort(), ['/stalled', '/trickle'], 'both slow pages were still being read');

    // Both fail at their budget, in either order (the stream's next() skips what it passes, so each
    // failure is taken as it comes, not waited for in turn).
    const failures = new Map<string, Awaited<ReturnType<typeof stream.next>>>();
    const ids = Object.values(slow);
    while (failures.size < ids.length) {
      const failed = await within(
        stream.next(
          (event) =>
            event.event === 'topic' &&
            ids.includes(event.data.id) &&
            !failures.has(event.data.id) &&
            event.data.status === 'FAILED',
        ),
        WAIT_MS,
        'both slow searches FAILED',
      ).catch((error: Error) => {
        throw new Error(
          `${error.message}; the stream said: ${told(stream)}; still open at the site: ${[...open].join(', ')}`,
        );
      });
      failures.set(failed.data.id, failed);
    }
    for (const [path, id] of Object.entries(slow)) {
      const failed = failures.get(id)!;
      assert.equal(failed.data.error.code, 'source_timeout', path);
      assert.match(failed.data.error.message, new RegExp(`did not answer within ${LIMIT_MS} ms`), path);
      assert.equal(failed.data.progress.stage, 'reading_page', path);
    }
    const elapsed = Date.now() - started;
    // The budget, not an idle timeout (the trickle is never idle for 3 s); the upper bound only
    // detects a hang, generous for a busy machine.
    assert.ok(elapsed >= LIMIT_MS - 100, `failed after ${elapsed} ms, before the ${LIMIT_MS} ms budget`);
    assert.ok(elapsed < LIMIT_MS + 20_000, `failed after ${elapsed} ms`);
    // The service hung up on both sites.
    if (open.size > 0) {
      await within(
        new Promise<void>((resolve) => (allClosed = resolve)),
        WAIT_MS,
        `the service to hang up on ${[...open].join(', ')}`,
      );
    }
  },
);
