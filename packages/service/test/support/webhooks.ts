// What the webhook suites share (webhooks/webhooks.test.ts, webhooks/event-log.test.ts): a real
// receiver on 127.0.0.1 that keeps every post and wakes the tests waiting for posts, and a service
// whose test partner posts its webhooks to given URLs.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { PARTNER, SECRET, WEBHOOK_SECRET, serve, startTestService } from './helpers.js';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A receiver: every post is kept in `received` (in the order they arrived) and answered by
 * `answer` (which may also never answer). `arrived(check)` resolves once `check()` holds, checked
 * again at each post after `answer` ran: a wait for posts, not a poll.
 */
export async function webhookReceiver(answer: (post: Received, res: ServerResponse) => void) {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const origin = await serve((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const post = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(post);
      answer(post, res);
      for (const wake of waiters.splice(0)) wake();
    });
  });
  async function arrived(check: () => boolean): Promise<void> {
    while (!check()) await new Promise<void>((wake) => waiters.push(wake));
  }
  return { origin, received, arrived };
}

/** A service whose test partner posts its webhooks to `urls`, retrying quickly (10 ms, doubling). */
export function webhookService(urls: string[], options: Parameters<typeof startTestService>[0] = {}) {
  return startTestService({
    webhookRetryMs: 10,
    partners: [{ id: PARTNER, secret: SECRET, webhookSecrets: [WEBHOOK_SECRET], webhookURLs: urls }],
    ...options,
  });
}
