/**
 * `GET /api/partner/events?after=<cursor>&limit=N`: the partner's event log, for its back end only
 * (authenticated with a token signed by its webhook secret, auth/events-token.ts). Every webhook
 * event of the last 30 days, oldest first, the same IDs as the webhooks, in a stable order: the
 * same cursor always gives the same following events. Its cursors are sealed for the partner
 * (store/events.ts): another partner's is refused.
 */
import { EVENTS_PAGE_LIMIT, InvalidParameterError } from 'video-plugin/internal';
import { verifyEventsToken } from '../../auth/events-token.js';
import { bearer, type Handler } from './request.js';

export const listPartnerEvents: Handler = async ({ req, url, ctx }) => {
  const partner = await verifyEventsToken(bearer(req), ctx.config.partners);
  const text = url.searchParams.get('after');
  const opened = text === null ? { seq: 0 } : ctx.store.eventCursors.read(partner.id, text);
  if ('problem' in opened) {
    throw new InvalidParameterError(
      opened.problem === 'foreign'
        ? `GET /api/partner/events: "after" is not a cursor of partner ${partner.id}'s event log (each cursor is given to one partner, and refused from any other). Give the "cursor" of one of your own pages, or leave it out to start from the oldest event.`
        : `GET /api/partner/events: "after" must be a cursor the event log gave (the "cursor" of a page), or be left out to start from the oldest event.`,
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
  const page = ctx.store.events(partner.id, opened.seq, limit);
  const cursor = ctx.store.eventCursors.cursor(partner.id, page.cursor);
  return { status: 200, body: { events: page.events, cursor, hasMore: page.hasMore } };
};
