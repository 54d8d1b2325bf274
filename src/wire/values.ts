/**
 * The domain values of the contract, each defined here once, and the plain shapes built from them:
 * the `Plugin`'s schemas (options.ts), the token helpers (server/claims.ts), the answer schemas
 * (schemas.ts), the iframe page and the service's routes import them (docs/architecture.md, "One
 * contract"). A module of its own so that schemas.ts, which api.ts's types are inferred from, imports
 * nothing back from api.ts; api.ts re-exports all of it.
 */
export const STATUSES = ['PENDING', 'PROCESSING', 'COMPLETE', 'FAILED'] as const;
export const ASPECT_RATIOS = ['16:9', '4:5'] as const;
export const DURATIONS = [5, 15, 30] as const;
export const LANGUAGES = ['de', 'en-AU', 'en-GB', 'en-NZ', 'en-US', 'es', 'fr', 'it-IT', 'pt'] as const;
/** `PENDING`, `PROCESSING`, `COMPLETE` or `FAILED`. */
export type ActionStatus = (typeof STATUSES)[number];
/** An aspect ratio of a video: `16:9` or `4:5`. */
export type AspectRatio = (typeof ASPECT_RATIOS)[number];
/** A video's length in seconds: 5, 15 or 30. */
export type Duration = (typeof DURATIONS)[number];
/** A language of a generation (its narration and voice). */
export type Language = (typeof LANGUAGES)[number];
/**
 * Each language as the three letters (ISO 639-2/T) an MP4 track's language is written in: the
 * service tags the captions track inside the final file with it. MP4 has no region, so every
 * English is `eng`.
 */
export const MP4_LANGUAGES = {
  de: 'deu',
  'en-AU': 'eng',
  'en-GB': 'eng',
  'en-NZ': 'eng',
  'en-US': 'eng',
  es: 'spa',
  fr: 'fra',
  'it-IT': 'ita',
  pt: 'por',
} as const satisfies Record<Language, string>;
/** The language of a generation whose params name none (docs/plugin-api.md). */
export const DEFAULT_LANGUAGE: Language = 'en-US';
/** Longest `videoInstructions` of a generation, in characters. */
export const MAX_INSTRUCTIONS_LENGTH = 2000;

/**
 * The stages of a job, in the order a job goes through them; each job skips those it has no use
 * for (docs/plugin-api.md, "Progress"). A topic search: `queued`, `reading_page`, `collecting_images`,
 * `finishing`. A generation: `queued`, `writing_storyboard`, then with real media
 * `waiting_to_render` (only when every render slot is taken), `voicing`, `composing_scenes`,
 * `rendering`, then `finishing`. A render: `queued` (until its job starts), `waiting_to_render`
 * (only when every render slot is taken), `voicing`, `composing_scenes`, `rendering`, `finishing`
 * (placeholder media: `queued`, `rendering`, `finishing`).
 */
export const PROGRESS_STAGES = [
  'queued',
  'reading_page',
  'collecting_images',
  'writing_storyboard',
  'waiting_to_render',
  'voicing',
  'composing_scenes',
  'rendering',
  'finishing',
] as const;
/** A stage of a job's progress (see {@link Progress}). */
export type ProgressStage = (typeof PROGRESS_STAGES)[number];

/**
 * How far a topic search, a generation or a render is. Only moves forward: `stage` never goes back
 * in {@link PROGRESS_STAGES}' order and `fraction` never decreases. COMPLETE has
 * `{ stage: 'finishing', fraction: 1 }`; FAILED keeps the stage and fraction it failed at.
 */
export interface Progress {
  /** What the job is doing now. */
  stage: ProgressStage;
  /** Share of the whole job done (not of the stage), 0 to 1: a progress bar's value. */
  fraction: number;
  /**
   * Milliseconds left, estimated from the pace so far; absent until it can be estimated (5 % of
   * the job done) and on COMPLETE and FAILED.
   */
  etaMs?: number;
}

/**
 * What a render did (`Render.stats`): a render is made of one segment per scene, and a scene whose
 * picture and voice did not change since an earlier render (the preview, or before an edit) is
 * taken as it was made.
 */
export interface RenderStats {
  /** Scenes of the video. */
  scenes: number;
  /** Scenes made by this render (their picture or voice was new). */
  scenesRendered: number;
  /** Scenes taken unchanged from an earlier render. */
  scenesReused: number;
  /** Wall time of the render in milliseconds, from its start to its files in place. */
  ms: number;
}

