/**
 * The JSON API under `/api/` that the plugin's pages call (documented in docs/service.md). Every
 * handler validates its input with a zod/mini schema, works on the caller's own records only, and
 * answers JSON; errors become `{ error: { code, message, data? } }` with a matching status.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as z from 'zod/mini';
import {
  InvalidParameterError,
  InvalidTokenError,
  NotFoundError,
  InvalidStateError,
  ACCOUNT_CLAIM,
  AccountClaimsSchema,
  MAX_FIELD_LENGTH,
  accountInfoShape,
  parseOrThrow,
  strictObject,
  IDEMPOTENCY_KEY,
  VERSION,
  PROTOCOL_VERSION,
} from 'video-plugin/internal';
import type { Partner, ServiceConfig } from '../config.js';
import { HttpError, readJson, sendJson } from './reply.js';
import type { Jobs } from '../jobs/jobs.js';
import { frameAncestorSources, isOriginAllowed } from '../origins.js';
import {
  fingerprint,
  newId,
  nowISO,
  sessionKey,
  type AccountRecord,
  type Change,
  type Owner,
  type Store,
} from '../store/store.js';
import type { Streams } from './stream.js';
import { sessionOf } from '../auth/sessions.js';
import { verifyToken } from '../auth/tokens.js';
import { accountView, generationView, topicView, videoView } from '../store/shapes.js';
import type { Webhooks } from '../webhooks/webhooks.js';

/** Languages a generation accepts (DESIGN §2). */
export const LANGUAGES = ['de', 'en-AU', 'en-GB', 'en-NZ', 'en-US', 'es', 'fr', 'it-IT', 'pt'] as const;
/** Longest accepted `videoInstructions`. */
export const MAX_INSTRUCTIONS_LENGTH = 2000;
/** Longest accepted source URL. */
export const MAX_URL_LENGTH = 2048;

/** What the handlers work with. */
export interface ApiContext {
  config: ServiceConfig;
  store: Store;
  jobs: Jobs;
  streams: Streams;
  /** Told of new accounts (the video events come from the jobs). */
  webhooks: Pick<Webhooks, 'accountCreated'>;
  /** The service's origin, for media URLs. */
  baseURL: () => string;
  /** Where downloaded images and renders are kept (real media). */
  mediaDir: string;
}

interface Request {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: Record<string, string>;
  ctx: ApiContext;
}

/** A handler's answer: a status and a JSON body (none for 204), or `undefined` when it answered itself. */
type Reply = { status: number; body?: unknown } | undefined;
type Handler = (request: Request) => Promise<Reply> | Reply;

const nonEmpty = (max = MAX_FIELD_LENGTH) => z.string().check(z.minLength(1), z.maxLength(max));

// No length cap on the token here: verifyToken refuses long ones with its own code (token_too_large).
const TokenBody = strictObject({ token: z.string().check(z.minLength(1)), partnerID: z.optional(nonEmpty()) });
const LoginClaim = strictObject({ accountID: z.optional(nonEmpty()), externalID: z.optional(nonEmpty()) });
const SignInBody = strictObject({
  emailAddress: nonEmpty(),
  firstName: accountInfoShape.firstName,
  lastName: accountInfoShape.lastName,
});
const AccountUpdateBody = strictObject(accountInfoShape);
const SceneInput = strictObject({
  heading: z.string().check(z.trim(), z.minLength(1, { error: 'must not be empty' }), z.maxLength(120)),
  body: z.optional(z.string().check(z.trim(), z.maxLength(300))),
  narration: z.string().check(z.trim(), z.minLength(1, { error: 'must not be empty' }), z.maxLength(400)),
  image: z.nullable(z.int().check(z.gte(0), z.lte(63))),
});
/** What the editor saves: the name, and (real media) the scenes, in order. */
const SaveBody = strictObject({
  name: z.optional(
    z.string().check(z.trim(), z.minLength(1, { error: 'must not be empty: give the video a name' }), z.maxLength(200)),
  ),
  scenes: z.optional(z.array(SceneInput).check(z.minLength(1, { error: 'keep at least one scene' }), z.maxLength(12))),
});
const TopicBody = strictObject({ sourceURL: z.string().check(z.maxLength(MAX_URL_LENGTH)) });
const GenerationBody = strictObject({
  topicId: nonEmpty(),
  aspectRatio: z.enum(['16:9', '4:5']),
  duration: z.literal([5, 15, 30]),
  videoInstructions: z.optional(z.string().check(z.maxLength(MAX_INSTRUCTIONS_LENGTH))),
  language: z.optional(z.enum(LANGUAGES)),
});

