/**
 * `GET /api/partner/events?after=<cursor>&limit=N`: the partner's event log, for its back end only
 * (authenticated with a token signed by its webhook secret, auth/events-token.ts). Every webhook
 * event of the last 30 days, oldest first, the same IDs as the webhooks, in a stable order: the
 * same cursor always gives the same following events.
 */
import { EVENTS_PAGE_LIMIT, InvalidParameterError } from 'video-plugin/internal';
import { verifyEventsToken } from '../../auth/events-token.js';
import { bearer, type Handler } from './request.js';

/** A cursor: the sequence number of the last event of a page, as the service wrote it. */
const CURSOR = /^(0|[1-9]\d{0,14})$/;

export const listPartnerEvents: Handler = async ({ req, url, ctx }) => {
  const partner = await verifyEventsToken(bearer(req), ctx.config.partners);
  const after = url.searchParams.get('after') ?? '0';
  if (!CURSOR.test(after)) {
    throw new InvalidParameterError(
      `GET /api/partner/events: "after" must be a cursor the event log gave (the "cursor" of a page), or be left out to start from the oldest event.`,
      { field: 'after' },
    );
  }
  const limitText = url.searchParams.get('limit') ?? String(EVENTS_PAGE_LIMIT);
  const limit = /^\d{1,3}$/.test(limitText) ? Number(limitText) : NaN;
  if (!(limit >= 1 && limit <= EVENTS_PAGE_LIMIT)) {
    throw new InvalidParameterError(
      `GET /api/partner/events: "limit" must be a whole number from 1 to ${EVENTS_PAGE_LIMIT} (got ${JSON.stringify(limitText)}).`,
      { field: 'limit' },
    );
  }
  const page = ctx.store.events(partner.id, Number(after), limit);
  return { status: 200, body: { events: page.events, cursor: String(page.cursor), hasMore: page.hasMore } };
};
