/**
 * The JSON API under `/api/` that the plugin's pages call (documented in docs/service.md). Every
 * handler validates its input with a zod/mini schema, works on the caller's own records only, and
 * answers JSON; errors become `{ error: { code, message, data? } }` with a matching status. This module
 * is the routing table; the handlers are in `routes/`, one file per resource.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NotFoundError } from 'video-plugin/internal';
import { HttpError, sendJson } from './reply.js';
import { createAccount, getAccount, signIn, updateAccount } from './routes/accounts.js';
import { diagnose, health, originCheck } from './routes/diagnose.js';
import { changes, events } from './routes/events.js';
import { getGeneration, startGeneration } from './routes/generations.js';
import type { ApiContext, Handler } from './routes/request.js';
import { login, logout } from './routes/sessions.js';
import { listPartnerEvents } from './routes/partner-events.js';
import { advanceClock, forceOutcome, releaseOutcomes } from './routes/test-controls.js';
import { resendEvent, sendTestEvent } from './routes/webhook-kit.js';
import { createSandbox, resetSandbox } from './routes/sandboxes.js';
import { getTopic, listTopics, startTopicSearch } from './routes/topics.js';
import { completeVideo, getStoryboard, getVideo, listVideos, renameVideo } from './routes/videos.js';

export type { ApiContext } from './routes/request.js';
export { MAX_URL_LENGTH } from './routes/topics.js';

/** The API's routes: method, path pattern (`:name` matches one segment), handler. */
const ROUTES: [method: string, pattern: string, handler: Handler][] = [
  ['GET', '/api/health', health],
  ['GET', '/api/partners/:partnerID/origin-check', originCheck],
  ['GET', '/api/diagnose', diagnose],
  ['POST', '/api/partners/:partnerID/sign-in', signIn],
  ['POST', '/api/accounts', createAccount],
  ['POST', '/api/sessions', login],
  ['DELETE', '/api/sessions/current', logout],
  ['GET', '/api/account', getAccount],
  ['PATCH', '/api/account', updateAccount],
  ['GET', '/api/videos', listVideos],
  ['GET', '/api/videos/:videoId', getVideo],
  ['PATCH', '/api/videos/:videoId', renameVideo],
  ['GET', '/api/videos/:videoId/storyboard', getStoryboard],
  ['POST', '/api/videos/:videoId/complete', completeVideo],
  ['POST', '/api/topics', startTopicSearch],
  ['GET', '/api/topics', listTopics],
  ['GET', '/api/topics/:topicId', getTopic],
  ['POST', '/api/generations', startGeneration],
  ['GET', '/api/generations/:requestId', getGeneration],
  ['GET', '/api/events', events],
  ['GET', '/api/changes', changes],
  ['GET', '/api/partner/events', listPartnerEvents],
  ['POST', '/api/test/outcomes', forceOutcome],
  ['DELETE', '/api/test/outcomes', releaseOutcomes],
  ['POST', '/api/test/clock/advance', advanceClock],
  ['POST', '/api/partner/events/:eventId/resend', resendEvent],
  ['POST', '/api/partner/webhooks/test', sendTestEvent],
  ['POST', '/api/sandboxes', createSandbox],
  ['DELETE', '/api/sandboxes/:partnerID', resetSandbox],
];

function match(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const have = path.split('/');
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, segment] of want.entries()) {
    const actual = have[index] as string;
    if (segment.startsWith(':')) {
      if (actual === '') return undefined;
      try {
        params[segment.slice(1)] = decodeURIComponent(actual);
      } catch {
        return undefined;
      }
    } else if (segment !== actual) {
      return undefined;
    }
  }
  return params;
}

/** Answers one `/api/` request. Throws API errors; the server turns them into JSON. */
export async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL, ctx: ApiContext): Promise<void> {
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/$/, '') : url.pathname;
  const allowed: string[] = [];
  for (const [method, pattern, handler] of ROUTES) {
    const params = match(pattern, path);
    if (!params) continue;
    if (method !== req.method) {
      allowed.push(method);
      continue;
    }
    const reply = await handler({ req, res, url, params, ctx });
    if (reply) sendJson(res, reply.status, reply.body);
    return;
  }
  if (allowed.length > 0) {
    res.setHeader('allow', allowed.join(', '));
    throw new HttpError(405, 'bad_request', `${req.method} is not supported on ${path}; use ${allowed.join(' or ')}.`);
  }
  throw new NotFoundError(`There is no API route ${req.method} ${path}. See docs/service.md for the routes.`);
}
