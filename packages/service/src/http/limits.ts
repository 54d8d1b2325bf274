/**
 * Budgets: how much one caller may start, per IP address, per account and per partner, so that no
 * caller can flood the service with work. Each budget is a token bucket: it holds up to `burst`
 * calls and refills at `perMinute`; a call that finds it empty is refused with 429 `rate_limited`,
 * `Retry-After` (whole seconds) and `data: { limit, retryAfterMs }`, and nothing of the call is
 * done. The defaults are one table, {@link DEFAULT_LIMITS}, sized so that a partner's integration
 * tests and the load benchmark (`npm run bench:load`, every call from one IP) are never refused,
 * while a runaway loop is (docs/service.md "Limits"). `--limit` and `startService({ limits })`
 * change any of them.
 *
 * The budgets' names and defaults are values of the configuration (limit-values.ts); how many
 * topic searches fetch at once is jobs/slots.ts. Beside the budgets, one cap that is not a bucket:
 * the jobs an account has waiting for a slot ({@link admitWaiting}).
 */
import type { IncomingMessage } from 'node:http';
import { VideoPluginError } from 'video-plugin/internal';
import {
  DEFAULT_LIMITS,
  LIMITED_CALLS,
  WAITING_JOBS_LIMIT,
  type Bucket,
  type LimitedCall,
  type LimitName,
  type LimitScope,
} from '../limit-values.js';
import { HttpError } from './reply.js';

/**
 * The caller's IP address, as every per-IP limit counts it: the TCP peer's. `X-Forwarded-For` is
 * not read, since any caller can write it; behind a proxy every caller shares the proxy's limits
 * (a hosted service reads the address its own trusted proxy gives).
 */
export function clientIp(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? 'unknown';
}

/** Buckets untouched this long are full again, and are forgotten (memory stays bounded by activity). */
const SWEEP_MS = 60_000;

/** Token buckets by name and key, on a clock that tests may drive. */
export class Budgets {
  readonly #limits: Readonly<Partial<Record<LimitName, Bucket>>>;
  readonly #now: () => number;
  /** `name key` → tokens left and when they were counted. */
  readonly #buckets = new Map<string, { tokens: number; at: number }>();
  #swept: number;

  constructor(limits: Readonly<Partial<Record<LimitName, Bucket | false>>>, now: () => number = Date.now) {
    const merged: Partial<Record<LimitName, Bucket>> = { ...DEFAULT_LIMITS };
    for (const [name, bucket] of Object.entries(limits) as [LimitName, Bucket | false][]) {
      if (bucket === false) delete merged[name];
      else merged[name] = bucket;
    }
    this.#limits = merged;
    this.#now = now;
    this.#swept = now();
  }

  /** The budgets in force. */
  get limits(): Readonly<Partial<Record<LimitName, Bucket>>> {
    return this.#limits;
  }

  /**
   * Spends one call of `call` from each of the caller's budgets (a scope without a key is skipped),
   * or none of them.
   *
   * @throws {HttpError} 429 `rate_limited` naming the first empty budget and when to retry.
   */
  spend(call: LimitedCall, keys: Partial<Record<LimitScope, string>>): void {
    const now = this.#now();
    if (now - this.#swept > SWEEP_MS) this.#sweep(now);
    const charged: { tokens: number }[] = [];
    for (const [scope, key] of Object.entries(keys) as [LimitScope, string | undefined][]) {
      const name: LimitName = `${call}.${scope}`;
      const limit = this.#limits[name];
      if (key === undefined || !limit) continue;
      const bucket = this.#refill(`${name} ${key}`, limit, now);
      if (bucket.tokens < 1) {
        for (const spent of charged) spent.tokens += 1;
        const retryAfterMs = Math.ceil(((1 - bucket.tokens) * 60_000) / limit.perMinute);
        throw rateLimited(call, scope, limit, retryAfterMs);
      }
      bucket.tokens -= 1;
      charged.push(bucket);
    }
  }

  #refill(id: string, limit: Bucket, now: number): { tokens: number; at: number } {
    let bucket = this.#buckets.get(id);
    if (!bucket) {
      bucket = { tokens: limit.burst, at: now };
      this.#buckets.set(id, bucket);
    }
    bucket.tokens = Math.min(limit.burst, bucket.tokens + ((now - bucket.at) * limit.perMinute) / 60_000);
    bucket.at = now;
    return bucket;
  }

  #sweep(now: number): void {
    this.#swept = now;
    for (const [id, bucket] of this.#buckets) {
      const limit = this.#limits[id.slice(0, id.indexOf(' ')) as LimitName];
      if (!limit || bucket.tokens + ((now - bucket.at) * limit.perMinute) / 60_000 >= limit.burst) {
        this.#buckets.delete(id);
      }
    }
  }
}

function rateLimited(call: LimitedCall, scope: LimitScope, limit: Bucket, retryAfterMs: number): VideoPluginError {
  const limitName = `${call}.${scope}`;
  const who = scope === 'ip' ? 'this IP address' : scope === 'account' ? 'this account' : 'this partner';
  return new HttpError(
    429,
    'rate_limited',
    `Too many ${LIMITED_CALLS[call]} from ${who}: the budget ${limitName} allows ${limit.burst} at once and ` +
      `${limit.perMinute} a minute. Retry after ${Math.ceil(retryAfterMs / 1000)} s (error.data.retryAfterMs); ` +
      'the service was started with its limits in docs/service.md "Limits" (--limit changes them).',
    { limit: limitName, retryAfterMs },
  );
}

/**
 * Refuses new work of an account that already has `max` searches and renders waiting for a slot
 * (jobs/waiting.ts): 429 `rate_limited` like a spent budget, naming {@link WAITING_JOBS_LIMIT},
 * before anything is saved. `retryAfterMs` is an estimate: the longest one fetch holds a search
 * slot (`fetchTimeoutMs`), after which the next waiting job has its slot.
 *
 * @throws {HttpError} 429 `rate_limited` with `data: { limit, max, waiting, retryAfterMs }`.
 */
export function admitWaiting(waiting: number, max: number, retryAfterMs: number): void {
  if (waiting < max) return;
  throw new HttpError(
    429,
    'rate_limited',
    `This account has ${waiting} topic searches and renders waiting for a slot: the limit ${WAITING_JOBS_LIMIT} ` +
      `allows ${max}. Start more once some of them have started (a search leaves PENDING, a render its ` +
      `waiting_to_render stage); retry after about ${Math.ceil(retryAfterMs / 1000)} s (error.data.retryAfterMs). ` +
      'The service was started with its limits in docs/service.md "Limits" (--max-waiting-jobs changes this one).',
    { limit: WAITING_JOBS_LIMIT, max, waiting, retryAfterMs },
  );
}
