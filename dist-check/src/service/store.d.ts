/**
 * The service's data: accounts, sessions, topics, generations, videos and used token IDs, kept in
 * memory and, with a data file, written to disk atomically (temp file + rename), debounced.
 *
 * Every change goes through {@link Store.changed}, which schedules the write and tells the
 * listeners (the status streams). Node runs one request at a time between awaits, so a
 * check-then-insert done without an await in between (externalID, jti) cannot race.
 */
import type { Storyboard } from './render/storyboard.js';
/** Status of a topic search, a generation or a render. */
export type Status = 'PENDING' | 'PROCESSING' | 'COMPLETE' | 'FAILED';
/** Why a background action failed. */
export interface StatusError {
  code: string;
  message: string;
}
/** Who a record belongs to. Records of other partners or accounts are invisible. */
export interface Owner {
  partnerID: string;
  accountID: string;
}
/** A stored account. */
export interface AccountRecord {
  partnerID: string;
  id: string;
  externalID?: string;
  firstName?: string;
  lastName?: string;
  emailAddress?: string;
  companyName?: string;
  phone?: string;
  city?: string;
  state?: string;
  createdAt: string;
  updatedAt: string;
  /**
   * Set on accounts made by the uncontrolled-mode sign-in, the only ones that sign-in (which takes
   * no secret) may enter: an account made with a partner's token is reachable only with a token.
   */
  signIn?: true;
}
/** A login session; stored under the SHA-256 of its token so the data file holds no usable token. */
export interface SessionRecord extends Owner {
  createdAt: string;
}
/** Something with a status that moves forward only (see {@link advance}). */
export interface StatusRecord {
  status: Status;
  error?: StatusError;
  updatedAt: string;
}
/** A stored topic search and the topic it fills in. */
export interface TopicRecord extends Owner, StatusRecord {
  id: string;
  requestId: string;
  sourceURL: string;
  title?: string;
  description?: string;
  images: string[];
  /** The page's headings and key sentences, for the storyboard (not part of the public topic). */
  headings?: string[];
  sentences?: string[];
  /** The images downloaded and kept by the service (`media: real`), in page order. */
  files?: string[];
  createdAt: string;
}
/** A stored video generation request. */
export interface GenerationRecord extends Owner, StatusRecord {
  requestId: string;
  videoId: string;
  topicId: string;
  aspectRatio: '16:9' | '4:5';
  duration: 5 | 15 | 30;
  language: string;
  videoInstructions?: string;
  createdAt: string;
}
/** A stored render of a completed video. */
export interface RenderRecord {
  format: string;
  status: Status;
  error?: StatusError;
  renderedAt?: string;
}
/** A stored video. Media URLs are not stored: they depend on where the service listens. */
export interface VideoRecord extends Owner {
  id: string;
  name: string;
  topicId?: string;
  /** The generation that made this video. */
  requestId?: string;
  aspectRatio: '16:9' | '4:5';
  duration: 5 | 15 | 30;
  language: string;
  createdAt: string;
  updatedAt: string;
  isCompleted: boolean;
  /** Set once the generation completed: the thumbnail is then served. */
  hasThumbnail: boolean;
  renders: RenderRecord[];
  /** `mp4` (real renders, `media: real`) or `svg` (stand-ins); `svg` when absent. */
  media?: 'mp4' | 'svg';
  /** What the renders are made from (real media only). */
  storyboard?: Storyboard;
  /** Whether the preview render (made when the generation completes) is there. */
  hasPreview?: boolean;
}
/** A change the status streams may forward. */
export type Change =
  | {
      kind: 'topic';
      record: TopicRecord;
    }
  | {
      kind: 'generation';
      record: GenerationRecord;
    }
  | {
      kind: 'video';
      record: VideoRecord;
    };
/** The current time as an ISO-8601 string. */
export declare const nowISO: () => string;
/** A new unguessable ID with a readable prefix (`acct_…`, `vid_…`). */
export declare const newId: (prefix: string) => string;
/** The stored key of a session token. */
export declare const sessionKey: (token: string) => string;
/** The service's state, with optional atomic persistence to one JSON file. */
export declare class Store {
  #private;
  readonly accounts: Map<string, AccountRecord>;
  readonly sessions: Map<string, SessionRecord>;
  readonly topics: Map<string, TopicRecord>;
  readonly generations: Map<string, GenerationRecord>;
  readonly videos: Map<string, VideoRecord>;
  /** `partnerID \n jti` → epoch seconds after which the jti may be forgotten. */
  readonly usedJtis: Map<string, number>;
  private constructor();
  /** Opens the store, loading `file` if it exists. Without a file the data lives in memory. */
  static open(file?: string): Promise<Store>;
  /** Records a change: schedules a write and, for status-bearing records, tells the listeners. */
  changed(change?: Change): void;
  /** How many listeners are subscribed (the open streams). */
  get listenerCount(): number;
  /** Calls `listener` on every topic, generation and video change. Returns the unsubscribe. */
  subscribe(listener: (change: Change) => void): () => void;
  /** Adds an account; refuses an externalID the partner already uses. */
  addAccount(account: AccountRecord): void;
  /** The partner's account with this ID, or undefined. */
  findAccount(partnerID: string, accountID: string): AccountRecord | undefined;
  /** The partner's account with this externalID, or undefined. */
  findAccountByExternalID(partnerID: string, externalID: string): AccountRecord | undefined;
  /** Opens a session on an account; returns its token (only its hash is kept). */
  createSession(owner: Owner): string;
  /** The account's video, or a `video_not_found` error. */
  ownedVideo(owner: Owner, id: string): VideoRecord;
  /** The account's topic, or a `topic_not_found` error. */
  ownedTopic(owner: Owner, id: string): TopicRecord;
  /** The account's generation, or a `generation_not_found` error. */
  ownedGeneration(owner: Owner, requestId: string): GenerationRecord;
  /** Every record of a collection that belongs to the account, newest first. */
  ownedBy<
    T extends Owner & {
      createdAt: string;
    },
  >(collection: Map<string, T>, owner: Owner): T[];
  /** Writes any pending change now and waits for it. */
  flush(): Promise<void>;
  /** Flushes and stops the debounce timer. The store stays readable. */
  close(): Promise<void>;
}
/**
 * Moves a topic, generation or render to its next status. Only PENDING → PROCESSING → COMPLETE and
 * PENDING|PROCESSING → FAILED exist (COMPLETE and FAILED are final); anything else is a bug in the
 * caller, reported as `invalid_state`. The caller then records the change with {@link Store.changed}.
 */
export declare function advance(
  record: {
    status: Status;
    error?: StatusError;
    updatedAt?: string;
  },
  status: Status,
  error?: StatusError,
): void;
//# sourceMappingURL=store.d.ts.map
