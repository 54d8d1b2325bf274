/**
 * Webhooks: the service tells a partner's server what happened (an account was created, a video
 * completed, its final render is ready) by POSTing a signed event to each of the partner's
 * `webhookURLs`. The body is a compact HS256 JWT signed with the partner's newest webhook secret,
 * never with the secret that verifies its account tokens (`content-type: application/jwt`);
 * `verifyWebhook` in `video-plugin/server` reads it.
 *
 * Every event is first kept in the partner's event log (store/events.ts, 30 days), which the
 * partner's back end pages through (`GET /api/partner/events`, `listEvents`): a webhook that never
 * arrives is not lost. Deliveries run outside any request: the API only queues an event and
 * answers. A delivery (one event to one URL) is saved in the store's outbox, with the event and the
 * request's other changes, before it is first tried, and removed once it is over (delivered, or
 * given up): with a data file, deliveries a stopped or killed service left are tried again by the
 * next one (`resume()`). Each attempt has `webhookTimeoutMs`; the waits between tries start at
 * `webhookRetryMs` and double up to `webhookMaxRetryMs` (1 hour), until the delivery is
 * `webhookRetryForMs` old (3 days), or `webhookTries` tries when set; every attempt is recorded.
 * The webhook kit (http/routes/webhook-kit.ts) queues through the same outbox: a made-up event
 * marked `test: true` (not logged), and a logged event again marked `redelivery: true`.
 * `close()` aborts the attempts in flight and the waits, so no timer outlives the service.
 *
 * Services sharing a PostgreSQL database share the outbox, and a delivery is made by one of them at
 * a time: the one that holds its claim, an advisory lock held for the whole delivery, tries and
 * waits included (jobs/claims.ts). The service that queued a delivery claims it first; each one
 * looks every second for the rows older than {@link CLAIM_GRACE_MS} that no process holds (theirs
 * ended: killed, crashed, closed) and takes them over, going on from their tries. A claim is taken
 * before the row is read again, and a delivery that is over is removed before its claim is let
 * go, so a row delivered elsewhere is never tried again.
 */
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { signWebhook, type WebhookEvent, type WebhookEventType } from 'video-plugin/internal';
import { loggable, type Partner, type ServiceConfig } from '../config.js';
import { EgressError, egressPolicy, guardedFetch, type EgressPolicy } from '../egress.js';
import {
  newId,
  nowISO,
  type AccountRecord,
  type DeliveryRecord,
  type Store,
  type VideoRecord,
} from '../store/store.js';
import { videoView } from '../store/shapes.js';
import { testEventInput } from './test-events.js';
import type { Claims } from '../jobs/claims.js';

/** The first key of the deliveries' advisory locks ("VPW1"); the second is the delivery ID's hash. */
export const WEBHOOK_LOCKS = 0x56505731;
/** How old a delivery is before another service may take it over: its own service claims it long before. */
export const CLAIM_GRACE_MS = 3000;

/** Where an attempt leaves its delivery. */
export type WebhookOutcome =
  /** A 2xx answer: the delivery is over. */
  | 'delivered'
  /** It failed and another try will follow. */
  | 'retrying'
  /** It failed and it was the last try: the delivery is over, undelivered. */
  | 'failed'
  /** The service closed before the delivery was over. */
  | 'abandoned';

/** One attempt to deliver one event to one URL. */
export interface WebhookAttempt {
  /** The event's ID (the token's `jti`), the same on every attempt. */
  eventID: string;
  type: WebhookEvent['type'];
  partnerID: string;
  url: string;
  /** 1 for the first try. */
  attempt: number;
  /** When the attempt started (ISO 8601). */
  startedAt: string;
  /** The receiver's HTTP status, when it answered. */
  status?: number;
  /** Why no answer counted: `timeout after N ms`, a network error… */
  error?: string;
  durationMs: number;
  /** `delivered` or `failed` on the final attempt, `retrying` before (`abandoned` at close). */
  outcome: WebhookOutcome;
}

/** An event before it gets its `id` and `createdAt` (an Omit that keeps the union by `type`). */
type EventInput = WebhookEvent extends infer Event
  ? Event extends unknown
    ? Omit<Event, 'id' | 'createdAt'>
    : never
  : never;

/** Queues, signs, posts and retries the partners' webhook events. */
export class Webhooks {
  /** Every attempt so far, oldest first. */
  readonly deliveries: WebhookAttempt[] = [];

