/**
 * The partners the service knows, by ID: those configured at start (config.ts) and the sandboxes
 * added and removed while it runs (sandboxes.ts, their only writer). Every part looks a partner up
 * here when it uses one, never in a copy made at start, so a sandbox exists for all of them at once
 * and is gone for all of them at once.
 *
 * A sandbox that ended (reset or expired) is remembered, with the session keys it had, so that its
 * tokens, its events tokens and its sessions are refused with their own code, `sandbox_expired`
 * (HTTP 401), rather than as unknown: a partner's test sees that its sandbox ended, not that its
 * token is wrong. The memory is bounded ({@link ENDED_SANDBOXES_KEPT}, the oldest forgotten first).
 */
import { NotAuthenticatedError, type VideoPluginError } from 'video-plugin/internal';
import type { Partner } from './config.js';
import type { SandboxEnd } from './store/records.js';

/** Ended sandboxes remembered for their `sandbox_expired` answers; older ones read as unknown. */
export const ENDED_SANDBOXES_KEPT = 10_000;

export type { SandboxEnd } from './store/records.js';

interface Ended {
  partnerID: string;
  how: SandboxEnd;
  /** When it ended (ISO 8601). */
  at: string;
  sessionKeys: readonly string[];
}

/** The partners by ID (a Map), with the sandboxes that ended. */
export class Partners extends Map<string, Partner> {
  readonly #ended = new Map<string, Ended>();
  /** Session key → the ended sandbox it belonged to. */
  readonly #endedSessions = new Map<string, Ended>();

  /** The partners configured at start, without the sandboxes (what the service names to anyone). */
  configured(): Partner[] {
    return [...this.values()].filter((partner) => !partner.sandbox);
  }

  /** Takes a sandbox out and remembers how it ended, with its sessions' keys. */
  end(partnerID: string, how: SandboxEnd, sessionKeys: readonly string[]): void {
    this.delete(partnerID);
    const ended: Ended = { partnerID, how, at: new Date().toISOString(), sessionKeys };
    this.#ended.set(partnerID, ended);
    for (const key of sessionKeys) this.#endedSessions.set(key, ended);
    for (const [id, oldest] of this.#ended) {
      if (this.#ended.size <= ENDED_SANDBOXES_KEPT) break;
      this.#ended.delete(id);
      for (const key of oldest.sessionKeys) this.#endedSessions.delete(key);
    }
  }

  /** The `sandbox_expired` error of an ended sandbox, by its partner ID; undefined for any other ID. */
  endedError(partnerID: unknown): VideoPluginError | undefined {
    const ended = typeof partnerID === 'string' ? this.#ended.get(partnerID) : undefined;
    return ended && sandboxExpired(ended);
  }

  /** The `sandbox_expired` error of a session that an ended sandbox had; undefined for any other. */
  endedSessionError(sessionKey: string): VideoPluginError | undefined {
    const ended = this.#endedSessions.get(sessionKey);
    return ended && sandboxExpired(ended);
  }
}

/**
 * The `sandbox_expired` error of `partnerID` when `partners` remembers it as an ended sandbox (for
 * the parts that take any ReadonlyMap of partners, such as tests' own).
 */
export function endedSandbox(partners: ReadonlyMap<string, Partner>, partnerID: unknown): VideoPluginError | undefined {
  return partners instanceof Partners ? partners.endedError(partnerID) : undefined;
}

function sandboxExpired({ partnerID, how, at }: Ended): VideoPluginError {
  const what = how === 'reset' ? 'was reset' : 'expired';
  return new NotAuthenticatedError(
    'sandbox_expired',
    `The sandbox "${partnerID}" ${what} at ${at}: its accounts, sessions and records are gone, and its tokens no longer work. Create a new sandbox (POST /api/sandboxes, createSandbox()).`,
    { partnerID, reason: how, endedAt: at },
  );
}
