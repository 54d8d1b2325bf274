/** Reconnect delays: doubled after each failure, from the first to the last. */
const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 5000;
/** The service's close code for a missing or ended session: reconnecting would not help. */
const NOT_AUTHENTICATED = 4401;
/** `ms` give or take 20 %, so that the frames of one page do not reconnect in step. */
const jittered = (ms) => ms * (0.8 + Math.random() * 0.4);
export class StatusHub {
  #watchers = new Map();
  #socket;
  /** The socket has answered its first message: changes are flowing. */
  #positioned = false;
  /** Where the changes got to; sent on reconnect, so that the service replays the gap. */
  #cursor;
  #retry;
  #delay = RECONNECT_MIN_MS;
  /** The service refused the session: no reconnect until the session changes. */
  #refused = false;
  /** A socket dropped (or the session is new): re-read every watched record once positioned. */
  #stale = false;
  /** Watchers waiting for the socket before their first read, so that no change falls between. */
  #waiting = [];
  constructor(api, url = `${location.origin.replace(/^http/, 'ws')}/api/live`) {
    this.api = api;
    this.url = url;
  }
  /**
   * Calls `watcher` with the current record at once, then with every change. Returns the stop
   * function. Errors reading the current record go to `onError`.
   */
  watch(kind, id, watcher, onError) {
    const key = `${kind}:${id}`;
    let set = this.#watchers.get(key);
    if (!set) this.#watchers.set(key, (set = new Set()));
    set.add(watcher);
    let active = true;
    void this.#ready()
      .then(() => this.#read(kind, id))
      .then((record) => active && watcher(record))
      .catch((error) => active && onError?.(error));
    return () => {
      active = false;
      set.delete(watcher);
      if (set.size === 0) this.#watchers.delete(key);
      if (this.#watchers.size > 0) return;
      this.#stop();
      this.#waiting = [];
    };
  }
  /** Closes the socket and forgets every watcher (logout, unload). */
  reset() {
    this.#watchers.clear();
    this.#stop();
    this.#waiting = [];
  }
  /** Starts over for a new session, keeping the watchers and re-reading them. */
  restart() {
    this.#stop();
    this.#stale = this.#watchers.size > 0;
    this.#connect();
  }
  /**
   * Resolves once changes flow. At once when they cannot yet (no session, refused, or waiting to
   * reconnect): the read then says so or succeeds, and the re-read after reconnecting follows up.
   */
  #ready() {
    if (this.#positioned || this.#refused || this.#retry !== undefined || !this.api.session) return Promise.resolve();
    const ready = new Promise((resolve) => this.#waiting.push(resolve));
    this.#connect();
    return ready;
  }
  #read(kind, id) {
    const read =
      kind === 'topic' ? this.api.topic(id) : kind === 'generation' ? this.api.generation(id) : this.api.video(id);
    return read;
  }
  /** Opens the socket, unless it is open, waiting to reconnect, refused or not needed. */
  #connect() {
    const session = this.api.session;
    if (this.#socket || this.#retry !== undefined || this.#refused || this.#watchers.size === 0 || !session) return;
    const socket = new WebSocket(this.url);
    this.#socket = socket;
    socket.onopen = () => socket.send(JSON.stringify({ session, after: this.#cursor }));
    socket.onmessage = ({ data }) => {
      if (this.#socket !== socket || typeof data !== 'string') return;
      if (this.#positioned) {
        const { cursor, change } = JSON.parse(data);
        this.#cursor = cursor;
        this.#dispatch(change);
        return;
      }
      const feed = JSON.parse(data);
      this.#positioned = true;
      this.#delay = RECONNECT_MIN_MS;
      this.#cursor = feed.cursor;
      for (const change of feed.changes ?? []) this.#dispatch(change);
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
      if (code === NOT_AUTHENTICATED) this.#refused = true;
      else {
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
  #wake() {
    for (const resolve of this.#waiting.splice(0)) resolve();
  }
  /** Re-reads every watched record, so that no change is lost in a gap the service cannot replay. */
  #refresh() {
    for (const key of [...this.#watchers.keys()]) {
      const [kind, id] = key.split(/:(.*)/s);
      this.#read(kind, id).then(
        (record) => this.#dispatch({ kind, record }),
        () => {},
      );
    }
  }
  #dispatch(change) {
    const id = change.kind === 'generation' ? change.record.requestId : change.record.id;
    for (const watcher of [...(this.#watchers.get(`${change.kind}:${id}`) ?? [])]) watcher(change.record);
  }
  /** Closes the socket; the next one starts from a new cursor. */
  #stop() {
    const socket = this.#socket;
    this.#socket = undefined;
    socket?.close();
    clearTimeout(this.#retry);
    this.#retry = undefined;
    this.#positioned = false;
    this.#cursor = undefined;
    this.#delay = RECONNECT_MIN_MS;
    this.#refused = false;
    this.#stale = false;
  }
}
//# sourceMappingURL=status.js.map
