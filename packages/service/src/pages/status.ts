/**
 * Live status of topics, generations and videos for the page, shared by every watcher. While
 * anything is watched it holds one WebSocket to the service (`/api/live`), over which every change
 * of the account is pushed: no polling, and — unlike a held server-sent event stream — a WebSocket
 * does not take one of the browser's 6 HTTP/1.1 connections per host, so a page with many Plugin
 * instances still has its API calls. A dropped socket reconnects with backoff and its last cursor,
 * and the service replays what it missed; when it cannot (it restarted, or the gap is too long),
 * and after any reconnect, the watched records are re-read, and the host drops any status it
 * already has. A read answered after the socket brought a change of the same record is older than
 * what the watchers have, and is dropped (the read and the socket travel on separate connections,
 * so a read served while PROCESSING can arrive after the socket's COMPLETE). A read that fails for a
 * reason that passes (the network, a gateway, a busy service) is tried again with the reconnect's
 * backoff while its record is watched, or, when the socket is down too, left to the reconnect.
 */
import type { ApiClient, Change, ChangeFeed, Generation, LiveChange, Topic } from './client.js';
import type { Video } from 'video-plugin/internal';

type Kind = Change['kind'];
type RecordOf<K extends Kind> = K extends 'topic' ? Topic : K extends 'generation' ? Generation : Video;
type Watcher = (record: never) => void;

/** Reconnect delays: doubled after each failure, from the first to the last. */
const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 5000;
/** The service's close code for a missing or ended session: reconnecting would not help. */
const NOT_AUTHENTICATED = 4401;

/** `ms` give or take 20 %, so that the frames of one page do not reconnect in step. */
const jittered = (ms: number): number => ms * (0.8 + Math.random() * 0.4);

/** Codes of a read that may well succeed when tried again; any other failure is final. */
const PASSING = new Set(['connection_failed', 'timeout', 'internal_error', 'rate_limited', 'service_unavailable']);
const passes = (error: unknown): boolean => PASSING.has((error as { code?: unknown } | null)?.code as string);

export class StatusHub {
  readonly #watchers = new Map<string, Set<Watcher>>();
  #socket: WebSocket | undefined;
  /** The socket has answered its first message: changes are flowing. */
  #positioned = false;
  /** Where the changes got to; sent on reconnect, so that the service replays the gap. */
  #cursor: string | undefined;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #delay = RECONNECT_MIN_MS;
  /** The service refused the session: no reconnect until the session changes. */
  #refused = false;
  /** A socket dropped (or the session is new): re-read every watched record once positioned. */
  #stale = false;
  /** Watchers waiting for the socket before their first read, so that no change falls between. */
  #waiting: (() => void)[] = [];
  /** Per watched record, how many changes the socket has brought: a read sent before the last is stale. */
  readonly #changes = new Map<string, number>();
  /** Reads waiting to be tried again. */
  readonly #rereads = new Set<ReturnType<typeof setTimeout>>();

