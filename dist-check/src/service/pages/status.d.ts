/**
 * Live status of topics, generations and videos for the page, shared by every watcher. While
 * anything is watched it holds one WebSocket to the service (`/api/live`), over which every change
 * of the account is pushed: no polling, and — unlike a held server-sent event stream — a WebSocket
 * does not take one of the browser's 6 HTTP/1.1 connections per host, so a page with many Plugin
 * instances still has its API calls. A dropped socket reconnects with backoff and its last cursor,
 * and the service replays what it missed; when it cannot (it restarted, or the gap is too long),
 * and after any reconnect, the watched records are re-read, and the host drops any status it
 * already has.
 */
import type { ApiClient, Change, Generation, Topic } from './client.js';
import type { Video } from '../../wire/api.js';
type Kind = Change['kind'];
type RecordOf<K extends Kind> = K extends 'topic' ? Topic : K extends 'generation' ? Generation : Video;
export declare class StatusHub {
  #private;
  readonly api: ApiClient;
  readonly url: string;
  constructor(api: ApiClient, url?: string);
  /**
   * Calls `watcher` with the current record at once, then with every change. Returns the stop
   * function. Errors reading the current record go to `onError`.
   */
  watch<K extends Kind>(
    kind: K,
    id: string,
    watcher: (record: RecordOf<K>) => void,
    onError?: (error: unknown) => void,
  ): () => void;
  /** Closes the socket and forgets every watcher (logout, unload). */
  reset(): void;
  /** Starts over for a new session, keeping the watchers and re-reading them. */
  restart(): void;
}
export {};
//# sourceMappingURL=status.d.ts.map
