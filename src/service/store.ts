/**
 * The service's data: accounts, sessions, topics, generations, videos and used token IDs, kept in
 * memory and, with a data file, written to disk atomically (temp file + rename), debounced.
 *
 * Every change goes through {@link Store.changed}, which schedules the write and tells the
 * listeners (the status streams). Node runs one request at a time between awaits, so a
 * check-then-insert done without an await in between (externalID, jti) cannot race.
 */
import type { Storyboard } from './render/storyboard.js';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { InvalidStateError, NotFoundError, AccountAlreadyExistsError } from '../errors.js';

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
  | { kind: 'topic'; record: TopicRecord }
  | { kind: 'generation'; record: GenerationRecord }
  | { kind: 'video'; record: VideoRecord };

const NEXT: Record<Status, readonly Status[]> = {
  PENDING: ['PROCESSING', 'FAILED'],
  PROCESSING: ['COMPLETE', 'FAILED'],
  COMPLETE: [],
  FAILED: [],
};

const FORMAT_VERSION = 1;
/** Writes are coalesced over this window: a burst of changes costs one write. */
const SAVE_DEBOUNCE_MS = 25;

/** The current time as an ISO-8601 string. */
export const nowISO = (): string => new Date().toISOString();

/** A new unguessable ID with a readable prefix (`acct_…`, `vid_…`). */
export const newId = (prefix: string): string => `${prefix}_${randomUUID().replaceAll('-', '')}`;

/** The stored key of a session token. */
export const sessionKey = (token: string): string => createHash('sha256').update(token).digest('base64url');

/** The service's state, with optional atomic persistence to one JSON file. */
export class Store {
  readonly accounts = new Map<string, AccountRecord>();
  readonly sessions = new Map<string, SessionRecord>();
  readonly topics = new Map<string, TopicRecord>();
  readonly generations = new Map<string, GenerationRecord>();
  readonly videos = new Map<string, VideoRecord>();
  /** `partnerID \n jti` → epoch seconds after which the jti may be forgotten. */
  readonly usedJtis = new Map<string, number>();

  readonly #accountByExternalID = new Map<string, string>();
  readonly #listeners = new Set<(change: Change) => void>();
  readonly #file: string | undefined;
  #saveTimer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();
  #tempCounter = 0;

  private constructor(file: string | undefined) {
    this.#file = file;
  }

  /** Opens the store, loading `file` if it exists. Without a file the data lives in memory. */
  static async open(file?: string): Promise<Store> {
    const store = new Store(file);
    if (file !== undefined) await store.#load(file);
    return store;
  }

