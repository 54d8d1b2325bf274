/**
 * The operator's sandbox door (docs/service.md "Sandboxes"): `POST /api/sandboxes` makes a sandbox,
 * `DELETE /api/sandboxes/:partnerID` resets it (sandboxes.ts). Both need the operator key of
 * `sandboxes.operatorKey` (`--operator-key`) as a bearer; without one configured, the door is closed
 * (403 `sandboxes_disabled`): whoever may call it can make partners on this service.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { NotAuthenticatedError } from 'video-plugin/internal';
import { HttpError, readJson } from '../reply.js';
import { bearer, type Handler, type ApiContext } from './request.js';
import type { IncomingMessage } from 'node:http';

export const createSandbox: Handler = async ({ req, ctx }) => {
  requireOperator(req, ctx);
  const body = await readJson(req);
  return { status: 201, body: ctx.sandboxes.create(body ?? {}, 'POST /api/sandboxes: body') };
};

export const resetSandbox: Handler = async ({ req, ctx, params }) => {
  requireOperator(req, ctx);
  await ctx.sandboxes.reset(params.partnerID ?? '');
  return { status: 204 };
};

/**
 * Refuses a caller without the operator key (compared in constant time).
 *
 * @throws {HttpError} 403 `sandboxes_disabled` when no operator key is configured.
 * @throws {NotAuthenticatedError} 401 `not_authenticated` without the key, or with another.
 */
function requireOperator(req: IncomingMessage, ctx: ApiContext): void {
  const { operatorKey } = ctx.config.sandboxes;
  if (operatorKey === undefined) {
    throw new HttpError(
      403,
      'sandboxes_disabled',
      'Sandboxes are off on this service: its operator opens them with --sandboxes and --operator-key KEY (startService({ sandboxes: { operatorKey } })). In-process, service.createSandbox() works without them.',
    );
  }
  const given = bearer(req);
  const digest = (text: string) => createHash('sha256').update(text).digest();
  if (given === undefined || !timingSafeEqual(digest(given), digest(operatorKey))) {
    throw new NotAuthenticatedError(
      given === undefined
        ? 'The sandbox endpoint needs Authorization: Bearer <the operator key> (--operator-key, VIDEO_PLUGIN_OPERATOR_KEY).'
        : 'The operator key is wrong: send the key the service was started with (--operator-key, VIDEO_PLUGIN_OPERATOR_KEY).',
    );
  }
}
