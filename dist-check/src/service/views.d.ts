/**
 * The public JSON shapes of stored records (DESIGN §3 "Objects"): what the API and the status
 * stream send. Owner fields and internal flags stay inside; media URLs are built here because they
 * depend on where the service listens.
 */
import type { AccountRecord, GenerationRecord, StatusError, Status, TopicRecord, VideoRecord } from './store.js';
/** An account as the API returns it. */
export type AccountView = Omit<AccountRecord, 'partnerID' | 'signIn'>;
/** A topic as the API returns it. `title`, `description` and `images` fill in while PROCESSING. */
export interface TopicView {
  id: string;
  requestId: string;
  sourceURL: string;
  status: Status;
  error?: StatusError;
  title?: string;
  description?: string;
  images: string[];
}
/** A video generation as the API returns it. */
export interface GenerationView {
  requestId: string;
  videoId: string;
  topicId: string;
  status: Status;
  error?: StatusError;
}
/** A video as the API returns it. */
export interface VideoView {
  id: string;
  name: string;
  topicId?: string;
  aspectRatio: '16:9' | '4:5';
  duration: 5 | 15 | 30;
  language: string;
  createdAt: string;
  updatedAt: string;
  isCompleted: boolean;
  thumbnailURL?: string;
  renders: {
    format: string;
    status: Status;
    error?: StatusError;
    url?: string;
    renderedAt?: string;
  }[];
}
/** The account without its owner field and internal flag. */
export declare function accountView({ partnerID: _partnerID, signIn: _signIn, ...account }: AccountRecord): AccountView;
/** The topic without its owner and bookkeeping fields. */
export declare function topicView(topic: TopicRecord): TopicView;
/** The generation without its owner and parameters. */
export declare function generationView(generation: GenerationRecord): GenerationView;
/** The video with absolute media URLs under `baseURL` (the service's origin). */
export declare function videoView(video: VideoRecord, baseURL: string): VideoView;
//# sourceMappingURL=views.d.ts.map
