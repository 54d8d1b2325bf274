// The render queue is fair too (issue 41): with one render slot, an account whose preview waits
// behind another account's queue of previews is served by the next slot that frees, not after
// that whole queue (first come, first served, it went last). Real media: the queue only exists
// for real renders.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startService } from '../../src/server.js';
import { EventStream, PARTNER, SECRET, api, createAccount, serve, statusesUntilFinal } from '../support/helpers.js';

const source = await serve((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html><head><title>Harbor Lane Coffee</title></head>
    <body><h1>Roasted at dawn</h1><p>We roast twelve single-origin coffees in small batches.</p></body></html>`);
});

test(
  "an account's preview waiting behind another account's queue of previews gets the next render slot",
  { timeout: 300_000 },
  async (t) => {
    const service = await startService({
      port: 0,
      allowLoopbackSources: true,
      jobMs: 40,
      renderConcurrency: 1,
      partners: [{ id: PARTNER, secret: SECRET }],
    });
    t.after(() => service.close());
    /** An account with a COMPLETE topic, and its stream. */
    const ready = async (externalID: string) => {
      const { session } = await createAccount(service, { externalID });
      const stream = await EventStream.open(service, session);
      await stream.next((event) => event.event === 'ready');
      const { body } = await api(service, 'POST', '/api/topics', { session, body: { sourceURL: `${source}/` } });
      assert.equal((await statusesUntilFinal(stream, 'topic', (data) => data.id === body.topicId)).at(-1), 'COMPLETE');
      return { session, stream, topicId: body.topicId as string };
    };
    const busy = await ready('busy');
    const other = await ready('other');
    const generate = async ({ session, topicId }: { session: string; topicId: string }) =>
      (await api(service, 'POST', '/api/generations', { session, body: { topicId, aspectRatio: '16:9', duration: 5 } }))
        .body.requestId as string;
    // Three previews of one account, then one of another: each reaches the render queue jobMs after
    // it starts, while the first preview renders (seconds), so the other three all wait.
    const queued = [];
    for (let index = 0; index < 3; index++) queued.push(await generate(busy));
    const late = await generate(other);
    const finished: string[] = [];
    const watch = async (stream: EventStream, ids: string[], who: string) => {
      for (let left = ids.length; left > 0; left--) {
        const { data } = await stream.next(
          (event) =>
            event.event === 'generation' &&
            ids.includes(event.data.requestId) &&
            ['COMPLETE', 'FAILED'].includes(event.data.status),
        );
        assert.equal(data.status, 'COMPLETE', JSON.stringify(data.error));
        finished.push(who);
      }
    };
    await Promise.all([watch(busy.stream, queued, 'busy'), watch(other.stream, [late], 'other')]);
    // One slot: previews finish in the order they started.
    assert.deepEqual(finished, ['busy', 'other', 'busy', 'busy']);
  },
);