/**
 * The request's `Idempotency-Key` header (see Store.idempotent): 1 to 255 visible ASCII
 * characters, or none.
 */
function idempotencyKey({ req, url }: Request): string | undefined {
  const key = req.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) {
    throw new InvalidParameterError(
      'invalid_parameter',
      `${req.method} ${url.pathname}: the Idempotency-Key header (options.idempotencyKey) must be 1 to 255 visible ASCII characters (no spaces), e.g. a UUID made once per user action.`,
      { field: 'options.idempotencyKey' },
    );
  }
  return key;
}

/**
 * Starts a request once per idempotency key (when the request has one): a repeated key answers
 * what the first request answered, with `replayed: true`. See Store.idempotent.
 */
function once<T extends Record<string, unknown>>(
  request: Request,
  route: 'topics' | 'generations',
  owner: Owner,
  normalised: Record<string, unknown>,
  start: () => T,
): T & { replayed?: true } {
  const { store } = request.ctx;
  const key = idempotencyKey(request);
  if (key === undefined) return store.transaction(start);
  const { result, replayed } = store.idempotent(owner, key, fingerprint(route, normalised), start);
  return replayed ? { ...result, replayed } : result;
}

async function body<S extends z.ZodMiniType>(request: Request, schema: S): Promise<z.infer<S>> {
  const { req, url } = request;
  return parseOrThrow(schema, await readJson(req), `${req.method} ${url.pathname}: body`);
}

/** The session token of `Authorization: Bearer <session>`, if any. */
function bearer(req: IncomingMessage): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
}

/** The account of the request's session: `Authorization: Bearer <session>`, or `?session=` on the stream. */
function authenticate(
  { req, url, ctx }: Request,
  allowQuery = false,
): { owner: Owner; account: AccountRecord; key: string } {
  return sessionOf(ctx.store, bearer(req) ?? (allowQuery ? (url.searchParams.get('session') ?? undefined) : undefined));
}

function partnerOf({ params, ctx }: Request): Partner {
  const partner = ctx.config.partners.get(params.partnerID ?? '');
  if (!partner) {
    throw new NotFoundError(
      'partner_not_found',
      `The service knows no partner "${params.partnerID}". Check the partnerID given to the Plugin.`,
      { partnerID: params.partnerID },
    );
  }
  return partner;
}

const tokenContext = (ctx: ApiContext) => ({ partners: ctx.config.partners, store: ctx.store });

function session(ctx: ApiContext, account: AccountRecord, status: number): Reply {
  const token = ctx.store.createSession({ partnerID: account.partnerID, accountID: account.id });
  return { status, body: { account: accountView(account), session: token } };
}

const health: Handler = ({ ctx }) => ({
  status: 200,
  body: { status: 'ok', partners: [...ctx.config.partners.keys()], jobMs: ctx.config.jobMs },
});

const originCheck: Handler = (request) => {
  const partner = partnerOf(request);
  const origin = request.url.searchParams.get('origin');
  if (!origin) {
    throw new InvalidParameterError(
      'invalid_parameter',
      'GET origin-check: give the page origin as ?origin=, e.g. ?origin=https://shop.example.',
      { field: 'origin' },
    );
  }
  return { status: 200, body: { allowed: isOriginAllowed(partner.allowedOrigins, origin) } };
};

