/**
 * The token contract shared by the server helpers (which mint tokens and verify webhooks) and the
 * local service (which verifies tokens and signs webhooks): the service domain, the claims' names,
 * and the schemas of their contents.
 * No Node-only APIs here: this module runs on partners' servers and edge workers.
 */
import * as z from 'zod/mini';
import {
  ACCOUNT_FIELD_LIMITS,
  ASPECT_RATIOS,
  DURATIONS,
  MAX_ID_LENGTH,
  type AccountField,
  type Metadata,
  type RenderQuality,
} from '../wire/api.js';
import { renderFilesSchema } from '../wire/schemas.js';
import { strictObject } from './validate.js';

/** The service's domain: the `aud` of every token and the host part of {@link ACCOUNT_CLAIM}. */
export const SERVICE_DOMAIN = 'video-plugin.example';

/** Name of the token claim that carries the account fields (creation) or the login ID. */
export const ACCOUNT_CLAIM = `https://${SERVICE_DOMAIN}/sdk/account` as const;

/**
 * Longest token lifetime (`exp` − `iat`) the service accepts, in seconds. The reference recommends
 * about a minute and leaves the maximum open; an hour bounds how long a leaked token works and how
 * long the service must remember its `jti`.
 */
export const MAX_TOKEN_LIFETIME_SECONDS = 3600;

/** Longest accepted ID or other field of a request (MAX_ID_LENGTH of the wire contract). */
export const MAX_FIELD_LENGTH = MAX_ID_LENGTH;

const id = () => z.string().check(z.minLength(1), z.maxLength(MAX_ID_LENGTH));

/**
 * The account fields a partner may set at creation and change later (all optional), each within
 * its limit: {@link ACCOUNT_FIELD_LIMITS} of the wire contract, which the `Plugin` checks too.
 */
export const accountInfoShape = Object.fromEntries(
  Object.entries(ACCOUNT_FIELD_LIMITS).map(([field, max]) => [field, z.optional(z.string().check(z.maxLength(max)))]),
) as Record<AccountField, z.ZodMiniOptional<z.ZodMiniString>>;

/** Contents of the account claim in an account-creation token. */
export const AccountClaimsSchema = strictObject({
  ...accountInfoShape,
  externalID: z.optional(id()),
});

/**
 * Contents of the account claim in a sign-in-or-sign-up token: the partner's own user ID, required,
 * and the fields to create the account with when it does not exist yet (used only then).
 */
export const LoginOrCreateClaimsSchema = strictObject({
  ...accountInfoShape,
  externalID: id(),
});

/** Contents of the account claim in a login token logging in by the service's account ID. */
export const LoginByAccountIDSchema = strictObject({ accountID: id() });
/** Contents of the account claim in a login token logging in by the partner's own user ID. */
export const LoginByExternalIDSchema = strictObject({ externalID: id() });
/** Contents of the account claim in a login token: exactly one of `accountID` or `externalID`. */
export const LoginClaimsSchema = z.union([LoginByAccountIDSchema, LoginByExternalIDSchema]);

/**
 * Name of the token claim that says what the token is for (see {@link TOKEN_KINDS}). The helpers
 * always set it, so that a token minted for one operation cannot be used for another; a token made
 * by hand without it is read by its account claim alone, as the reference describes.
 */
export const KIND_CLAIM = `https://${SERVICE_DOMAIN}/sdk/kind` as const;

/**
 * What a token is for: `create` (`createAccount`), `login` (`loginAccount`), or `loginOrCreate`
 * (`loginAccount`: log in by `externalID`, or create the account first when there is none).
 */
export const TOKEN_KINDS = ['create', 'login', 'loginOrCreate'] as const;
/** What a token is for; see {@link TOKEN_KINDS}. */
export type TokenKind = (typeof TOKEN_KINDS)[number];

/** Account fields carried by an account-creation token (all optional). */
export type AccountClaims = z.infer<typeof AccountClaimsSchema>;
/** The account claim of a sign-in-or-sign-up token: `externalID` and the fields to create with. */
export type LoginOrCreateClaims = z.infer<typeof LoginOrCreateClaimsSchema>;
/** The login ID carried by a login token: `{ accountID }` or `{ externalID }`. */
export type LoginClaims = z.infer<typeof LoginClaimsSchema>;

/** Name of the webhook claim that carries the event (see {@link WebhookEventSchema}). */
export const EVENT_CLAIM = `https://${SERVICE_DOMAIN}/sdk/event` as const;

