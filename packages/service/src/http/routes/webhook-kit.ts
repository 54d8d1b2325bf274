/**
 * The webhook kit, for a partner's back end testing its receiver: a signed test event of a chosen
 * type on request, and the resend of a logged event by its ID. Both are authenticated as the event
 * log is (`GET /api/partner/events`: a short-lived token signed with the partner's webhook secret,
 * auth/events-token.ts), and both deliver through the outbox like any event (webhooks/webhooks.ts):
 * the same signing, retries and records, to the partner's own webhook URLs only.
 *
 * - `POST /api/partner/webhooks/test` `{ type }` → 202 `{ event, urls }`: a made-up event marked
 *   `test: true`, not in the event log (webhooks.ts says why).
 * - `POST /api/partner/events/:eventId/resend` → 202 `{ event, urls }`: the logged event again,
 *   the same `id` and payload, marked `redelivery: true`.
 */
import * as z from 'zod/mini';
import {
  InvalidParameterError,
  NotFoundError,
  WEBHOOK_EVENT_TYPES,
  strictObject,
  type WebhookEventType,
} from 'video-plugin/internal';
import { verifyEventsToken } from '../../auth/events-token.js';
import type { Partner } from '../../config.js';
import { HttpError } from '../reply.js';
import { bearer, body, type Handler } from './request.js';

const TEST_ROUTE = 'POST /api/partner/webhooks/test';
const TestEventSchema = strictObject({ type: z.string() });

export const sendTestEvent: Handler = async (request) => {
  const { req, ctx } = request;
  const partner = await verifyEventsToken(bearer(req), ctx.config.partners);
  const { type } = await body(request, TestEventSchema);
  if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type)) {
    throw new InvalidParameterError(
      `${TEST_ROUTE}: "type" must be one of ${WEBHOOK_EVENT_TYPES.map((name) => `"${name}"`).join(', ')} (got ${JSON.stringify(type).slice(0, 80)}).`,
      { field: 'type', allowed: [...WEBHOOK_EVENT_TYPES] },
    );
  }
  requireWebhookURLs(partner, TEST_ROUTE);
  const event = ctx.webhooks.sendTest(partner, type as WebhookEventType);
  return { status: 202, body: { event, urls: [...partner.webhookURLs] } };
};

export const resendEvent: Handler = async ({ req, params, ctx }) => {
  const partner = await verifyEventsToken(bearer(req), ctx.config.partners);
  const eventID = params.eventId ?? '';
  // Another partner's event is not found either: its existence is not this partner's to learn.
  const event = ctx.store.findEvent(partner.id, eventID);
  if (!event) {
    throw new NotFoundError(
      'not_found',
      `Partner "${partner.id}" has no event "${eventID}" in its event log. Use the id of an event listed by GET /api/partner/events (listEvents) in the last 30 days; test events are not logged, so they cannot be resent.`,
      { eventID },
    );
  }
  requireWebhookURLs(partner, `POST /api/partner/events/${eventID}/resend`);
  const again = ctx.webhooks.resend(partner, event);
  return { status: 202, body: { event: again, urls: [...partner.webhookURLs] } };
};

/** @throws {HttpError} 409 `invalid_state` when the partner has no webhook URL to deliver to. */
function requireWebhookURLs(partner: Partner, route: string): void {
  if (partner.webhookURLs.length > 0) return;
  throw new HttpError(
    409,
    'invalid_state',
    `${route}: partner "${partner.id}" has no webhook URL, so there is nowhere to deliver to. Configure one (the local service: --webhook-url, partners[].webhookURLs) and try again.`,
    { partnerID: partner.id, field: 'webhookURLs' },
  );
}