/**
 * `GET /api/diagnose?partnerID=`: what `diagnose()` (video-plugin/diagnose) asks from the partner's
 * page, with CORS so that any page may read it. It says whether the request's `Origin` (the page
 * that asks; `?origin=` only when there is no such header, for curl) is allowed for the partner,
 * the `frame-ancestors` the plugin page is sent with, and the versions. Nothing secret: no allowed
 * origins of the partner beyond what the plugin page's own header shows to anyone.
 */
const diagnose: Handler = (request) => {
  const { req, res, url, ctx } = request;
  // Also on errors: the page must be able to read why.
  res.setHeader('access-control-allow-origin', '*');
  res.setHeader('vary', 'Origin');
  const partnerID = url.searchParams.get('partnerID');
  if (!partnerID) {
    throw new InvalidParameterError(
      'invalid_parameter',
      'GET /api/diagnose: give the partner ID as ?partnerID=, e.g. ?partnerID=demo-partner.',
      { field: 'partnerID' },
    );
  }
  const partner = partnerOf({ ...request, params: { partnerID } });
  const header = req.headers.origin;
  const origin = header && header !== 'null' ? header : (url.searchParams.get('origin') ?? null);
  return {
    status: 200,
    body: {
      service: 'video-plugin-service',
      version: VERSION,
      protocolVersion: PROTOCOL_VERSION,
      partnerID: partner.id,
      origin,
      originAllowed: origin === null ? null : isOriginAllowed(partner.allowedOrigins, origin),
      frameAncestors: frameAncestorSources(ctx.config.partners.values()),
      pluginURL: `${ctx.baseURL()}/plugin?partner=${encodeURIComponent(partner.id)}`,
    },
  };
};

const createAccount: Handler = async (request) => {
  const { ctx } = request;
  const { token, partnerID } = await body(request, TokenBody);
  const { partner, claim } = await verifyToken(token, AccountClaimsSchema, tokenContext(ctx), partnerID);
  const now = nowISO();
  const account: AccountRecord = { partnerID: partner.id, id: newId('acct'), ...claim, createdAt: now, updatedAt: now };
  return created(ctx, account);
};

/** Saves a new account, its first session and its `account.created` webhook together. */
function created(ctx: ApiContext, account: AccountRecord): Reply {
  return ctx.store.transaction(() => {
    ctx.store.addAccount(account);
    ctx.webhooks.accountCreated(account);
    return session(ctx, account, 201);
  });
}

const login: Handler = async (request) => {
  const { ctx } = request;
  const { token, partnerID } = await body(request, TokenBody);
  const { partner, claim } = await verifyToken(token, LoginClaim, tokenContext(ctx), partnerID, (claim) => {
    if (claim.accountID === undefined && claim.externalID === undefined) {
      throw new InvalidTokenError(
        'token_missing_claims',
        `The login token's claim ${ACCOUNT_CLAIM} needs accountID or externalID.`,
        { claims: [`${ACCOUNT_CLAIM}.accountID`] },
      );
    }
    if (claim.accountID !== undefined && claim.externalID !== undefined) {
      throw new InvalidTokenError(
        'token_malformed',
        `The login token's claim ${ACCOUNT_CLAIM} must carry only one of accountID or externalID, not both.`,
        { field: 'externalID' },
      );
    }
  });
  const account =
    claim.accountID !== undefined
      ? ctx.store.findAccount(partner.id, claim.accountID)
      : ctx.store.findAccountByExternalID(partner.id, claim.externalID as string);
  if (!account) {
    const [field, value] =
      claim.accountID !== undefined ? ['accountID', claim.accountID] : ['externalID', claim.externalID];
    throw new NotFoundError(
      'account_not_found',
      `No account with ${field} "${value}" exists for partner "${partner.id}". Create it first with createAccount.`,
      { [field]: value },
    );
  }
  return session(ctx, account, 200);
};

