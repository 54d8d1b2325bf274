/**
 * The zod/mini schemas of the service's answers and payloads (accounts, videos, renders, status
 * updates, the host's configuration, the events' payloads): what the service checks and what the
 * types of `api.ts` are inferred from (so this module imports the contract's values from
 * `values.ts`, never from `api.ts`). Kept apart from `api.ts`, whose constants the `Plugin` imports: these schemas are built at module top level, and a bundler without rollup's purity
 * analysis (esbuild) cannot drop them from a module the `Plugin` imports — 2.3 kB gzip of every
 * esbuild partner's page (docs/architecture.md, "Validation"). No browser module imports this one; the service reaches it
 * through `video-plugin/internal`.
 */
import * as z from 'zod/mini';
import { ASPECT_RATIOS, STATUSES, type Progress, type RenderQuality, type RenderStats } from './values.js';

const optionalString = z.optional(z.string());
const optionalBoolean = z.optional(z.boolean());

export const accountSchema = z.object({
  id: z.string(),
  externalID: optionalString,
  firstName: optionalString,
  lastName: optionalString,
  emailAddress: optionalString,
  companyName: optionalString,
  phone: optionalString,
  city: optionalString,
  state: optionalString,
  createdAt: z.string(),
  updatedAt: z.string(),
});

// No shared shape spread into the captions' object: a spread keeps every schema of this module in
// the Plugin bundle (rollup cannot prove it pure), and the SDK never parses these.
export const mediaFileSchema = z.object({
  /** Absolute URL, readable from any origin (CORS `*`), with the same access rule as the video. */
  url: z.string(),
  /** Its media type: the `Content-Type` the URL answers with, e.g. `video/mp4`. */
  type: z.string(),
  /**
   * SHA-256 of its bytes (64 hex digits; real media). The same storyboard rendered again gives the
   * same bytes, so a test can snapshot this.
   */
  sha256: optionalString,
});

/**
 * Every file a finished render has, for publishing it without another request. Real media:
 * `video` (`video/mp4`, with the captions and the chapters inside it too), `poster` (`image/jpeg`,
 * a frame of the video), `captions` (WebVTT, with the narration's `language`), `chapters` (WebVTT,
 * one cue per scene) and `transcript` (`text/plain; charset=utf-8`, the narration scene by scene).
 * Placeholder media (SVG stand-ins): `video` and `poster` (`image/svg+xml`) only — a stand-in has
 * no narration and no scenes, so no captions, chapters or transcript.
 */
export const renderFilesSchema = z.object({
  /** The video itself (the same URL as the render's `url`): `<video src>`/`<source src type>`. */
  video: mediaFileSchema,
  /** A still of the video: `<video poster>`, or an `<img>` before it plays. */
  poster: mediaFileSchema,
  /** Captions of the narration: `<track kind="captions" src srclang={language}>`. */
  captions: z.optional(z.object({ url: z.string(), type: z.string(), language: z.string(), sha256: optionalString })),
  /**
   * One chapter per scene, titled by its heading (the video's `chapters`), as WebVTT:
   * `<track kind="chapters" src srclang={captions.language}>`. Absent from renders made before
   * renders wrote it.
   */
  chapters: z.optional(mediaFileSchema),
  /** The narration as plain text, scene by scene, for a transcript beside the player. */
  transcript: z.optional(mediaFileSchema),
});

/** A chapter of a video: one scene, titled by its heading, from `start` to `end` (seconds). */
export const chapterSchema = z.object({
  title: z.string(),
  start: z.number(),
  end: z.number(),
});

export const renderSchema = z.object({
  format: z.string(),
  status: z.enum(STATUSES),
  /** How far the render is (see {@link Progress}). */
  progress: z.optional(z.custom<Progress>()),
  /** Set when `status` is `COMPLETE` (real media): what the render did (see {@link RenderStats}). */
  stats: z.optional(z.custom<RenderStats>()),
  /** Set when `status` is `COMPLETE`: the video file (also `files.video.url`). */
  url: optionalString,
  renderedAt: optionalString,
  /** Set when `status` is `COMPLETE`: the video, poster, captions, chapters and transcript, each with its type. */
  files: z.optional(renderFilesSchema),
  /**
   * Set when `status` is `COMPLETE`: a short description of the video in its language (its length,
   * name and scene headings), for the `alt` or `aria-label` of wherever it is published.
   */
  altText: optionalString,
  /**
   * Set when `status` is `COMPLETE` (real media): what the finished file measures — loudness, true
   * peak, caption speed, text contrast, flashes, duration, caption offset — and the limits it breaks.
   */
  quality: z.optional(z.custom<RenderQuality>()),
});

export const videoSchema = z.object({
  id: z.string(),
  name: z.string(),
  topicId: optionalString,
  aspectRatio: z.enum(ASPECT_RATIOS),
  duration: z.number(),
  language: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  isCompleted: z.boolean(),
  thumbnailURL: optionalString,
  renders: z.array(renderSchema),
  /**
   * Real media: one chapter per scene of its storyboard, in order, titled by the scene's heading,
   * at the scene's cut points (the chapters inside its MP4 and its `files.chapters`). Absent
   * without a storyboard (placeholder media).
   */
  chapters: z.optional(z.array(chapterSchema)),
  /**
   * The `metadata` its generation was started with, exactly as given (same keys, same order, same
   * strings); absent when none was given. See `METADATA_LIMITS`.
   */
  metadata: z.optional(z.record(z.string(), z.string())),
});

export const statusPayloadSchema = z.object({
  status: z.enum(STATUSES),
  error: z.optional(z.object({ code: z.string(), message: z.string() })),
  /** How far the job is: stage, whole-job fraction, time left (see {@link Progress}). */
  progress: z.optional(z.custom<Progress>()),
  /**
   * A generation's and a render's updates: the `metadata` the generation was started with, exactly
   * as given; absent when none was given (and on a topic search's updates).
   */
  metadata: z.optional(z.record(z.string(), z.string())),
});

export const topicSearchStartSchema = z.object({ topicId: z.string(), requestId: z.string() });

export const videoGenerationStartSchema = z.object({ requestId: z.string(), videoId: z.string(), topicId: z.string() });

/** What the page reports about its session in `ready` and in the `_session` event. */
export const sessionInfoSchema = z.object({
  accountID: z.nullable(z.string()),
  /**
   * Without a session: how a session the host had would have been lost, in words that continue
   * "lost the session of account X …" (on reload without storage; in the `_session` event, the
   * service refused it, e.g. after a restart without its data).
   */
  lost: z.optional(z.string()),
});

export const hostConfigSchema = z.object({
  partnerID: z.string(),
  authMode: z.enum(['jwt', 'uncontrolled']),
  isDebug: z.boolean(),
  /** Checked again by the page with the `Plugin`'s own schema (options.ts). */
  appearance: z.optional(z.unknown()),
  locale: optionalString,
  /**
   * `auto`: the page lays out at its natural height and reports it (INTERNAL_EVENTS.height). Any
   * other string is a fixed height (a later SDK's value must not fail the handshake).
   */
  height: optionalString,
  completeVideoConfirmation: z.optional(
    z.object({
      shouldShow: optionalBoolean,
      title: optionalString,
      body: optionalString,
      confirmButton: optionalString,
      cancelButton: optionalString,
    }),
  ),
});
