/**
 * The limits' names and defaults, as values the configuration reads (config.ts, command-line.ts)
 * and the parts that apply them import: the budgets (http/limits.ts), the topic search slots
 * (jobs/slots.ts) and the cap on waiting jobs (jobs/waiting.ts). Here, below both, so that the
 * configuration never imports upward into the HTTP layer or the jobs.
 */

/** One budget: a bucket of `burst` calls, refilled at `perMinute` calls a minute. */
export interface Bucket {
  readonly burst: number;
  readonly perMinute: number;
}

/** What a budget counts, by the route that spends it. */
export const LIMITED_CALLS = {
  /** `POST /api/partners/:id/sign-in`: the studio's own email sign-in (uncontrolled mode). */
  signIn: 'the studio sign-in',
  /** `POST /api/accounts` and `POST /api/sessions`: an account or login token redeemed. */
  tokens: 'account creation and login',
  /** `POST /api/topics`. */
  topicSearches: 'topic searches',
  /** `POST /api/generations`. */
  generations: 'video generations',
  /** `POST /api/videos/:id/complete`, and an editor save that changes the scenes (a new preview). */
  renders: 'renders',
} as const;
export type LimitedCall = keyof typeof LIMITED_CALLS;
/** Whose budget: the caller's IP address, its account (with a session), or the partner. */
export type LimitScope = 'ip' | 'account' | 'partner';
/** A budget's name, e.g. `topicSearches.account`. */
export type LimitName = `${LimitedCall}.${LimitScope}`;

/**
 * The default budgets. A name missing here is not limited. Every caller of the local service is
 * usually on loopback, so the per-IP budgets admit a whole integration test suite from one machine;
 * a hosted service sets stricter ones (SECURITY.md).
 */
export const DEFAULT_LIMITS: Readonly<Partial<Record<LimitName, Bucket>>> = {
  'signIn.ip': { burst: 20, perMinute: 60 },
  'signIn.partner': { burst: 200, perMinute: 600 },
  'tokens.ip': { burst: 300, perMinute: 1800 },
  'topicSearches.account': { burst: 30, perMinute: 1200 },
  'topicSearches.ip': { burst: 300, perMinute: 1800 },
  'generations.account': { burst: 30, perMinute: 120 },
  'generations.ip': { burst: 100, perMinute: 600 },
  'renders.account': { burst: 30, perMinute: 120 },
  'renders.ip': { burst: 100, perMinute: 600 },
};

/** Every budget's name, for validation and the usage text. */
export const LIMIT_NAMES: readonly LimitName[] = (Object.keys(LIMITED_CALLS) as LimitedCall[]).flatMap((call) =>
  (['ip', 'account', 'partner'] as const).map((scope) => `${call}.${scope}` as LimitName),
);

/** Topic searches fetching at once, per account and in all, by default (jobs/slots.ts). */
export const DEFAULT_SEARCH_SLOTS = { perAccount: 2, total: 8 } as const;

/**
 * The cap on the jobs one account has waiting for a slot (jobs/waiting.ts): the name a refusal
 * gives in `data.limit`, in the budgets' `<what>.<scope>` form, and its default. 50 is above the
 * burst of each of the account's budgets (30 topic searches, 30 renders), so the cap is met only by
 * a queue that builds up: by then the account's last search waits ~25 slot times of its own (2
 * slots an account), and more waiting would only make that longer.
 */
export const WAITING_JOBS_LIMIT = 'waitingJobs.account';
export const DEFAULT_MAX_WAITING_JOBS = 50;

/**
 * The cap on status sockets (`/api/live`) one IP address holds open before their first message
 * has logged them in (http/live.ts): the name a refusal gives in `data.limit`, and its value. A
 * page's frame sends its session as soon as its socket opens, so even a page of many frames, or a
 * partner's parallel browser tests from one machine, has only a few waiting at any moment; 100 is
 * far above that, while each waiting socket (held up to 5 s) costs the service memory and timers.
 */
export const PENDING_SOCKETS_LIMIT = 'pendingSockets.ip';
export const MAX_PENDING_SOCKETS_PER_IP = 100;