const signIn: Handler = async (request) => {
  const { ctx } = request;
  const partner = partnerOf(request);
  const { emailAddress, firstName, lastName } = await body(request, SignInBody);
  const wanted = emailAddress.toLowerCase();
  // Passwordless, so it may enter only accounts it made itself, never one made with a token.
  const existing = [...ctx.store.accounts.values()].find(
    (account) =>
      account.partnerID === partner.id && account.signIn === true && account.emailAddress?.toLowerCase() === wanted,
  );
  if (existing) return session(ctx, existing, 200);
  const now = nowISO();
  const account: AccountRecord = {
    partnerID: partner.id,
    id: newId('acct'),
    emailAddress,
    ...(firstName !== undefined ? { firstName } : {}),
    ...(lastName !== undefined ? { lastName } : {}),
    createdAt: now,
    updatedAt: now,
    signIn: true,
  };
  return created(ctx, account);
};

const logout: Handler = ({ req, ctx }) => {
  // Idempotent: a page cleaning up may not know whether its session still exists.
  const token = bearer(req);
  if (token !== undefined) {
    const key = sessionKey(token);
    ctx.store.deleteSession(key);
    ctx.streams.endSession(key);
  }
  return { status: 204 };
};

const getAccount: Handler = (request) => ({
  status: 200,
  body: { account: accountView(authenticate(request).account) },
});

const updateAccount: Handler = async (request) => {
  const { account } = authenticate(request);
  const update = await body(request, AccountUpdateBody);
  const updated: AccountRecord = { ...account };
  let changed = false;
  for (const [field, value] of Object.entries(update) as [keyof typeof update, string | undefined][]) {
    // Only the fields given change; a field given as undefined (dropped by JSON) is not given.
    if (value !== undefined && updated[field] !== value) {
      updated[field] = value;
      changed = true;
    }
  }
  if (!changed) return { status: 200, body: { account: accountView(account) } };
  updated.updatedAt = nowISO();
  request.ctx.store.saveAccount(updated);
  return { status: 200, body: { account: accountView(updated) } };
};

const listVideos: Handler = (request) => {
  const { owner } = authenticate(request);
  const { store } = request.ctx;
  return {
    status: 200,
    body: { videos: store.ownedBy(store.videos, owner).map((video) => videoView(video, request.ctx.baseURL())) },
  };
};

const getVideo: Handler = (request) => {
  const { owner } = authenticate(request);
  const video = request.ctx.store.ownedVideo(owner, request.params.videoId as string);
  return { status: 200, body: { video: videoView(video, request.ctx.baseURL()) } };
};

const renameVideo: Handler = async (request) => {
  const { owner } = authenticate(request);
  const { store } = request.ctx;
  const video = store.ownedVideo(owner, request.params.videoId as string);
  const { name, scenes } = await body(request, SaveBody);
  const images = store.topics.get(video.topicId ?? '')?.files ?? [];
  if (scenes !== undefined) {
    if (video.media !== 'mp4' || !video.storyboard) {
      throw new InvalidStateError('invalid_state', `Video "${video.id}" has no scenes to edit (placeholder media).`, {
        videoId: video.id,
      });
    }
    if (video.isCompleted) {
      throw new InvalidStateError(
        'invalid_state',
        `Video "${video.id}" is completed: its scenes can no longer change.`,
        {
          videoId: video.id,
        },
      );
    }
    for (const [index, scene] of scenes.entries()) {
      if (scene.image !== null && scene.image >= images.length) {
        throw new InvalidParameterError(
          'invalid_parameter',
          `scenes.${index}.image: the topic has ${images.length} image(s); give an index below ${images.length}, or null.`,
          { field: `scenes.${index}.image` },
        );
      }
    }
  }
  // The scenes and the name are saved together, or neither is.
  store.transaction(() => {
    if (scenes !== undefined) request.ctx.jobs.editScenes(video, scenes, images);
    if (name !== undefined && video.name !== name) {
      video.name = name;
      video.updatedAt = nowISO();
      store.changed({ kind: 'video', record: video });
    }
  });
  return { status: 200, body: { video: videoView(video, request.ctx.baseURL()) } };
};

