/**
 * What the host asks of the service page and what it gets back: the method names, the shapes of
 * accounts, videos and status payloads, and the events. Shared by the `Plugin` (host side) and the
 * service's pages, so that both agree on every field.
 */
import * as z from 'zod/mini';
export const STATUSES = ['PENDING', 'PROCESSING', 'COMPLETE', 'FAILED'];
export const ASPECT_RATIOS = ['16:9', '4:5'];
export const DURATIONS = [5, 15, 30];
export const LANGUAGES = ['de', 'en-AU', 'en-GB', 'en-NZ', 'en-US', 'es', 'fr', 'it-IT', 'pt'];
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
export const renderSchema = z.object({
  format: z.string(),
  status: z.enum(STATUSES),
  url: optionalString,
  renderedAt: optionalString,
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
});
export const statusPayloadSchema = z.object({
  status: z.enum(STATUSES),
  error: z.optional(z.object({ code: z.string(), message: z.string() })),
});
export const topicSearchStartSchema = z.object({ topicId: z.string(), requestId: z.string() });
export const videoGenerationStartSchema = z.object({ requestId: z.string(), videoId: z.string(), topicId: z.string() });
/** The subscription topics of the wire. */
export const TOPICS = { topicSearch: 'topicSearch', videoGeneration: 'videoGeneration' };
/** What the page reports about its session in `ready` and in the `_session` event. */
export const sessionInfoSchema = z.object({ accountID: z.nullable(z.string()) });
export const EVENT_NAMES = [
  'pluginOpened',
  'pluginOpenFailed',
  'editorOpened',
  'editorOpenFailed',
  'editorExited',
  'videoCreated',
  'videoSaved',
  'videoCompleted',
  'videoRendered',
  'error',
  'sessionLost',
];
/** Events the page sends for the SDK itself; they never reach the partner's listeners. */
export const INTERNAL_EVENTS = {
  /** The user pressed the UI's own close control. */
  closed: '_closed',
  /** The page's session changed (sign-in in the UI, logout). */
  session: '_session',
};
/** Payload schema of each public event that the page pushes. Errors arrive in plain form. */
export const eventPayloadSchemas = {
  pluginOpened: z.optional(z.unknown()),
  pluginOpenFailed: z.object({ code: z.string(), message: z.string() }),
  editorOpened: videoSchema,
  editorOpenFailed: z.object({ code: z.string(), message: z.string() }),
  editorExited: z.optional(z.unknown()),
  videoCreated: videoSchema,
  videoSaved: videoSchema,
  videoCompleted: videoSchema,
  videoRendered: videoSchema,
  error: z.object({ code: z.string(), message: z.string() }),
  // Never pushed by the page: the host emits it (and drops it from the wire).
  sessionLost: z.never(),
};
export const hostConfigSchema = z.object({
  partnerID: z.string(),
  authMode: z.enum(['jwt', 'uncontrolled']),
  isDebug: z.boolean(),
  /** Checked again by the page with the `Plugin`'s own schema (options.ts). */
  appearance: z.optional(z.unknown()),
  locale: optionalString,
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
//# sourceMappingURL=api.js.map
