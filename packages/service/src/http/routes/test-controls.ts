/**
 * The test channel of a partner's back end (docs/service.md, "Test controls"): forced outcomes
 * (`POST`/`DELETE /api/test/outcomes`, with `--test-controls`) and the step clock (`POST
 * /api/test/clock/advance`, with `--clock manual`). Authenticated like the event log: a bearer
 * token signed with the partner's webhook secret (auth/events-token.ts), so that only the partner's
 * server, never a page or its users, reaches them; each acts on the caller's partner only.
 *
 * Refused first, before any authentication, when the control is off: 403 `test_controls_off`
 * naming the flag that turns it on.
 */
import * as z from 'zod/mini';
import { strictObject } from 'video-plugin/internal';
import { verifyEventsToken } from '../../auth/events-token.js';
import { advanceStepClock, requireStepClock } from '../../jobs/clock.js';
import { bearer, body, type Handler } from './request.js';

/** `POST /api/test/outcomes`: queues an outcome for the partner's next job of a kind. */
export const forceOutcome: Handler = async (request) => {
  const { req, url, ctx } = request;
  ctx.controls.requireEnabled();
  const partner = await verifyEventsToken(bearer(req), ctx.config.partners);
  // The body's fields are checked by the controls (one set of rules for both channels).
  const queued = ctx.controls.force(partner.id, await body(request, z.unknown()), `POST ${url.pathname}: body`);
  return { status: 201, body: { queued } };
};

/** `DELETE /api/test/outcomes`: clears the partner's queued outcomes and lets its stalled jobs go on. */
export const releaseOutcomes: Handler = async ({ req, ctx }) => {
  ctx.controls.requireEnabled();
  const partner = await verifyEventsToken(bearer(req), ctx.config.partners);
  return { status: 200, body: await ctx.controls.release(partner.id) };
};

const AdvanceSchema = strictObject({ ms: z.unknown() });

/** `POST /api/test/clock/advance`: moves the partner's step clock `ms` forward. */
export const advanceClock: Handler = async (request) => {
  const { req, url, ctx } = request;
  const clock = requireStepClock(ctx.stepClock);
  const partner = await verifyEventsToken(bearer(req), ctx.config.partners);
  const { ms } = await body(request, AdvanceSchema);
  const context = `POST ${url.pathname}: body`;
  const { released } = await advanceStepClock(clock, ms, partner.id, ctx.config.partners, context);
  return { status: 200, body: { released, waiting: clock.waiting(partner.id) } };
};