/** The editor's view of a video's storyboard: its scenes and the topic's images to choose from. */
const getStoryboard: Handler = (request) => {
  const { owner } = authenticate(request);
  const { store } = request.ctx;
  const video = store.ownedVideo(owner, request.params.videoId as string);
  const files = store.topics.get(video.topicId ?? '')?.files ?? [];
  const board = video.storyboard;
  const base = `${request.ctx.baseURL()}/media/topics/${encodeURIComponent(video.topicId ?? '')}`;
  return {
    status: 200,
    body: {
      scenes: (board?.scenes ?? []).map((scene) => ({
        heading: scene.heading,
        ...(scene.body !== undefined ? { body: scene.body } : {}),
        narration: scene.narration,
        image: scene.image === undefined ? null : files.indexOf(scene.image),
      })),
      images: files.map((file) => `${base}/${file.split('/').pop()}`),
      editable: board !== undefined && !video.isCompleted,
    },
  };
};

const completeVideo: Handler = (request) => {
  const { owner } = authenticate(request);
  const { store, jobs } = request.ctx;
  const video = store.ownedVideo(owner, request.params.videoId as string);
  if (video.isCompleted) {
    throw new InvalidStateError('invalid_state', `Video "${video.id}" is already completed.`, { videoId: video.id });
  }
  const generation = video.requestId === undefined ? undefined : store.generations.get(video.requestId);
  if (generation && generation.status !== 'COMPLETE') {
    throw new InvalidStateError(
      'invalid_state',
      `Video "${video.id}" cannot be completed while its generation is ${generation.status}; wait until it is COMPLETE.`,
      { videoId: video.id, status: generation.status },
    );
  }
  // The video and its `video.completed` webhook are saved together.
  store.transaction(() => jobs.completeVideo(video));
  return { status: 200, body: { video: videoView(video, request.ctx.baseURL()) } };
};

const startTopicSearch: Handler = async (request) => {
  const { owner } = authenticate(request);
  const { sourceURL } = await body(request, TopicBody);
  let url: URL | undefined;
  try {
    url = new URL(sourceURL);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new InvalidParameterError(
      'invalid_parameter',
      `POST /api/topics: body: "sourceURL" must be an absolute http or https URL, e.g. https://shop.example (got ${JSON.stringify(sourceURL.slice(0, 100))}).`,
      { field: 'sourceURL' },
    );
  }
  const href = url.href;
  const started = once(request, 'topics', owner, { sourceURL: href }, () => {
    const topic = request.ctx.jobs.startTopicSearch(owner, href);
    return { topicId: topic.id, requestId: topic.requestId };
  });
  return { status: 202, body: started };
};

const listTopics: Handler = (request) => {
  const { owner } = authenticate(request);
  const { store } = request.ctx;
  return { status: 200, body: { topics: store.ownedBy(store.topics, owner).map(topicView) } };
};

const getTopic: Handler = (request) => {
  const { owner } = authenticate(request);
  return {
    status: 200,
    body: { topic: topicView(request.ctx.store.ownedTopic(owner, request.params.topicId as string)) },
  };
};

const startGeneration: Handler = async (request) => {
  const { owner } = authenticate(request);
  const params = await body(request, GenerationBody);
  const normalised = {
    topicId: params.topicId,
    aspectRatio: params.aspectRatio,
    duration: params.duration,
    language: params.language ?? 'en-US',
    ...(params.videoInstructions !== undefined ? { videoInstructions: params.videoInstructions } : {}),
  };
  // The generation, its video and its idempotency key are saved together.
  const started = once(request, 'generations', owner, normalised, () => {
    const topic = request.ctx.store.ownedTopic(owner, params.topicId);
    if (topic.status !== 'COMPLETE') {
      throw new InvalidStateError(
        'invalid_state',
        `Topic "${topic.id}" is ${topic.status}; start a video generation once its topic search is COMPLETE.`,
        { topicId: topic.id, status: topic.status },
      );
    }
    const { generation } = request.ctx.jobs.startGeneration(owner, topic, normalised);
    return { requestId: generation.requestId, videoId: generation.videoId, topicId: topic.id };
  });
  return { status: 202, body: started };
};

const getGeneration: Handler = (request) => {
  const { owner } = authenticate(request);
  const generation = request.ctx.store.ownedGeneration(owner, request.params.requestId as string);
  return { status: 200, body: { generation: generationView(generation) } };
};