/** The kinds of webhook event the service sends. */
export const WEBHOOK_EVENT_TYPES = ['account.created', 'video.completed', 'video.rendered'] as const;

// The event objects are not strict: a later service may add fields, and an older receiver keeps
// working (unknown fields are dropped when the event is read).
const eventBase = {
  /** Unique ID of the event, the same on every retry: dedupe by it. Also the token's `jti`. */
  id: id(),
  /** When the event happened (ISO 8601); deliveries may arrive out of this order. */
  createdAt: z.iso.datetime(),
  /** The service's account ID. */
  accountID: id(),
  /** The partner's own ID for the account, when it was given at creation. */
  externalID: z.optional(id()),
  /**
   * `true` on a test event sent on request (`POST /api/partner/webhooks/test`): made up, about no
   * real account or video, and not in the event log. Absent on every real event.
   */
  test: z.optional(z.boolean()),
  /**
   * `true` on a redelivery asked for by ID (`POST /api/partner/events/:id/resend`): the same event
   * (same `id`, `createdAt` and `data`) sent again. Handle it even when its `id` was seen before.
   */
  redelivery: z.optional(z.boolean()),
};

const videoData = {
  videoID: id(),
  name: z.string(),
  aspectRatio: z.enum(ASPECT_RATIOS),
  duration: z.literal(DURATIONS),
  language: z.string(),
  /**
   * The `metadata` the video's generation was started with, exactly as given; absent when none was
   * given. Passed through as received (the service checked it against `METADATA_LIMITS`).
   */
  metadata: z.optional(
    z.custom<Metadata>(
      (value) =>
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        Object.values(value).every((entry) => typeof entry === 'string'),
    ),
  ),
};

/**
 * `account.created`: an account was made by a token (`via: 'token'`: `createAccount`, or a sign-in-or-sign-up
 * token's first visit) or by the uncontrolled sign-in.
 */
export const AccountCreatedEventSchema = z.object({
  type: z.literal('account.created'),
  ...eventBase,
  data: z.object({ via: z.enum(['token', 'sign-in']), account: z.object(accountInfoShape) }),
});

/** `video.completed`: the video was marked completed (the editor's Complete); its final render starts. */
export const VideoCompletedEventSchema = z.object({
  type: z.literal('video.completed'),
  ...eventBase,
  data: z.object(videoData),
});

/**
 * `video.rendered`: the video's final render is ready; `renders` lists them as the API's video does:
 * the video's URL, `files` (video, poster, captions, chapters, transcript: each URL with its type; see
 * `RenderFiles`), `altText` and (real media) the `quality` report, everything needed to publish it
 * accessibly.
 */
export const VideoRenderedEventSchema = z.object({
  type: z.literal('video.rendered'),
  ...eventBase,
  data: z.object({
    ...videoData,
    renders: z.array(
      z.object({
        format: z.string(),
        url: z.string(),
        renderedAt: z.iso.datetime(),
        files: renderFilesSchema,
        altText: z.string(),
        /** What the finished file measures (real media): see `RenderQuality`. */
        quality: z.optional(z.custom<RenderQuality>()),
      }),
    ),
  }),
});

/** The event a webhook carries under {@link EVENT_CLAIM}: one of the kinds, told apart by `type`. */
export const WebhookEventSchema = z.discriminatedUnion('type', [
  AccountCreatedEventSchema,
  VideoCompletedEventSchema,
  VideoRenderedEventSchema,
]);

/** A webhook event, as `verifyWebhook` returns it; switch on `type`. */
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;
/** The kind of a webhook event. */
export type WebhookEventType = WebhookEvent['type'];

/**
 * The kind ({@link KIND_CLAIM}) of the short-lived token that `listEvents` signs with the partner's
 * webhook secret to read the event log (`GET /api/partner/events`). Never an account token.
 */
export const EVENTS_TOKEN_KIND = 'events';
/** Longest lifetime (`exp` − `iat`) of an events token, in seconds; `listEvents` signs each for 60 s. */
export const MAX_EVENTS_TOKEN_LIFETIME_SECONDS = 300;
/** Most events in one page of the event log, and the default `limit`. */
export const EVENTS_PAGE_LIMIT = 100;
/** How long the service keeps an event in its log, in days (`GET /api/partner/events`). */
export const EVENT_RETENTION_DAYS = 30;
