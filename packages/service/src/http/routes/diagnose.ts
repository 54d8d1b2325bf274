/** The service's own checks: health, a partner's origin check, and `diagnose()`'s report. */
import { InvalidParameterError, VERSION, PROTOCOL_VERSION } from 'video-plugin/internal';
import { frameAncestorSources, isOriginAllowed } from '../../origins.js';
import { partnerOf, type Handler } from './request.js';

export const health: Handler = ({ ctx }) => ({
  status: 200,
  body: { status: 'ok', partners: [...ctx.config.partners.keys()], jobMs: ctx.config.jobMs },
});

export const originCheck: Handler = (request) => {
  const partner = partnerOf(request);
  const origin = request.url.searchParams.get('origin');
  if (!origin) {
    throw new InvalidParameterError(
      'invalid_parameter',
      'GET origin-check: give the page origin as ?origin=, e.g. ?origin=https://shop.example.',
      { field: 'origin' },
    );
  }
  return { status: 200, body: { allowed: isOriginAllowed(partner.allowedOrigins, origin) } };
};

/**
 * `GET /api/diagnose?partnerID=`: what `diagnose()` (video-plugin/diagnose) asks from the partner's
 * page, with CORS so that any page may read it. It says whether the request's `Origin` (the page
 * that asks; `?origin=` only when there is no such header, for curl) is allowed for the partner,
 * the `frame-ancestors` the plugin page is sent with, and the versions. Nothing secret: no allowed
 * origins of the partner beyond what the plugin page's own header shows to anyone.
 */
export const diagnose: Handler = (request) => {
  const { req, res, url, ctx } = request;
  // Also on errors: the page must be able to read why.
  res.setHeader('access-control-allow-origin', '*');
  res.setHeader('vary', 'Origin');
  const partnerID = url.searchParams.get('partnerID');
  if (!partnerID) {
    throw new InvalidParameterError(
      'invalid_parameter',
      'GET /api/diagnose: give the partner ID as ?partnerID=, e.g. ?partnerID=demo-partner.',
      { field: 'partnerID' },
    );
  }
  const partner = partnerOf({ ...request, params: { partnerID } });
  const header = req.headers.origin;
  const origin = header && header !== 'null' ? header : (url.searchParams.get('origin') ?? null);
  return {
    status: 200,
    body: {
      service: 'video-plugin-service',
      version: VERSION,
      protocolVersion: PROTOCOL_VERSION,
      partnerID: partner.id,
      origin,
      originAllowed: origin === null ? null : isOriginAllowed(partner.allowedOrigins, origin),
      // What /plugin?partner=<this partner> is sent: this partner's origins only.
      frameAncestors: frameAncestorSources([partner]),
      pluginURL: `${ctx.baseURL()}/plugin?partner=${encodeURIComponent(partner.id)}`,
    },
  };
};