  /** Records a change: schedules a write and, for status-bearing records, tells the listeners. */
  changed(change?: Change): void {
    this.#scheduleSave();
    if (change) for (const listener of this.#listeners) listener(change);
  }

  /** How many listeners are subscribed (the open streams). */
  get listenerCount(): number {
    return this.#listeners.size;
  }

  /** Calls `listener` on every topic, generation and video change. Returns the unsubscribe. */
  subscribe(listener: (change: Change) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  // --- accounts and sessions ---

  /** Adds an account; refuses an externalID the partner already uses. */
  addAccount(account: AccountRecord): void {
    if (account.externalID !== undefined) {
      const key = `${account.partnerID}\n${account.externalID}`;
      if (this.#accountByExternalID.has(key)) {
        throw new AccountAlreadyExistsError(
          'account_already_exists',
          `An account with externalID "${account.externalID}" already exists for partner "${account.partnerID}". Log in with loginAccount instead, or use another externalID.`,
          { externalID: account.externalID },
        );
      }
      this.#accountByExternalID.set(key, account.id);
    }
    this.accounts.set(account.id, account);
    this.changed();
  }

  /** The partner's account with this ID, or undefined. */
  findAccount(partnerID: string, accountID: string): AccountRecord | undefined {
    const account = this.accounts.get(accountID);
    return account?.partnerID === partnerID ? account : undefined;
  }

  /** The partner's account with this externalID, or undefined. */
  findAccountByExternalID(partnerID: string, externalID: string): AccountRecord | undefined {
    const id = this.#accountByExternalID.get(`${partnerID}\n${externalID}`);
    return id === undefined ? undefined : this.accounts.get(id);
  }

  /** Opens a session on an account; returns its token (only its hash is kept). */
  createSession(owner: Owner): string {
    const token = randomBytes(32).toString('base64url');
    this.sessions.set(sessionKey(token), {
      partnerID: owner.partnerID,
      accountID: owner.accountID,
      createdAt: nowISO(),
    });
    this.changed();
    return token;
  }

  // --- owned records: another partner's or account's record is reported as missing ---

  /** The account's video, or a `video_not_found` error. */
  ownedVideo(owner: Owner, id: string): VideoRecord {
    const video = this.videos.get(id);
    if (video && isOwner(video, owner)) return video;
    throw new NotFoundError('video_not_found', `No video "${id}" on this account.`, { videoId: id });
  }

  /** The account's topic, or a `topic_not_found` error. */
  ownedTopic(owner: Owner, id: string): TopicRecord {
    const topic = this.topics.get(id);
    if (topic && isOwner(topic, owner)) return topic;
    throw new NotFoundError(
      'topic_not_found',
      `No topic "${id}" on this account. Use a topicId returned by startTopicSearch for this account.`,
      { topicId: id },
    );
  }

  /** The account's generation, or a `generation_not_found` error. */
  ownedGeneration(owner: Owner, requestId: string): GenerationRecord {
    const generation = this.generations.get(requestId);
    if (generation && isOwner(generation, owner)) return generation;
    throw new NotFoundError(
      'generation_not_found',
      `No video generation "${requestId}" on this account. Use a requestId returned by startVideoGeneration.`,
      { requestId },
    );
  }

  /** Every record of a collection that belongs to the account, newest first. */
  ownedBy<T extends Owner & { createdAt: string }>(collection: Map<string, T>, owner: Owner): T[] {
    return [...collection.values()]
      .filter((record) => isOwner(record, owner))
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  }

  // --- persistence ---

  /** Writes any pending change now and waits for it. */
  async flush(): Promise<void> {
    if (this.#file === undefined) return;
    clearTimeout(this.#saveTimer);
    this.#saveTimer = undefined;
    // Chained so that writes never interleave; each writes the state as it is when it runs.
    this.#writing = this.#writing.then(() => this.#write(this.#file as string));
    return this.#writing;
  }

  /** Flushes and stops the debounce timer. The store stays readable. */
  async close(): Promise<void> {
    await this.flush();
    this.#listeners.clear();
  }

  #scheduleSave(): void {
    if (this.#file === undefined || this.#saveTimer) return;
    this.#saveTimer = setTimeout(() => {
      this.#saveTimer = undefined;
      void this.flush();
    }, SAVE_DEBOUNCE_MS);
  }

  async #write(file: string): Promise<void> {
    const data = JSON.stringify({
      format: 'video-plugin-service',
      version: FORMAT_VERSION,
      accounts: [...this.accounts.values()],
      sessions: [...this.sessions],
      topics: [...this.topics.values()],
      generations: [...this.generations.values()],
      videos: [...this.videos.values()],
      usedJtis: [...this.usedJtis],
    });
    // A reader (or a crash) sees either the old file or the new one, never half of one.
    const temp = `${file}.${process.pid}.${++this.#tempCounter}.tmp`;
    try {
      const handle = await open(temp, 'w', 0o600);
      try {
        await handle.writeFile(data, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, file);
    } catch (error) {
      await unlink(temp).catch(() => {});
      // The service keeps running on its in-memory state; the next change retries the write.
      console.error(`video-plugin-service: could not write ${file}: ${(error as Error).message}`);
    }
  }

  async #load(file: string): Promise<void> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw new Error(`Cannot read the data file ${file}: ${(error as Error).message}`, { cause: error });
    }
    let data: PersistedState;
    try {
      data = JSON.parse(text) as PersistedState;
      if (data.format !== 'video-plugin-service' || data.version !== FORMAT_VERSION) throw new Error('unknown format');
    } catch (error) {
      throw new Error(
        `The data file ${file} is not a video-plugin-service data file (${(error as Error).message}). Move it away or choose another file.`,
        { cause: error },
      );
    }
    for (const account of data.accounts) {
      this.accounts.set(account.id, account);
      if (account.externalID !== undefined) {
        this.#accountByExternalID.set(`${account.partnerID}\n${account.externalID}`, account.id);
      }
    }
    for (const [key, session] of data.sessions) this.sessions.set(key, session);
    for (const topic of data.topics) this.topics.set(topic.id, topic);
    for (const generation of data.generations) this.generations.set(generation.requestId, generation);
    for (const video of data.videos) this.videos.set(video.id, video);
    for (const [key, until] of data.usedJtis) this.usedJtis.set(key, until);
  }
}

interface PersistedState {
  format: string;
  version: number;
  accounts: AccountRecord[];
  sessions: [string, SessionRecord][];
  topics: TopicRecord[];
  generations: GenerationRecord[];
  videos: VideoRecord[];
  usedJtis: [string, number][];
}

/**
 * Moves a topic, generation or render to its next status. Only PENDING → PROCESSING → COMPLETE and
 * PENDING|PROCESSING → FAILED exist (COMPLETE and FAILED are final); anything else is a bug in the
 * caller, reported as `invalid_state`. The caller then records the change with {@link Store.changed}.
 */
export function advance(
  record: { status: Status; error?: StatusError; updatedAt?: string },
  status: Status,
  error?: StatusError,
): void {
  if (!NEXT[record.status].includes(status)) {
    throw new InvalidStateError('invalid_state', `Cannot move from ${record.status} to ${status}.`, {
      status: record.status,
    });
  }
  record.status = status;
  if (error) record.error = error;
  if (record.updatedAt !== undefined) record.updatedAt = nowISO();
}

function isOwner(record: Owner, owner: Owner): boolean {
  return record.partnerID === owner.partnerID && record.accountID === owner.accountID;
}
