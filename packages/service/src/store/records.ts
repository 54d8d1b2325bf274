/**
 * What the service keeps: the records of each kind, as the API, the jobs and the database see
 * them. Plain JSON data: the database stores each record as it is here.
 */
import type {
  ActionStatus,
  AspectRatio,
  Duration,
  Language,
  Metadata,
  WebhookEvent,
  Progress,
  RenderQuality,
  RenderStats,
  StatusError,
} from 'video-plugin/internal';
import type { PageSection } from '../media/source.js';
import type { Storyboard } from '../media/storyboard.js';
import type { ForcedOutcome, TestJob } from '../jobs/test-controls.js';

/** Status of a topic search, a generation or a render: the contract's (`STATUSES`). */
export type Status = ActionStatus;
/** Why a background action failed: a code of the contract's one list (JOB_FAILURE_CODES). */
export type { StatusError };

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

/** Something with a status that moves forward only (see `advance`). */
export interface StatusRecord {
  status: Status;
  error?: StatusError;
  /** How far the job is (progress.ts); absent on records saved before it existed. */
  progress?: Progress;
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
  /** The page's `og:site_name`, the business's name for the storyboard (not part of the public topic). */
  siteName?: string;
  /** The page's headings and key sentences, for the storyboard (not part of the public topic). */
  headings?: string[];
  sentences?: string[];
  /** The page's sections (source/page.ts), for the storyboard; absent on topics read before them. */
  sections?: PageSection[];
  /** The page's own language (`<html lang>`) when the service speaks it: a generation without one uses it. */
  language?: Language;
  /** The images downloaded and kept by the service (`media: real`), in page order. */
  files?: string[];
  createdAt: string;
}

/** A stored video generation request. */
export interface GenerationRecord extends Owner, StatusRecord {
  requestId: string;
  videoId: string;
  topicId: string;
  aspectRatio: AspectRatio;
  duration: Duration;
  language: Language;
  videoInstructions?: string;
  /** The partner's metadata, exactly as given (checked against METADATA_LIMITS); absent when none was given. */
  metadata?: Metadata;
  createdAt: string;
}

/** A stored render of a completed video. */
export interface RenderRecord {
  format: string;
  status: Status;
  error?: StatusError;
  progress?: Progress;
  renderedAt?: string;
  /** What the finished file measures (real media, COMPLETE): media/quality.ts. */
  quality?: RenderQuality;
  /** Real media, once COMPLETE: each file's SHA-256 (render.ts). */
  sha256?: RenderHashes;
  /** Real media, once COMPLETE: what the render did. */
  stats?: RenderStats;
}

/** The SHA-256 (hex) of each file of a real render. */
export interface RenderHashes {
  video: string;
  thumbnail: string;
  captions: string;
  /** Absent from renders made before renders wrote their chapters (they have no chapters file). */
  chapters?: string;
  transcript: string;
}

/** A stored video. Media URLs are not stored: they depend on where the service listens. */
export interface VideoRecord extends Owner {
  id: string;
  name: string;
  topicId?: string;
  /** The generation that made this video. */
  requestId?: string;
  /** Its generation's metadata, exactly as given; absent when none was given. Never changes. */
  metadata?: Metadata;
  aspectRatio: AspectRatio;
  duration: Duration;
  language: Language;
  createdAt: string;
  updatedAt: string;
  isCompleted: boolean;
  /** Set once the generation completed: the thumbnail is then served. */
  hasThumbnail: boolean;
  renders: RenderRecord[];
  /** `mp4` (real renders, `media: real`) or `svg` (stand-ins); `svg` when absent. */
  media?: 'mp4' | 'svg';
  /** What the renders are made from (real media only). Kept with the video. */
  storyboard?: Storyboard;
  /** Whether the preview render (made when the generation completes) is there. */
  hasPreview?: boolean;
  /** The latest preview render's file hashes and what it did (real media). */
  preview?: Required<Pick<RenderRecord, 'sha256' | 'stats'>>;
}