  readonly #config: ServiceConfig;
  readonly #egress: EgressPolicy;
  readonly #store: Store;
  readonly #baseURL: () => string;
  readonly #closing = new AbortController();
  /** Per partner: aborted when it ends (a sandbox's reset), stopping its tries and waits alone. */
  readonly #partnerSignals = new Map<string, { controller: AbortController; signal: AbortSignal }>();
  readonly #pending = new Set<Promise<void>>();
  /** On a shared database: the deliveries' claims across services; none otherwise. */
  readonly #claims: Claims | undefined;
  /** The deliveries this service holds the claim of: aborted when the claim is lost. */
  readonly #claimed = new Map<string, AbortController>();
  #idle: { promise: Promise<void>; resolve: () => void } | undefined;

  constructor(
    config: ServiceConfig,
    store: Store,
    baseURL: () => string,
    /** Where deliveries may go (egress.ts): the same checks as a topic's source. */
    egress: EgressPolicy = egressPolicy(config.host, config.allowPrivateSources, () => config.port),
    /** On a shared PostgreSQL database, the claims of the deliveries (ended at {@link close}). */
    claims?: Claims,
  ) {
    this.#claims = claims;
    // A claim lost with its connection may be another service's already: its delivery stops here,
    // unrecorded, and the next sweep (here or there) takes it over from its saved tries.
    claims?.whenLost((ids) => {
      const stopped = ids.filter((id) => this.#claimed.has(id));
      for (const id of stopped) this.#claimed.get(id)?.abort();
      if (stopped.length > 0) {
        console.error(
          `video-plugin-service: the database connection holding ${stopped.length} webhook deliveries was lost; they are taken over again once it answers.`,
        );
      }
    });
    this.#config = config;
    this.#store = store;
    this.#baseURL = baseURL;
    this.#egress = egress;
    // Every delivery's fetch and wait listen to this one signal: many at once are normal.
    setMaxListeners(0, this.#closing.signal);
  }

  /** An account was created, through a partner's token or the uncontrolled sign-in. */
  accountCreated(account: AccountRecord): void {
    const { partnerID, id, externalID, signIn, createdAt: _c, updatedAt: _u, ...fields } = account;
    this.#emit(partnerID, {
      type: 'account.created',
      accountID: id,
      ...(externalID !== undefined ? { externalID } : {}),
      data: { via: signIn ? 'sign-in' : 'token', account: fields },
    });
  }

  /** A video was marked completed; its final render has started. */
  videoCompleted(video: VideoRecord): void {
    this.#emit(video.partnerID, { type: 'video.completed', ...this.#owner(video), data: videoData(video) });
  }

