import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { InvalidStateError, NotFoundError, AccountAlreadyExistsError } from '../errors.js';
const NEXT = {
  PENDING: ['PROCESSING', 'FAILED'],
  PROCESSING: ['COMPLETE', 'FAILED'],
  COMPLETE: [],
  FAILED: [],
};
const FORMAT_VERSION = 1;
/** Writes are coalesced over this window: a burst of changes costs one write. */
const SAVE_DEBOUNCE_MS = 25;
/** The current time as an ISO-8601 string. */
export const nowISO = () => new Date().toISOString();
/** A new unguessable ID with a readable prefix (`acct_…`, `vid_…`). */
export const newId = (prefix) => `${prefix}_${randomUUID().replaceAll('-', '')}`;
/** The stored key of a session token. */
export const sessionKey = (token) => createHash('sha256').update(token).digest('base64url');
/** The service's state, with optional atomic persistence to one JSON file. */
export class Store {
  #accountByExternalID;
  #listeners;
  #file;
  #saveTimer;
  #writing;
  #tempCounter;
  constructor(file) {
    this.accounts = new Map();
    this.sessions = new Map();
    this.topics = new Map();
    this.generations = new Map();
    this.videos = new Map();
    /** `partnerID \n jti` → epoch seconds after which the jti may be forgotten. */
    this.usedJtis = new Map();
    this.#accountByExternalID = new Map();
    this.#listeners = new Set();
    this.#writing = Promise.resolve();
    this.#tempCounter = 0;
    this.#file = file;
  }
  /** Opens the store, loading `file` if it exists. Without a file the data lives in memory. */
  static async open(file) {
    const store = new Store(file);
    if (file !== undefined) await store.#load(file);
    return store;
  }
  /** Records a change: schedules a write and, for status-bearing records, tells the listeners. */
  changed(change) {
    this.#scheduleSave();
    if (change) for (const listener of this.#listeners) listener(change);
  }
  /** How many listeners are subscribed (the open streams). */
  get listenerCount() {
    return this.#listeners.size;
  }
  /** Calls `listener` on every topic, generation and video change. Returns the unsubscribe. */
  subscribe(listener) {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  // --- accounts and sessions ---
  /** Adds an account; refuses an externalID the partner already uses. */
  addAccount(account) {
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
  findAccount(partnerID, accountID) {
    const account = this.accounts.get(accountID);
    return account?.partnerID === partnerID ? account : undefined;
  }
  /** The partner's account with this externalID, or undefined. */
  findAccountByExternalID(partnerID, externalID) {
    const id = this.#accountByExternalID.get(`${partnerID}\n${externalID}`);
    return id === undefined ? undefined : this.accounts.get(id);
  }
  /** Opens a session on an account; returns its token (only its hash is kept). */
  createSession(owner) {
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
  ownedVideo(owner, id) {
    const video = this.videos.get(id);
    if (video && isOwner(video, owner)) return video;
    throw new NotFoundError('video_not_found', `No video "${id}" on this account.`, { videoId: id });
  }
  /** The account's topic, or a `topic_not_found` error. */
  ownedTopic(owner, id) {
    const topic = this.topics.get(id);
    if (topic && isOwner(topic, owner)) return topic;
    throw new NotFoundError(
      'topic_not_found',
      `No topic "${id}" on this account. Use a topicId returned by startTopicSearch for this account.`,
      { topicId: id },
    );
  }
  /** The account's generation, or a `generation_not_found` error. */
  ownedGeneration(owner, requestId) {
    const generation = this.generations.get(requestId);
    if (generation && isOwner(generation, owner)) return generation;
    throw new NotFoundError(
      'generation_not_found',
      `No video generation "${requestId}" on this account. Use a requestId returned by startVideoGeneration.`,
      { requestId },
    );
  }
  /** Every record of a collection that belongs to the account, newest first. */
  ownedBy(collection, owner) {
    return [...collection.values()]
      .filter((record) => isOwner(record, owner))
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  }
  // --- persistence ---
  /** Writes any pending change now and waits for it. */
  async flush() {
    if (this.#file === undefined) return;
    clearTimeout(this.#saveTimer);
    this.#saveTimer = undefined;
    // Chained so that writes never interleave; each writes the state as it is when it runs.
    this.#writing = this.#writing.then(() => this.#write(this.#file));
    return this.#writing;
  }
  /** Flushes and stops the debounce timer. The store stays readable. */
  async close() {
    await this.flush();
    this.#listeners.clear();
  }
  #scheduleSave() {
    if (this.#file === undefined || this.#saveTimer) return;
    this.#saveTimer = setTimeout(() => {
      this.#saveTimer = undefined;
      void this.flush();
    }, SAVE_DEBOUNCE_MS);
  }
  async #write(file) {
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
      console.error(`video-plugin-service: could not write ${file}: ${error.message}`);
    }
  }
  async #load(file) {
    let text;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if (error.code === 'ENOENT') return;
      throw new Error(`Cannot read the data file ${file}: ${error.message}`, { cause: error });
    }
    let data;
    try {
      data = JSON.parse(text);
      if (data.format !== 'video-plugin-service' || data.version !== FORMAT_VERSION) throw new Error('unknown format');
    } catch (error) {
      throw new Error(
        `The data file ${file} is not a video-plugin-service data file (${error.message}). Move it away or choose another file.`,
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
/**
 * Moves a topic, generation or render to its next status. Only PENDING → PROCESSING → COMPLETE and
 * PENDING|PROCESSING → FAILED exist (COMPLETE and FAILED are final); anything else is a bug in the
 * caller, reported as `invalid_state`. The caller then records the change with {@link Store.changed}.
 */
export function advance(record, status, error) {
  if (!NEXT[record.status].includes(status)) {
    throw new InvalidStateError('invalid_state', `Cannot move from ${record.status} to ${status}.`, {
      status: record.status,
    });
  }
  record.status = status;
  if (error) record.error = error;
  if (record.updatedAt !== undefined) record.updatedAt = nowISO();
}
function isOwner(record, owner) {
  return record.partnerID === owner.partnerID && record.accountID === owner.accountID;
}
//# sourceMappingURL=store.js.map