const events: Handler = (request) => {
  const { owner, key } = authenticate(request, true);
  const { store, streams } = request.ctx;
  const { searchParams } = request.url;
  const filter = {
    topics: new Set(searchParams.getAll('topic')),
    generations: new Set(searchParams.getAll('generation')),
    videos: new Set(searchParams.getAll('video')),
  };
  // Unknown IDs are refused before the stream starts, with the same errors as the GET routes.
  const initial: Change[] = [
    ...[...filter.topics].map((id): Change => ({ kind: 'topic', record: store.ownedTopic(owner, id) })),
    ...[...filter.generations].map((id): Change => ({ kind: 'generation', record: store.ownedGeneration(owner, id) })),
    ...[...filter.videos].map((id): Change => ({ kind: 'video', record: store.ownedVideo(owner, id) })),
  ];
  const lastEventId = request.req.headers['last-event-id'];
  streams.open(request.res, owner, key, filter, initial, typeof lastEventId === 'string' ? lastEventId : undefined);
  return undefined;
};

/** The change feed: the socket's replay as a plain request; answers at once, never holds the connection. */
const changes: Handler = (request) => {
  const { owner } = authenticate(request);
  const after = request.url.searchParams.get('after') ?? undefined;
  return { status: 200, body: request.ctx.streams.changes(owner, after) };
};

/** The API's routes: method, path pattern (`:name` matches one segment), handler. */
const ROUTES: [method: string, pattern: string, handler: Handler][] = [
  ['GET', '/api/health', health],
  ['GET', '/api/partners/:partnerID/origin-check', originCheck],
  ['GET', '/api/diagnose', diagnose],
  ['POST', '/api/partners/:partnerID/sign-in', signIn],
  ['POST', '/api/accounts', createAccount],
  ['POST', '/api/sessions', login],
  ['DELETE', '/api/sessions/current', logout],
  ['GET', '/api/account', getAccount],
  ['PATCH', '/api/account', updateAccount],
  ['GET', '/api/videos', listVideos],
  ['GET', '/api/videos/:videoId', getVideo],
  ['PATCH', '/api/videos/:videoId', renameVideo],
  ['GET', '/api/videos/:videoId/storyboard', getStoryboard],
  ['POST', '/api/videos/:videoId/complete', completeVideo],
  ['POST', '/api/topics', startTopicSearch],
  ['GET', '/api/topics', listTopics],
  ['GET', '/api/topics/:topicId', getTopic],
  ['POST', '/api/generations', startGeneration],
  ['GET', '/api/generations/:requestId', getGeneration],
  ['GET', '/api/events', events],
  ['GET', '/api/changes', changes],
];

function match(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const have = path.split('/');
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, segment] of want.entries()) {
    const actual = have[index] as string;
    if (segment.startsWith(':')) {
      if (actual === '') return undefined;
      try {
        params[segment.slice(1)] = decodeURIComponent(actual);
      } catch {
        return undefined;
      }
    } else if (segment !== actual) {
      return undefined;
    }
  }
  return params;
}

/** Answers one `/api/` request. Throws API errors; the server turns them into JSON. */
export async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL, ctx: ApiContext): Promise<void> {
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/$/, '') : url.pathname;
  const allowed: string[] = [];
  for (const [method, pattern, handler] of ROUTES) {
    const params = match(pattern, path);
    if (!params) continue;
    if (method !== req.method) {
      allowed.push(method);
      continue;
    }
    const reply = await handler({ req, res, url, params, ctx });
    if (reply) sendJson(res, reply.status, reply.body);
    return;
  }
  if (allowed.length > 0) {
    res.setHeader('allow', allowed.join(', '));
    throw new HttpError(405, 'bad_request', `${req.method} is not supported on ${path}; use ${allowed.join(' or ')}.`);
  }
  throw new NotFoundError(
    'not_found',
    `There is no API route ${req.method} ${path}. See docs/service.md for the routes.`,
  );
}
