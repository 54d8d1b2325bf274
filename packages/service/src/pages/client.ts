/**
 * The iframe page's client for the service's JSON API (same origin). Errors come back as
 * `VideoPluginError`s rebuilt from the API's `{ error: { code, message, data? } }` bodies.
 */
import {
  ConnectionError,
  deserializeError,
  type SerializedError,
  type Account,
  type GenerationJSON,
  type SceneSources,
  type TopicJSON,
  type VideoJSON,
} from 'video-plugin/internal';

/** A scene as the editor edits it; `image` indexes `EditorBoard.images`, or is null. */
export interface SceneDraft {
  heading: string;
  body?: string;
  narration: string;
  image: number | null;
  /** Where the scene came from; absent in storyboards older than this field. */
  sources?: SceneSources;
}

/**
 * The storyboard in the editor (real media): the scenes and the topic's images to pick from. The
 * API's `editable` is left out: the editor derives it from the video (`scenesEditable`).
 */
export interface EditorBoard {
  scenes: SceneDraft[];
  images: string[];
}

/** A topic, a generation and a video as the API sends them (the contract's JSON types). */
export type Topic = TopicJSON;
export type Generation = GenerationJSON;

export interface SessionResult {
  account: Account;
  session: string;
}

/** One change of a topic, generation or video. */
export type Change =
  { kind: 'topic'; record: Topic } | { kind: 'generation'; record: Generation } | { kind: 'video'; record: VideoJSON };

/** The status socket's first answer, as the change feed's (`GET /api/changes`): null = re-read. */
export interface ChangeFeed {
  cursor: string;
  changes: Change[] | null;
}

/** Each later message of the status socket: one change and the cursor after it. */
export interface LiveChange {
  cursor: string;
  change: Change;
}

export class ApiClient {
  /** The session token of the logged-in account, if any. */
  session: string | undefined;
  /**
   * Told when the service refuses `session` as unknown (`not_authenticated`): it restarted without
   * its data, or the session was ended elsewhere. Called before the refused request rejects.
   */
  onSessionRefused: ((session: string) => void) | undefined;

  constructor(readonly partnerID: string) {}

  async request<T>(
    method: string,
    path: string,
    body?: unknown,
    { quiet = false, idempotencyKey }: { quiet?: boolean; idempotencyKey?: string | undefined } = {},
  ): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const session = this.session;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    if (session) headers.authorization = `Bearer ${session}`;
    let response: Response;
    try {
      response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (cause) {
      throw new ConnectionError(`The video service could not be reached (${String(cause)}). Try again.`, {
        retryable: true,
      });
    }
    if (response.status === 204) return undefined as T;
    const payload = (await response.json().catch(() => ({}))) as { error?: SerializedError };
    if (!response.ok) {
      if (session && !quiet && payload.error?.code === 'not_authenticated') this.onSessionRefused?.(session);
      throw deserializeError(
        payload.error ?? { code: 'internal_error', message: `The service answered ${response.status}.` },
      );
    }
    return payload as T;
  }

  /** Whether `origin` may embed the studio; rejects (account_methods_disabled) when the partner lacks `authMode`. */
  originAllowed(
    origin: string,
    authMode: string,
  ): Promise<{ allowed: true } | { allowed: false; refusal: SerializedError }> {
    return this.request(
      'GET',
      `/api/partners/${encodeURIComponent(this.partnerID)}/origin-check?origin=${encodeURIComponent(origin)}&authMode=${encodeURIComponent(authMode)}`,
    );
  }
  createAccount(token: string): Promise<SessionResult> {
    return this.request('POST', '/api/accounts', { token, partnerID: this.partnerID });
  }
  login(token: string): Promise<SessionResult> {
    return this.request('POST', '/api/sessions', { token, partnerID: this.partnerID });
  }
  /** The UI's own sign-in (uncontrolled mode): by email address, creating the account if needed. */
  signInUncontrolled(emailAddress: string): Promise<SessionResult> {
    return this.request('POST', `/api/partners/${encodeURIComponent(this.partnerID)}/sign-in`, { emailAddress });
  }
  /** Ends the session; a session the service no longer knows is ended all the same (quiet). */
  logout(): Promise<void> {
    return this.request('DELETE', '/api/sessions/current', undefined, { quiet: true });
  }
  account(): Promise<Account> {
    return this.request<{ account: Account }>('GET', '/api/account').then((r) => r.account);
  }
  updateAccount(info: Record<string, string>): Promise<Account> {
    return this.request<{ account: Account }>('PATCH', '/api/account', info).then((r) => r.account);
  }
  videos(): Promise<VideoJSON[]> {
    return this.request<{ videos: VideoJSON[] }>('GET', '/api/videos').then((r) => r.videos);
  }
  video(id: string): Promise<VideoJSON> {
    return this.request<{ video: VideoJSON }>('GET', `/api/videos/${encodeURIComponent(id)}`).then((r) => r.video);
  }
  renameVideo(id: string, name: string): Promise<VideoJSON> {
    return this.saveVideo(id, { name });
  }
  /** Saves the name and, with real media, the scenes (then the preview is rendered again). */
  saveVideo(id: string, changes: { name?: string; scenes?: SceneDraft[] }): Promise<VideoJSON> {
    return this.request<{ video: VideoJSON }>('PATCH', `/api/videos/${encodeURIComponent(id)}`, changes).then(
      (r) => r.video,
    );
  }
  /** The video's storyboard for the editor (no scenes with placeholder media). */
  storyboard(id: string): Promise<EditorBoard> {
    return this.request<EditorBoard>('GET', `/api/videos/${encodeURIComponent(id)}/storyboard`);
  }
  /** Completes the video with `edits` not saved yet (a save's changes): saved with it, or neither is done. */
  completeVideo(id: string, edits: { name?: string; scenes?: SceneDraft[] } = {}): Promise<VideoJSON> {
    return this.request<{ video: VideoJSON }>('POST', `/api/videos/${encodeURIComponent(id)}/complete`, edits).then(
      (r) => r.video,
    );
  }
  /** `replayed`: the idempotency key was used before, and this is the search it started. */
  startTopicSearch(
    sourceURL: string,
    idempotencyKey?: string,
  ): Promise<{ topicId: string; requestId: string; replayed?: true }> {
    return this.request('POST', '/api/topics', { sourceURL }, { idempotencyKey });
  }
  topic(id: string): Promise<Topic> {
    return this.request<{ topic: Topic }>('GET', `/api/topics/${encodeURIComponent(id)}`).then((r) => r.topic);
  }
  /** `replayed`: the idempotency key was used before, and this is the generation it started. */
  startGeneration(
    params: unknown,
    idempotencyKey?: string,
  ): Promise<{ requestId: string; videoId: string; topicId: string; replayed?: true }> {
    return this.request('POST', '/api/generations', params, { idempotencyKey });
  }
  generation(requestId: string): Promise<Generation> {
    return this.request<{ generation: Generation }>('GET', `/api/generations/${encodeURIComponent(requestId)}`).then(
      (r) => r.generation,
    );
  }
}
