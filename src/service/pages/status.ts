/**
 * Live status of topics, generations and videos for the page, shared by every watcher. It polls
 * the service's change feed (`GET /api/changes`) every 250 ms while anything is watched, instead of
 * holding a server-sent event stream: a browser opens at most 6 HTTP/1.1 connections per host, so
 * with one held stream per iframe a page with 6 or more Plugin instances would starve its own API
 * calls. The feed replays every change after the last cursor; when it cannot (the service
 * restarted, or the gap is too long), or after a failed poll, the watched records are re-read, and
 * the host drops any status it already has.
 */
import type { ApiClient, Change, ChangeFeed, Generation, Topic } from './client.js';
import type { Video } from '../../wire/api.js';

type Kind = Change['kind'];
type RecordOf<K extends Kind> = K extends 'topic' ? Topic : K extends 'generation' ? Generation : Video;
type Watcher = (record: never) => void;

const POLL_MS = 250;
/** The interval while polls fail (service down, network gone, 500s). */
const RETRY_MS = 1000;

/** `ms` give or take 20 %, so that the frames of one page do not poll in step. */
const jittered = (ms: number): number => ms * (0.8 + Math.random() * 0.4);

export class StatusHub {
  readonly #watchers = new Map<string, Set<Watcher>>();
  /** Where the feed got to; undefined until the first answer after (re)starting. */
  #cursor: string | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #inFlight = false;
  /** Bumped by reset and restart: answers asked for by an earlier session are dropped. */
  #epoch = 0;
  /** A poll failed (or the session is new): re-read every watched record after the next answer. */
  #stale = false;
  /** Watchers waiting for a cursor before their first read, so that no change falls between. */
  #waiting: (() => void)[] = [];

  constructor(readonly api: ApiClient) {}

  /**
   * Calls `watcher` with the current record at once, then with every change. Returns the stop
   * function. Errors reading the current record go to `onError`.
   */
  watch<K extends Kind>(
    kind: K,
    id: string,
    watcher: (record: RecordOf<K>) => void,
    onError?: (error: unknown) => void,
  ): () => void {
    const key = `${kind}:${id}`;
    let set = this.#watchers.get(key);
    if (!set) this.#watchers.set(key, (set = new Set()));
    set.add(watcher as Watcher);
    let active = true;
    void this.#positioned()
      .then(() => this.#read(kind, id))
      .then((record) => active && (watcher as (r: RecordOf<K>) => void)(record))
      .catch((error: unknown) => active && onError?.(error));
    return () => {
      active = false;
      set.delete(watcher as Watcher);
      if (set.size === 0) this.#watchers.delete(key);
      if (this.#watchers.size > 0) return;
      this.#stop();
      this.#waiting = [];
    };
  }

  /** Stops polling and forgets every watcher (logout, unload). */
  reset(): void {
    this.#watchers.clear();
    this.#stop();
    this.#waiting = [];
    this.#epoch++;
  }

  /** Starts over for a new session, keeping the watchers and re-reading them. */
  restart(): void {
    this.#stop();
    this.#epoch++;
    this.#stale = this.#watchers.size > 0;
    this.#schedule(0);
  }

  /** Resolves once the feed has a cursor (at once without a session: the read will say so). */
  #positioned(): Promise<void> {
    if (this.#cursor !== undefined || !this.api.session) return Promise.resolve();
    const ready = new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#schedule(0);
    return ready;
  }

  #read<K extends Kind>(kind: K, id: string): Promise<RecordOf<K>> {
    const read =
      kind === 'topic' ? this.api.topic(id) : kind === 'generation' ? this.api.generation(id) : this.api.video(id);
    return read as Promise<RecordOf<K>>;
  }

  /** Polls after `ms`, unless a poll is in flight (it schedules the next) or nothing needs one. */
  #schedule(ms: number): void {
    if (this.#inFlight || this.#watchers.size === 0 || !this.api.session) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#poll(), ms);
  }

  async #poll(): Promise<void> {
    this.#timer = undefined;
    this.#inFlight = true;
    const epoch = this.#epoch;
    let feed: ChangeFeed | undefined;
    try {
      feed = await this.api.changes(this.#cursor);
    } catch {
      // Down, cut or answering errors: retried below, more slowly.
    }
    this.#inFlight = false;
    if (epoch !== this.#epoch) return this.#schedule(0);
    if (!feed) {
      this.#stale = true;
      this.#wake();
      return this.#schedule(jittered(RETRY_MS));
    }
    this.#cursor = feed.cursor;
    for (const change of feed.changes ?? []) this.#dispatch(change);
    if (feed.changes === null || this.#stale) {
      this.#stale = false;
      this.#refresh();
    }
    this.#wake();
    if (this.#watchers.size === 0) this.#stop();
    else this.#schedule(jittered(POLL_MS));
  }

  /** Lets the watchers waiting for a cursor read (after a failed poll too: a stale poll re-reads). */
  #wake(): void {
    for (const resolve of this.#waiting.splice(0)) resolve();
  }

  /** Re-reads every watched record, so that no change is lost in a gap the feed cannot replay. */
  #refresh(): void {
    for (const key of [...this.#watchers.keys()]) {
      const [kind, id] = key.split(/:(.*)/s) as [Kind, string];
      this.#read(kind, id).then(
        (record) => this.#dispatch({ kind, record } as Change),
        () => {},
      );
    }
  }

  #dispatch(change: Change): void {
    const id = change.kind === 'generation' ? change.record.requestId : change.record.id;
    for (const watcher of [...(this.#watchers.get(`${change.kind}:${id}`) ?? [])])
      (watcher as (r: unknown) => void)(change.record);
  }

  /** Stops polling; the next poll starts from a new cursor. */
  #stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#cursor = undefined;
    this.#stale = false;
  }
}
