/**
 * Live status of topics, generations and videos for the page: one server-sent event stream per
 * session, shared by every watcher. If it drops it is reopened from its last event ID, so the
 * service replays what was missed; the watched records are re-read too (a restarted service
 * cannot replay), and the host drops what it already has.
 */
import type { ApiClient, Change, Generation, Topic } from './client.js';
import type { Video } from '../../wire/api.js';

type Kind = Change['kind'];
type RecordOf<K extends Kind> = K extends 'topic' ? Topic : K extends 'generation' ? Generation : Video;
type Watcher = (record: never) => void;

const REOPEN_DELAY_MS = 500;

export class StatusHub {
  readonly #watchers = new Map<string, Set<Watcher>>();
  #abort: AbortController | undefined;
  #opening: Promise<void> | undefined;
  #reopenTimer: ReturnType<typeof setTimeout> | undefined;
  /** Where the stream got to, for the next one of the same session. */
  #position: { lastEventId?: string } = {};

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
    void this.#ensureOpen()
      .then(() => this.#read(kind, id))
      .then((record) => active && (watcher as (r: RecordOf<K>) => void)(record))
      .catch((error: unknown) => active && onError?.(error));
    return () => {
      active = false;
      set.delete(watcher as Watcher);
      if (set.size === 0) this.#watchers.delete(key);
    };
  }

  /** Ends the stream and forgets every watcher (logout, unload). */
  reset(): void {
    this.#watchers.clear();
    this.#close();
    this.#position = {};
  }

  /** Reopens the stream for a new session, keeping the watchers. */
  restart(): void {
    this.#close();
    this.#position = {};
    if (this.#watchers.size > 0) void this.#refresh();
  }

  #read<K extends Kind>(kind: K, id: string): Promise<RecordOf<K>> {
    const read =
      kind === 'topic' ? this.api.topic(id) : kind === 'generation' ? this.api.generation(id) : this.api.video(id);
    return read as Promise<RecordOf<K>>;
  }

  #ensureOpen(): Promise<void> {
    if (!this.api.session) return Promise.resolve();
    this.#opening ??= this.#open();
    return this.#opening;
  }

  async #open(): Promise<void> {
    const abort = new AbortController();
    this.#abort = abort;
    try {
      await this.api.stream(
        (change) => this.#dispatch(change),
        abort.signal,
        () => this.#dropped(abort),
        this.#position,
      );
    } catch {
      this.#dropped(abort);
    }
  }

  #dropped(abort: AbortController): void {
    if (this.#abort !== abort) return;
    this.#opening = undefined;
    this.#abort = undefined;
    clearTimeout(this.#reopenTimer);
    this.#reopenTimer = setTimeout(() => void this.#refresh(), REOPEN_DELAY_MS);
  }

  /** Reopens the stream and re-reads every watched record, so no change is lost in a gap. */
  async #refresh(): Promise<void> {
    if (this.#watchers.size === 0 || !this.api.session) return;
    await this.#ensureOpen();
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

  #close(): void {
    clearTimeout(this.#reopenTimer);
    this.#abort?.abort();
    this.#abort = undefined;
    this.#opening = undefined;
  }
}