/**
 * The account fields a partner may set (in a creation or sign-in-or-sign-up token, and later with
 * `updateAccountInfo`), each with its longest value in characters. The one truth for their names
 * and limits: the token helpers, the `Plugin`, the iframe page and the service all check against
 * it. The reference names the fields but states no limits; 256 is generous for names, addresses and
 * phone numbers with extensions, and small enough to store.
 */
export const ACCOUNT_FIELD_LIMITS = {
  firstName: 256,
  lastName: 256,
  emailAddress: 256,
  companyName: 256,
  phone: 256,
  city: 256,
  state: 256,
} as const;
/** An account field a partner may set; see {@link ACCOUNT_FIELD_LIMITS}. */
export type AccountField = keyof typeof ACCOUNT_FIELD_LIMITS;
/** Longest account ID or `externalID`, in characters. */
/**
 * The codes a FAILED topic search, generation or render gives in `error.code`, by job
 * (docs/service.md, "Statuses"): the one list the service's jobs, its test controls and the
 * SDK's types read.
 */
export const JOB_FAILURE_CODES = {
  topicSearch: ['source_unreachable', 'source_timeout', 'source_http_error', 'source_not_html'],
  generation: ['generation_failed', 'render_failed', 'storage_full', 'media_store_unavailable'],
  render: ['render_failed', 'storage_full', 'media_store_unavailable'],
} as const;

/**
 * A FAILED job's `error.code`: one of {@link JOB_FAILURE_CODES}, or, only in a status
 * subscription's one update, `topic_not_found` / `generation_not_found` (the ID is unknown or
 * another account's).
 */
export type JobFailureCode =
  (typeof JOB_FAILURE_CODES)[keyof typeof JOB_FAILURE_CODES][number] | 'topic_not_found' | 'generation_not_found';

/** Why a topic search, generation or render failed (set when its `status` is `FAILED`). */
export interface StatusError {
  code: JobFailureCode;
  message: string;
}

export const MAX_ID_LENGTH = 256;

/**
 * The limits of a generation's `metadata`, the partner's own key-value pairs echoed on its video,
 * status updates, events and webhooks: Stripe's (at most 20 keys, keys of 1 to 40 characters,
 * values strings of at most 500). Characters are counted as JavaScript's `length` counts them
 * (UTF-16 code units), like every other limit of the contract. The one truth for these numbers:
 * the studio page and the service check against it (wire/metadata.ts), and the docs state it.
 */
export const METADATA_LIMITS = { keys: 20, keyLength: 40, valueLength: 500 } as const;
/** A generation's (and so its video's) metadata: string keys to string values; see {@link METADATA_LIMITS}. */
export type Metadata = Record<string, string>;

/** A limit of the quality report that a render can break (see {@link RenderQuality}). */
export type QualityCheck =
  'loudness' | 'truePeak' | 'captionSpeed' | 'contrast' | 'flashes' | 'captionOffset' | 'duration';

/** A limit a render broke: which, where, by how much, in words a partner can act on. */
export interface QualityWarning {
  /** The limit broken. */
  check: QualityCheck;
  /** The scene (1-based) where it is broken; absent for the whole video (loudness, duration). */
  scene?: number;
  /** The value measured, in the unit of the check's field in {@link RenderQuality}. */
  value: number;
  /** What was measured against what is allowed, e.g. `caption 3 reads at 19.2 chars/s (at most 17)`. */
  message: string;
}

/**
 * What a COMPLETE render's file measures (real media only), measured on the finished file by the
 * local service, not predicted from its storyboard (docs/service.md, "The quality report").
 */
export interface RenderQuality {
  /** Integrated loudness of the soundtrack, EBU R128 (LUFS); target −16 ± 1. */
  loudnessLUFS: number;
  /** True peak of the soundtrack, EBU R128 (dBTP); at most −1. */
  truePeakDBTP: number;
  /** The fastest caption cue: characters per second (spaces included); at most 17. */
  maxCaptionCharsPerSecond: number;
  /** The lowest contrast ratio of on-video text against what is behind it, on decoded frames; at least 4.5. */
  minTextContrast: number;
  /** The most flashes in any one second (WCAG 2.3.1); at most 3. */
  maxFlashesPerSecond: number;
  /** Length of the file, in seconds. */
  durationSeconds: number;
  /** The largest gap between a caption cue's start and its spoken words, over every cue, in milliseconds; at most 150. */
  maxCaptionOffsetMs: number;
  /** Every limit broken, with its scene; empty when the render meets them all. */
  warnings: QualityWarning[];
}