/** A webhook delivery that is not over: one event to one URL (the webhook outbox). */
export interface DeliveryRecord {
  id: string;
  partnerID: string;
  url: string;
  /** The event, as signed on every try (its `id` is the token's `jti`). */
  event: WebhookEvent;
  /** Tries made so far. */
  attempts: number;
  createdAt: string;
}

/** A token ID already used, remembered until `until` (epoch seconds). */
export interface UsedJti {
  partnerID: string;
  jti: string;
  until: number;
}

/**
 * An idempotency key of a start request (`Idempotency-Key`), per account: the request it started,
 * kept until `expiresAt` (epoch seconds) so that a retry with the key gets the same answer.
 */
export interface IdempotencyRecord extends Owner {
  key: string;
  /** SHA-256 of the route and its normalised body: the same key with another body is refused. */
  fingerprint: string;
  /** The body the first request was answered with (its IDs). */
  result: Record<string, unknown>;
  expiresAt: number;
}

/** A change the status streams may forward. */
export type Change =
  | { kind: 'topic'; record: TopicRecord }
  | { kind: 'generation'; record: GenerationRecord }
  | { kind: 'video'; record: VideoRecord };

/** Everything the store holds, as read at open (and as a 0.1 JSON data file is imported). */
export interface Snapshot {
  accounts: AccountRecord[];
  sessions: [key: string, session: SessionRecord][];
  topics: TopicRecord[];
  generations: GenerationRecord[];
  videos: VideoRecord[];
  usedJtis: UsedJti[];
  outbox: DeliveryRecord[];
  /** Unexpired idempotency keys (none in a 0.1 JSON data file). */
  idempotencyKeys?: IdempotencyRecord[];
  /** The sandboxes, on a database several processes share (none in a data file: they live in memory there). */
  sandboxes?: SandboxRecord[];
  /** The test controls' forced outcomes waiting for their job, oldest first, on a database several processes share. */
  outcomes?: OutcomeRecord[];
}

/**
 * A forced outcome waiting for its job (jobs/test-controls.ts), on a database several processes
 * share: the first job of its kind that any of them queues for the partner (or the account) takes it.
 */
export interface OutcomeRecord {
  id: string;
  partnerID: string;
  job: TestJob;
  /** The account (its external ID, or its ID) whose job takes it; none: any of the partner's. */
  account?: string;
  outcome: ForcedOutcome;
}

/**
 * A sandbox on a database several processes share (sandboxes.ts): what every process needs to
 * serve it as a partner, its secrets included (the database is the service's own).
 */
export interface SandboxRecord {
  partnerID: string;
  secret: string;
  webhookSecret: string;
  /** The options it was made with, as checked (sandboxes.ts SandboxOptionsSchema). */
  allowedOrigins?: string[];
  webhookURLs?: string[];
  authModes?: ('jwt' | 'uncontrolled')[];
  /** When it expires, in ms since the epoch. */
  expiresAt: number;
}

/** How a sandbox ended: `reset` (DELETE, `resetSandbox`) or `expired` (its time was over). */
export type SandboxEnd = 'reset' | 'expired';

/** The fields of a topic, generation or video that never change, or change only through a transition. */
type Fixed =
  | keyof Owner
  | 'id'
  | 'requestId'
  | 'videoId'
  | 'topicId'
  | 'metadata'
  | 'createdAt'
  | 'updatedAt'
  | 'status'
  | 'error';

type RecordOf<K extends Change['kind']> = Extract<Change, { kind: K }>['record'];

/** What {@link Store.update} may change on a record of kind `K`. */
export type Patch<K extends Change['kind']> = Partial<Omit<RecordOf<K>, Fixed>>;

/** A stored record as the jobs and the routes name it to the store: its kind, and the record they read. */
export interface RecordRef<K extends Change['kind'] = Change['kind']> {
  kind: K;
  record: Readonly<RecordOf<K>>;
}
