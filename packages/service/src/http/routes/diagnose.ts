/** The service's own checks: health, a partner's origin check, and `diagnose()`'s report. */
import {
  InvalidParameterError,
  OriginNotAllowedError,
  VERSION,
  PROTOCOL_VERSION,
  serializeError,
  type SerializedError,
} from 'video-plugin/internal';
import { AUTH_MODES, type AuthMode, type Partner } from '../../config.js';
import { frameAncestorSources, isOriginAllowed } from '../../origins.js';
import { partnerOf, requireAuthMode, type Handler } from './request.js';

/**
 * What the studio's handshake refuses a page of `origin` with, for `partnerID`: the error the SDK
 * rebuilds as an `OriginNotAllowedError`, with the fix. Its one author: the origin check sends it
 * to the studio page, which hands it on, and diagnose sends it to the partner's page.
 */
export const originRefusal = (origin: string, partnerID: string): SerializedError =>
  serializeError(
    new OriginNotAllowedError(
      `The page origin ${origin} is not allowed for partner ${partnerID}. Add it to the partner's allowed origins (the local service: --allowed-origin ${origin}).`,
      { origin, partnerID },
    ),
  );

/** `GET /api/health`: a developer's own service lists its partners; a shared one never does. */
export const health: Handler = ({ ctx }) => ({
  status: 200,
  body: {
    status: 'ok',
    ...(ctx.config.shared ? {} : { partners: ctx.config.partners.configured().map(({ id }) => id) }),
    jobMs: ctx.config.jobMs,
  },
});

export const originCheck: Handler = (request) => {
  const partner = partnerOf(request);
  const origin = request.url.searchParams.get('origin');
  if (!origin) {
    throw new InvalidParameterError(
      'GET origin-check: give the page origin as ?origin=, e.g. ?origin=https://shop.example.',
      { field: 'origin' },
    );
  }
  const allowed = isOriginAllowed(partner.allowedOrigins, origin);
  // The studio's handshake also asks for the host's authMode: one the partner did not enable is
  // refused here (403 account_methods_disabled), and the page refuses the handshake with it.
  const authMode = request.url.searchParams.get('authMode');
  if (allowed && authMode !== null) {
    if (!(AUTH_MODES as readonly string[]).includes(authMode)) {
      throw new InvalidParameterError(
        `GET origin-check: ?authMode= must be ${AUTH_MODES.join(' or ')} (got "${authMode}").`,
        { field: 'authMode' },
      );
    }
    requireAuthMode(partner, authMode as AuthMode);
  }
  return { status: 200, body: allowed ? { allowed } : { allowed, refusal: originRefusal(origin, partner.id) } };
};

/**
 * `GET /api/diagnose?partnerID=`: what `diagnose()` (video-plugin/diagnose) asks from the partner's
 * page, with CORS so that any page may read it. It says whether the request's `Origin` (the page
 * that asks; `?origin=` only when there is no such header, for curl) is allowed for the partner,
 * the `frame-ancestors` the plugin page is sent with, and the versions. Nothing secret: no allowed
 * origins of the partner beyond what the plugin page's own header shows to anyone. An unknown
 * partner is answered 200 with `error` (`partner_not_found`, naming the partners a developer's own
 * service knows, never those of a shared one), so that a page that asks shows no failed request in
 * its console.
 */
export const diagnose: Handler = (request) => {
  const { req, res, url, ctx } = request;
  // Also on errors: the page must be able to read why.
  res.setHeader('access-control-allow-origin', '*');
  res.setHeader('vary', 'Origin');
  const partnerID = url.searchParams.get('partnerID');
  if (!partnerID) {
    throw new InvalidParameterError(
      'GET /api/diagnose: give the partner ID as ?partnerID=, e.g. ?partnerID=demo-partner.',
      { field: 'partnerID' },
    );
  }
  let partner: Partner;
  try {
    partner = partnerOf({ ...request, params: { partnerID } });
  } catch (error) {
    // Answered 200 with the error: the SDK asks this when its frame stays silent (src/fault.ts),
    // and a failed request would add a line of its own to the partner's console.
    return { status: 200, body: { error: serializeError(error) } };
  }
  const header = req.headers.origin;
  const origin = header && header !== 'null' ? header : (url.searchParams.get('origin') ?? null);
  const originAllowed = origin === null ? null : isOriginAllowed(partner.allowedOrigins, origin);
  return {
    status: 200,
    body: {
      service: 'video-plugin-service',
      version: VERSION,
      protocolVersion: PROTOCOL_VERSION,
      partnerID: partner.id,
      origin,
      originAllowed,
      // What the plugin page's handshake would refuse this origin with, word for word: the SDK
      // rejects with it when its frame stays silent (the browser stopped it at frame-ancestors).
      ...(originAllowed === false
        ? {
            refusal: originRefusal(origin!, partner.id),
          }
        : {}),
      // What /plugin?partner=<this partner> is sent: this partner's origins only.
      frameAncestors: frameAncestorSources([partner]),
      pluginURL: `${ctx.baseURL()}/plugin?partner=${encodeURIComponent(partner.id)}`,
    },
  };
};