  /** A completed video's final render is ready. */
  videoRendered(video: VideoRecord): void {
    // The renders exactly as the API shows them (the same files and alt text as `videoRendered`).
    const renders = videoView(video, this.#baseURL()).renders.flatMap(
      ({ format, status, url, renderedAt, files, altText, quality }) =>
        status === 'COMPLETE' && url !== undefined && files && altText !== undefined
          ? [{ format, url, renderedAt: renderedAt ?? nowISO(), files, altText, ...(quality ? { quality } : {}) }]
          : [],
    );
    this.#emit(video.partnerID, {
      type: 'video.rendered',
      ...this.#owner(video),
      data: { ...videoData(video), renders },
    });
  }

  /**
   * Sends a made-up event of `type` (test-events.ts), marked `test: true`, to each of the partner's
   * webhook URLs through the outbox like any event, and returns it. It stays out of the event log:
   * the log is what happened to the partner's accounts and videos, and a back end catching up with
   * `listEvents` must not meet events about an account that does not exist.
   */
  sendTest(partner: Partner, type: WebhookEventType): WebhookEvent {
    const input = testEventInput(type, this.#baseURL());
    const event = { ...input, id: newId('evt'), createdAt: nowISO(), test: true } as WebhookEvent;
    this.#queue(partner, event);
    return event;
  }

  /**
   * Sends a logged event again to each of the partner's webhook URLs: the same event (`id`,
   * `createdAt`, `data`), marked `redelivery: true` so that a receiver that dedupes by `id` can tell
   * it was asked for. The log keeps the event as it was; the redelivery is not logged again.
   */
  resend(partner: Partner, event: WebhookEvent): WebhookEvent {
    const again: WebhookEvent = { ...event, redelivery: true };
    this.#queue(partner, again);
    return again;
  }

  /**
   * Tries again the deliveries a previous run left in the outbox (with a data file). A delivery to
   * a partner or URL no longer configured is dropped, with a warning. On a shared database: those
   * no other service holds, and from then on, every second, those a service that ended left; one
   * to a partner or URL this service does not have stays for a service that has it (another's
   * sandbox, a configuration being rolled out), never dropped.
   */
  resume(): void {
    const claims = this.#claims;
    if (!claims) {
      for (const delivery of this.#store.deliveries()) {
        const partner = this.#usable(delivery);
        if (partner) this.#track(this.#deliver(partner, delivery));
      }
      return;
    }
    // Shared: now, every row no service holds; then every second, those a service that ended left
    // (old enough that the service that queued one has claimed it long since).
    const take = (ids: string[]) => {
      for (const id of ids) this.#track(this.#deliverClaimed(claims, id));
    };
    const rows = this.#store.deliveries().filter((delivery) => this.#partnerOf(delivery));
    // A failure here waits for the sweep, which takes the same rows (they are old enough).
    this.#track(claims.takeFree(rows.map(({ id }) => id)).then(take, () => undefined));
    claims.sweep(() => this.#leftOver(), take);
  }

  /** Resolves once no delivery is under way (at once when none is). */
  settled(): Promise<void> {
    if (this.#pending.size === 0) return Promise.resolve();
    if (!this.#idle) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.#idle = { promise, resolve };
    }
    return this.#idle.promise;
  }

  /**
   * Aborts the attempts in flight and the waits between tries; resolves once every delivery has
   * stopped. On a shared database its claims end then: another service takes the rows left over.
   */
  async close(): Promise<void> {
    this.#claims?.stopSweep();
    this.#closing.abort();
    await Promise.allSettled([...this.#pending]);
    await this.#claims?.end();
  }

  /**
   * Stops the partner's deliveries (a sandbox that ended: its outbox is already removed): the try
   * in flight and the waits between tries end, unrecorded, and {@link settled} no longer waits for them.
   */
  stopPartner(partnerID: string): void {
    this.#partnerSignals.get(partnerID)?.controller.abort();
    this.#partnerSignals.delete(partnerID);
  }

  /** The signal of the partner's deliveries: aborted at close and by {@link stopPartner}. */
  #signalOf(partnerID: string): AbortSignal {
    let entry = this.#partnerSignals.get(partnerID);
    if (!entry) {
      const controller = new AbortController();
      const signal = AbortSignal.any([this.#closing.signal, controller.signal]);
      setMaxListeners(0, signal);
      this.#partnerSignals.set(partnerID, (entry = { controller, signal }));
    }
    return entry.signal;
  }

  /** Whose video it is: the account, and the partner's own ID for it when there is one. */
  #owner(video: VideoRecord): { accountID: string; externalID?: string } {
    const externalID = this.#store.findAccount(video.partnerID, video.accountID)?.externalID;
    return { accountID: video.accountID, ...(externalID !== undefined ? { externalID } : {}) };
  }

  #emit(partnerID: string, input: EventInput): void {
    const partner = this.#config.partners.get(partnerID);
    if (!partner || this.#closing.signal.aborted) return;
    const createdAt = nowISO();
    const event = { ...input, id: newId('evt'), createdAt } as WebhookEvent;
    // Kept in the log whether or not a URL receives it: the log is what a missed webhook falls back on.
    this.#store.appendEvent(partnerID, event);
    this.#queue(partner, event, createdAt);
  }

  /** One delivery of `event` per webhook URL of the partner, queued at `createdAt`, each tried once it is saved. */
  #queue(partner: Partner, event: WebhookEvent, createdAt = nowISO()): void {
    this.#store.transaction(() => {
      for (const url of partner.webhookURLs) {
        const delivery: DeliveryRecord = {
          id: newId('dlv'),
          partnerID: partner.id,
          url,
          event,
          attempts: 0,
          createdAt,
        };
        // Saved with the change that caused it; tried once that is committed (and claimed, when shared).
        this.#store.saveDelivery(delivery);
        const claims = this.#claims;
        this.#store.afterCommit(() =>
          this.#track(claims ? this.#claimThenDeliver(claims, delivery.id) : this.#deliver(partner, delivery)),
        );
      }
    });
  }

  /**
   * The partner of a delivery left in the outbox, or undefined when it is no longer configured to
   * receive it: the delivery is then dropped, with a warning.
   */
  #usable(delivery: DeliveryRecord): Partner | undefined {
    const partner = this.#partnerOf(delivery);
    if (partner) return partner;
    console.warn(
      `video-plugin-service: webhook ${delivery.event.type} ${delivery.event.id} → ${loggable(delivery.url)}: dropped, the partner "${delivery.partnerID}" no longer has this webhook URL.`,
    );
    this.#store.removeDelivery(delivery.id);
    return undefined;
  }

  /** The partner of a delivery, when this service has it with the delivery's URL. */
  #partnerOf(delivery: DeliveryRecord): Partner | undefined {
    const partner = this.#config.partners.get(delivery.partnerID);
    return partner?.webhookURLs.includes(delivery.url) ? partner : undefined;
  }

  /** The IDs of the rows in the shared outbox old enough that their service should have claimed them. */
  #leftOver(): string[] {
    if (this.#closing.signal.aborted) return [];
    this.#store.refresh();
    const before = Date.now() - CLAIM_GRACE_MS;
    return this.#store
      .deliveries()
      .filter((delivery) => Date.parse(delivery.createdAt) <= before && this.#partnerOf(delivery))
      .map(({ id }) => id);
  }

  /** Claims a delivery this service queued, and makes it unless another service has it already. */
  async #claimThenDeliver(claims: Claims, id: string): Promise<void> {
    if (this.#closing.signal.aborted) return;
    let taken: boolean;
    try {
      taken = await claims.take(id);
    } catch (error) {
      // The row stays in the outbox: a sweep takes it once the database answers again.
      console.error(
        `video-plugin-service: webhook delivery ${id} could not be claimed (${(error as Error).message}); it is tried once the database answers.`,
      );
      return;
    }
    if (taken) await this.#deliverClaimed(claims, id);
  }

  /**
   * Makes a delivery whose claim this service holds, from its tries so far, and lets the claim go
   * once it is over (the row removed) or stopped. The row is read again first: a service that
   * delivered it removed it before it let go of the claim.
   */
  async #deliverClaimed(claims: Claims, id: string): Promise<void> {
    try {
      this.#store.refresh();
      const delivery = this.#store.deliveries().find((row) => row.id === id);
      // One this service cannot make (a partner or URL it does not have) is left to one that can.
      const partner = delivery && this.#partnerOf(delivery);
      if (!partner || this.#closing.signal.aborted) return;
      const claim = new AbortController();
      this.#claimed.set(id, claim);
      await this.#deliver(partner, delivery, claim.signal);
    } finally {
      this.#claimed.delete(id);
      await claims.release(id);
    }
  }

  #track(delivery: Promise<void>): void {
    this.#pending.add(delivery);
    void delivery
      .catch((error: unknown) => console.error('video-plugin-service: a webhook delivery failed unexpectedly:', error))
      .finally(() => {
        this.#pending.delete(delivery);
        if (this.#pending.size === 0 && this.#idle) {
          this.#idle.resolve();
          this.#idle = undefined;
        }
      });
  }

  /** Makes a delivery; `claim` (shared database) is aborted when its claim is lost: it stops, unrecorded. */
  async #deliver(partner: Partner, delivery: DeliveryRecord, claim?: AbortSignal): Promise<void> {
    const { event, url } = delivery;
    const signal = claim ? AbortSignal.any([this.#signalOf(partner.id), claim]) : this.#signalOf(partner.id);
    // After a restart, the count and the clock go on from the tries made before it.
    for (let attempt = delivery.attempts + 1; ; attempt++) {
      const startedAt = nowISO();
      const started = performance.now();
      const result = await this.#post(partner, event, url, signal);
      // A sandbox that ended (reset, expired) took its outbox with it: its deliveries end unrecorded;
      // so does one whose claim was lost (another service may have it now).
      if (this.#config.partners.get(partner.id) !== partner || claim?.aborted) return;
      const ok = result.status !== undefined && result.status >= 200 && result.status < 300;
      const aborted = this.#closing.signal.aborted;
      // The retry clock starts when the delivery was queued: for an event's first delivery, when it
      // happened; for a redelivery, when it was asked for (not the event's createdAt, maybe weeks ago).
      const wait = nextWait(this.#config, attempt, Date.parse(delivery.createdAt));
      const outcome: WebhookOutcome = ok
        ? 'delivered'
        : aborted
          ? 'abandoned'
          : wait === undefined
            ? 'failed'
            : 'retrying';
      const record: WebhookAttempt = {
        eventID: event.id,
        type: event.type,
        partnerID: partner.id,
        url,
        attempt,
        startedAt,
        ...result,
        durationMs: Math.round(performance.now() - started),
        outcome,
      };
      this.deliveries.push(record);
      // An abandoned delivery stays in the outbox: the next run tries it again.
      if (outcome === 'delivered' || outcome === 'failed') this.#store.removeDelivery(delivery.id);
      else if (outcome === 'retrying') this.#store.saveDelivery({ ...delivery, attempts: attempt });
      if (outcome !== 'retrying' || wait === undefined) return log(record);
      try {
        await sleep(wait, undefined, { signal });
      } catch {
        if (this.#config.partners.get(partner.id) !== partner || claim?.aborted) return;
        record.outcome = 'abandoned';
        return log(record);
      }
    }
  }

  /** One attempt: the receiver's status, or why there is none. Never throws. */
  async #post(
    partner: Partner,
    event: WebhookEvent,
    url: string,
    signal: AbortSignal,
  ): Promise<{ status?: number; error?: string }> {
    const timeoutMs = this.#config.webhookTimeoutMs;
    try {
      // Signed with the partner's newest webhook secret, anew on every try (video-plugin/internal).
      const key = partner.webhookKeys[0];
      if (key === undefined) return { error: 'the partner has no webhook secret' };
      const { body, headers } = await signWebhook(event, key, partner.id);
      // A redirect is an answer that is not 2xx: the receiver's URL is to be fixed, not followed
      // (guardedFetch never follows one).
      const response = await guardedFetch(
        new URL(url),
        {
          method: 'POST',
          headers,
          body,
          signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
        },
        this.#egress,
      );
      // The answer's body is not read; dropping it frees the connection.
      await response.body?.cancel().catch(() => {});
      return { status: response.status };
    } catch (error) {
      if (error instanceof EgressError) return { error: error.detail };
      const name = (error as Error).name;
      if (name === 'TimeoutError') return { error: `timeout after ${timeoutMs} ms` };
      if (name === 'AbortError') return { error: 'the service closed' };
      const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
      return { error: cause?.code ?? cause?.message ?? (error as Error).message };
    }
  }
}

function videoData(video: VideoRecord) {
  return {
    videoID: video.id,
    name: video.name,
    aspectRatio: video.aspectRatio,
    duration: video.duration,
    language: video.language,
    // Exactly as the generation was given it (the records keep the object as parsed).
    ...(video.metadata ? { metadata: video.metadata } : {}),
  };
}

/**
 * The wait before the try after `attempt`, in ms, or undefined when there is none: the retry
 * schedule (docs/service.md "Delivery, retries and records"). The waits double from
 * `webhookRetryMs` up to `webhookMaxRetryMs`; no try starts after the delivery (queued at
 * `queuedAt`, ms) is `webhookRetryForMs` old, nor after `webhookTries` tries when that is set.
 */
export function nextWait(
  config: Pick<ServiceConfig, 'webhookRetryMs' | 'webhookMaxRetryMs' | 'webhookRetryForMs' | 'webhookTries'>,
  attempt: number,
  queuedAt: number,
  now = Date.now(),
): number | undefined {
  if (config.webhookTries !== undefined && attempt >= config.webhookTries) return undefined;
  const wait = Math.min(config.webhookRetryMs * 2 ** Math.min(attempt - 1, 52), config.webhookMaxRetryMs);
  return now + wait - queuedAt > config.webhookRetryForMs ? undefined : wait;
}

/** One line per delivery that is over. */
function log(record: WebhookAttempt): void {
  const what = `video-plugin-service: webhook ${record.type} ${record.eventID} → ${loggable(record.url)}`;
  const how = record.status !== undefined ? `HTTP ${record.status}` : (record.error ?? '');
  const line = `${what}: ${record.outcome} after ${record.attempt} ${record.attempt === 1 ? 'try' : 'tries'} (last: ${how}, ${record.durationMs} ms)`;
  if (record.outcome === 'delivered') console.log(line);
  else console.warn(line);
}