  constructor(
    readonly api: ApiClient,
    readonly url = `${location.origin.replace(/^http/, 'ws')}/api/live`,
  ) {}

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
    void this.#ready().then(() =>
      this.#readInto(
        kind,
        id,
        () => active,
        (record) => (watcher as (r: RecordOf<K>) => void)(record),
        (error) => onError?.(error),
      ),
    );
    return () => {
      active = false;
      set.delete(watcher as Watcher);
      if (set.size === 0) {
        this.#watchers.delete(key);
        this.#changes.delete(key);
      }
      if (this.#watchers.size > 0) return;
      this.#stop();
      this.#waiting = [];
    };
  }

  /** Closes the socket and forgets every watcher (logout, unload). */
  reset(): void {
    this.#watchers.clear();
    this.#stop();
    this.#waiting = [];
  }

  /** Starts over for a new session, keeping the watchers and re-reading them. */
  restart(): void {
    this.#stop();
    this.#stale = this.#watchers.size > 0;
    this.#connect();
  }

  /**
   * Resolves once changes flow. At once when they cannot yet (no session, refused, or waiting to
   * reconnect): the read then says so or succeeds, and the re-read after reconnecting follows up.
   */
  #ready(): Promise<void> {
    if (this.#positioned || this.#refused || this.#retry !== undefined || !this.api.session) return Promise.resolve();
    const ready = new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#connect();
    return ready;
  }

  /**
   * Reads the record and gives it to `deliver`, unless the socket brought a change of it meanwhile
   * (the watchers have a newer one) or `active()` turned false; a failure that passes is tried again
   * with backoff, any other goes to `onError`.
   */
  #readInto<K extends Kind>(
    kind: K,
    id: string,
    active: () => boolean,
    deliver: (record: RecordOf<K>) => void,
    onError: (error: unknown) => void,
    delay = RECONNECT_MIN_MS,
  ): void {
    const key = `${kind}:${id}`;
    const seen = this.#changes.get(key) ?? 0;
    const read =
      kind === 'topic' ? this.api.topic(id) : kind === 'generation' ? this.api.generation(id) : this.api.video(id);
    (read as Promise<RecordOf<K>>).then(
      (record) => active() && (this.#changes.get(key) ?? 0) === seen && deliver(record),
      (error: unknown) => {
        if (!active()) return;
        if (!passes(error)) return onError(error);
        // The socket is down too: its reconnect replays what was missed, then re-reads every
        // watched record. Reading on our own meanwhile could skip ahead of that replay.
        if (!this.#positioned) {
          this.#stale = true;
          return;
        }
        const retry = setTimeout(() => {
          this.#rereads.delete(retry);
          this.#readInto(kind, id, active, deliver, onError, Math.min(delay * 2, RECONNECT_MAX_MS));
        }, jittered(delay));
        this.#rereads.add(retry);
      },
    );
  }

  /** Opens the socket, unless it is open, waiting to reconnect, refused or not needed. */
  #connect(): void {
    const session = this.api.session;
    if (this.#socket || this.#retry !== undefined || this.#refused || this.#watchers.size === 0 || !session) return;
    const socket = new WebSocket(this.url);
    this.#socket = socket;
    socket.onopen = () => socket.send(JSON.stringify({ session, after: this.#cursor }));
    socket.onmessage = ({ data }) => {
      if (this.#socket !== socket || typeof data !== 'string') return;
      if (this.#positioned) {
        const { cursor, change } = JSON.parse(data) as LiveChange;
        this.#cursor = cursor;
        this.#dispatch(change, true);
        return;
      }
      const feed = JSON.parse(data) as ChangeFeed;
      this.#positioned = true;
      this.#delay = RECONNECT_MIN_MS;
      this.#cursor = feed.cursor;
      for (const change of feed.changes ?? []) this.#dispatch(change, true);
      if (feed.changes === null || this.#stale) {
        this.#stale = false;
        this.#refresh();
      }
      this.#wake();
    };
    socket.onclose = ({ code }) => {
      if (this.#socket !== socket) return;
      this.#socket = undefined;
      this.#positioned = false;
      if (code === NOT_AUTHENTICATED) {
        this.#refused = true;
        this.api.onSessionRefused?.(session);
      } else {
        this.#stale = true;
        this.#retry = setTimeout(() => {
          this.#retry = undefined;
          this.#connect();
        }, jittered(this.#delay));
        this.#delay = Math.min(this.#delay * 2, RECONNECT_MAX_MS);
      }
      this.#wake();
    };
  }

  /** Lets the watchers waiting for the socket read (after a drop too: the reconnect re-reads). */
  #wake(): void {
    for (const resolve of this.#waiting.splice(0)) resolve();
  }

  /** Re-reads every watched record, so that no change is lost in a gap the service cannot replay. */
  #refresh(): void {
    for (const key of [...this.#watchers.keys()]) {
      const [kind, id] = key.split(/:(.*)/s) as [Kind, string];
      this.#readInto(
        kind,
        id,
        () => this.#watchers.has(key),
        (record) => this.#dispatch({ kind, record } as Change),
        // A record gone or a session refused: the watchers' own reads and the session say so.
        () => {},
      );
    }
  }

  /** Gives `change` to its record's watchers; `live`: it came on the socket (reads older than it are stale). */
  #dispatch(change: Change, live = false): void {
    const id = change.kind === 'generation' ? change.record.requestId : change.record.id;
    const key = `${change.kind}:${id}`;
    const watchers = this.#watchers.get(key);
    if (!watchers) return;
    if (live) this.#changes.set(key, (this.#changes.get(key) ?? 0) + 1);
    for (const watcher of [...watchers]) (watcher as (r: unknown) => void)(change.record);
  }

  /** Closes the socket; the next one starts from a new cursor. */
  #stop(): void {
    const socket = this.#socket;
    this.#socket = undefined;
    socket?.close();
    clearTimeout(this.#retry);
    this.#retry = undefined;
    for (const retry of this.#rereads) clearTimeout(retry);
    this.#rereads.clear();
    this.#changes.clear();
    this.#positioned = false;
    this.#cursor = undefined;
    this.#delay = RECONNECT_MIN_MS;
    this.#refused = false;
    this.#stale = false;
  }
}
