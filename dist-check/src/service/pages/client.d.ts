/**
 * The iframe page's client for the service's JSON API (same origin). Errors come back as
 * `VideoPluginError`s rebuilt from the API's `{ error: { code, message, data? } }` bodies.
 */
import type { EditorBoard, SceneDraft } from './views.js';
import type { Account, Video } from '../../wire/api.js';
export interface Topic {
  id: string;
  requestId: string;
  sourceURL: string;
  status: 'PENDING' | 'PROCESSING' | 'COMPLETE' | 'FAILED';
  error?: {
    code: string;
    message: string;
  };
  title?: string;
  description?: string;
  images: string[];
}
export interface Generation {
  requestId: string;
  videoId: string;
  topicId: string;
  status: Topic['status'];
  error?: {
    code: string;
    message: string;
  };
}
export interface SessionResult {
  account: Account;
  session: string;
}
/** One change of a topic, generation or video. */
export type Change =
  | {
      kind: 'topic';
      record: Topic;
    }
  | {
      kind: 'generation';
      record: Generation;
    }
  | {
      kind: 'video';
      record: Video;
    };
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
export declare class ApiClient {
  readonly partnerID: string;
  /** The session token of the logged-in account, if any. */
  session: string | undefined;
  constructor(partnerID: string);
  request<T>(method: string, path: string, body?: unknown): Promise<T>;
  originAllowed(origin: string): Promise<{
    allowed: boolean;
  }>;
  createAccount(token: string): Promise<SessionResult>;
  login(token: string): Promise<SessionResult>;
  /** The UI's own sign-in (uncontrolled mode): by email address, creating the account if needed. */
  signInUncontrolled(emailAddress: string): Promise<SessionResult>;
  logout(): Promise<void>;
  account(): Promise<Account>;
  updateAccount(info: Record<string, string>): Promise<Account>;
  videos(): Promise<Video[]>;
  video(id: string): Promise<Video>;
  renameVideo(id: string, name: string): Promise<Video>;
  /** Saves the name and, with real media, the scenes (then the preview is rendered again). */
  saveVideo(
    id: string,
    changes: {
      name?: string;
      scenes?: SceneDraft[];
    },
  ): Promise<Video>;
  /** The video's storyboard for the editor (no scenes with placeholder media). */
  storyboard(id: string): Promise<EditorBoard>;
  completeVideo(id: string): Promise<Video>;
  startTopicSearch(sourceURL: string): Promise<{
    topicId: string;
    requestId: string;
  }>;
  topic(id: string): Promise<Topic>;
  startGeneration(params: unknown): Promise<{
    requestId: string;
    videoId: string;
    topicId: string;
  }>;
  generation(requestId: string): Promise<Generation>;
}
//# sourceMappingURL=client.d.ts.map
