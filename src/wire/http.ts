/**
 * The service's HTTP API as JSON (docs/service.md, "Objects"): the one typing of what its routes
 * and status streams send, read by both ends — the service builds its answers to these types
 * (`packages/service/src/store/shapes.ts`) and the studio page reads them (`pages/client.ts`).
 * Types only: nothing here reaches a bundle.
 */
import type { ActionStatus, Duration, Language, Metadata, Progress, StatusError } from './values.js';
import type { Render, Video } from './api.js';

/** A topic search and what it found. `title`, `description` and `images` fill in while PROCESSING. */
export interface TopicJSON {
  id: string;
  requestId: string;
  sourceURL: string;
  status: ActionStatus;
  error?: StatusError;
  /** How far the search is. */
  progress?: Progress;
  title?: string;
  description?: string;
  /** The source page's image URLs, as found (never shown: the studio shows `pictures`). */
  images: string[];
  /**
   * The service's checked copies of `images` that it could use, as paths on its own origin
   * (`/media/topics/<topicId>/<n>.jpg|png`), in page order: the only pictures the studio shows.
   */
  pictures: string[];
}

/** A video generation. */
export interface GenerationJSON {
  requestId: string;
  videoId: string;
  topicId: string;
  status: ActionStatus;
  error?: StatusError;
  /** How far the generation is. */
  progress?: Progress;
  /** The partner's metadata, exactly as given; absent when none was given. */
  metadata?: Metadata;
}

/** A render of a video, as the SDK's `Render`, with why it failed. */
export interface RenderJSON extends Render {
  error?: StatusError;
}

/** A video, as the SDK's `Video`, with the contract's types for its language, duration and renders. */
export interface VideoJSON extends Omit<Video, 'language' | 'duration' | 'renders'> {
  duration: Duration;
  language: Language;
  renders: RenderJSON[];
}
