/**
 * `startService()`: the local service in-process — used by the `video-plugin-service` command, by
 * `npm start`, and by the test runners. It wires the store, the jobs, the status streams and socket
 * and the routes into one `node:http` server. Every request is handled inside a try/catch, so a bad
 * request costs one error answer, never the process.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { NotFoundError } from 'video-plugin/internal';
import { handleApi, type ApiContext } from './http/api.js';
import { resolveConfig, type ServiceOptions } from './config.js';
import { HttpError, sendError } from './http/reply.js';
import { hostAllowed, hostRefusal } from './http/hosts.js';
import { egressPolicy, sourcePolicy } from './egress.js';
import { Jobs } from './jobs/jobs.js';
import { Live } from './http/live.js';
import { announceFfmpeg } from './media/tools.js';
import { serveAsset, serveMedia, servePluginPage } from './http/static.js';
import { JobQueue } from './jobs/queue.js';
import { Store } from './store/store.js';
import { Streams } from './http/stream.js';
import { WEBHOOK_LOCKS, Webhooks, type WebhookAttempt } from './webhooks/webhooks.js';
import { Claims, WaitedLocks } from './jobs/claims.js';
import { SCENE_LOCKS } from './media/segments.js';
import { Budgets } from './http/limits.js';
import { advanceStepClock, REAL_CLOCK, StepClock } from './jobs/clock.js';
import { TestControls, type ForceRequest } from './jobs/test-controls.js';
import { Sandboxes, type SandboxCredentials, type SandboxOptions } from './sandboxes.js';
import { S3MediaStore, type MediaStore } from './media/store.js';

export type { ServiceOptions, PartnerOptions } from './config.js';
export type { WebhookAttempt, WebhookOutcome } from './webhooks/webhooks.js';
export type { ForceRequest, ForcedOutcome, FailureCode, TestJob } from './jobs/test-controls.js';
export type { SandboxCredentials, SandboxOptions } from './sandboxes.js';
export { DEMO_PARTNER_ID, DEMO_SECRET, DEFAULT_ALLOWED_ORIGINS } from './config.js';

/** A running service. */
export interface RunningService {
  /** Base URL of the service, e.g. `http://127.0.0.1:8001` (no trailing slash); same as `origin`. */
  readonly url: string;
  /** The service's origin, e.g. `http://127.0.0.1:8001`. */
  readonly origin: string;
  /** The port it listens on (the one picked when 0 was asked). */
  readonly port: number;
  /** The partners configured at start (not the sandboxes), with their secrets, allowed origins and webhook URLs. */
  readonly partners: readonly {
    id: string;
    secret: string;
    /** Its webhook secrets, the one that signs first (none: no webhooks, no event log). */
    webhookSecrets: readonly string[];
    allowedOrigins: readonly string[];
    webhookURLs: readonly string[];
    /** How its users may sign in (`jwt`, `uncontrolled`). */
    authModes: readonly string[];
  }[];
  /** Milliseconds a topic search or generation takes. */
  readonly jobMs: number;
  /** Whether topic searches may reach this machine: on any port (`true`), the ports listed, or not. */
  readonly allowLoopbackSources: boolean | readonly number[];
  /** Meant for shared use (`--shared`): no answer names a partner ID (config.ts). */
  readonly shared: boolean;
  /**
   * The sandboxes' settings: `http` says whether `POST /api/sandboxes` is open (an operator key
   * was given; the key itself is not shown), and the limits (docs/service.md "Sandboxes").
   */
  readonly sandboxes: { http: boolean; max: number; ttlMs: number; jobsPerSandbox: number };
  /** The data file, when state is kept across restarts. */
  readonly dataFile: string | undefined;
  /** The PostgreSQL database the state is kept in, without its password (postgres://user@host/db). */
  readonly database: string | undefined;
  /** The S3 media store, as a log may show it (bucket and endpoint); undefined: the media folder. */
  readonly mediaStore: string | undefined;
  /** The webhook deliveries: every attempt so far, and a way to wait until none is under way. */
  readonly webhooks: {
    /** Every attempt, oldest first; the last attempt of a delivery says `delivered` or `failed`. */
    readonly deliveries: readonly WebhookAttempt[];
    /** Resolves once no delivery is under way (retries included). */
    settled(): Promise<void>;
  };
  /**
   * The test controls (`testControls: true`; docs/service.md "Test controls"). Every method throws
   * `test_controls_off` when they are off.
   */
  readonly testControls: {
    /** Whether the service was started with them. */
    readonly enabled: boolean;
    /**
     * Queues an outcome for the partner's (or one of its accounts') next job of a kind, as POST
     * /api/test/outcomes does: `{ job: 'topicSearch' | 'generation' | 'render', account?,
     * outcome: { fail: code } | { stall: stage } | { takeMs } }`.
     */
    force(partnerID: string, request: ForceRequest): ForceRequest;
    /**
     * Clears the queued outcomes and lets the stalled jobs go on: the partner's, or everyone's;
     * resolves once the released jobs have saved their steps up to their next timed wait or end.
     * On a shared database every process's, but `released` counts (and waits for) this one's only.
     */
    release(partnerID?: string): Promise<{ cleared: number; released: number }>;
  };
  /** The jobs' clock (`clock: 'manual'`: the step clock; docs/service.md "Test controls"). */
  readonly clock: {
    /** Whether it is the step clock. */
    readonly manual: boolean;
    /**
     * Moves the partner's time (or every partner's) `ms` forward and resolves once the jobs it
     * released have saved their steps and wait again, stall or have ended. Throws
     * `test_controls_off` unless the clock is manual.
     */
    advance(ms: number, options?: { partnerID?: string }): Promise<{ released: number }>;
    /** Jobs waiting on the clock: the partner's, or everyone's (0 with the real clock). */
    waiting(partnerID?: string): number;
  };
  /**
   * Makes a sandbox: a partner of its own, with fresh secrets, for one test or CI job; every
   * record, event, file and budget of it is its own. It lives `sandboxes.ttlMs` (default 1 hour)
   * unless reset sooner. Works whether or not the HTTP door (`sandboxes.operatorKey`) is open.
   *
   * @param options - `{ allowedOrigins?, webhookURLs?, authModes? }`, checked like a configured partner's.
   * @throws {InvalidParameterError} `invalid_parameter` naming the bad field.
   * @throws {VideoPluginError} `sandbox_limit_reached` when `sandboxes.max` are live.
   */
  createSandbox(options?: SandboxOptions): Promise<SandboxCredentials>;
  /**
   * Resets a sandbox: removes its records and media files, stops its jobs, ends its sessions,
   * streams and sockets; its tokens are then refused with `sandbox_expired`. Resolves when done.
   *
   * @throws {NotFoundError} `sandbox_not_found` when it is no live sandbox.
   */
  resetSandbox(partnerID: string): Promise<void>;
  /** Counts of what the service holds right now, for tests that check nothing leaks or appears. */
  stats(): ServiceStats;
  /** Stops the service: ends streams and jobs, closes every connection, then the data file. */
  close(): Promise<void>;
}

/** What {@link RunningService.stats} counts. */
export interface ServiceStats {
  accounts: number;
  sessions: number;
  topics: number;
  generations: number;
  videos: number;
  /** Token IDs remembered against replay. */
  usedJtis: number;
  /** Open status streams and status sockets. */
  streams: number;
  /** Listeners on the store's changes (one per open stream). */
  listeners: number;
  /** Background jobs running. */
  jobs: number;
  /** Topic searches waiting PENDING for a fetch slot (`searchSlots`). */
  searchesWaiting: number;
  /** Open TCP connections, idle keep-alive ones included. */
  connections: number;
  /** Live sandboxes. */
  sandboxes: number;
}

/**
 * Starts the local service and resolves once it listens.
 *
 * @param options - see {@link ServiceOptions}; e.g. `{ port: 0, jobMs: 100 }` in tests.
 * @throws {InvalidParameterError} `invalid_parameter` naming the bad option; or the listen error
 *   (e.g. `EADDRINUSE`).
 */
export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const config = resolveConfig(options);
  const store = await Store.open(config.dataFile, config.database);
  // Kept images (both media modes: the studio shows only pictures from its own origin) and real
  // renders need a folder: the configured one, or a temporary one that lives as long as this.
  const temporaryMedia = !config.mediaDir;
  const mediaDir = temporaryMedia ? await mkdtemp(join(tmpdir(), 'video-plugin-media-')) : (config.mediaDir ?? '');
  const mediaStore = config.mediaStore
    ? await S3MediaStore.open(config.mediaStore, config.mediaStoreRetryMs)
    : undefined;
  let origin = '';
  let port = 0;
  // What the service may fetch: never itself (its port is known once it listens); a topic's source
  // and images on this machine only as the operator allowed.
  const webhooks = new Webhooks(
    config,
    store,
    () => origin,
    egressPolicy(config.host, config.allowPrivateSources, () => port),
    // On a shared database each delivery is made by one service at a time (webhooks.ts).
    config.database === undefined
      ? undefined
      : await Claims.open(config.database, WEBHOOK_LOCKS, `video-plugin-service webhooks pid ${process.pid}`),
  );
  const stepClock = config.clock === 'manual' ? new StepClock() : undefined;
  // On a shared database the forced outcomes are its records, and a release reaches every service.
  const controls = new TestControls(
    config.testControls,
    config.partners,
    config.media,
    store.sharesOutcomes ? store : undefined,
  );
  // Services sharing a PostgreSQL database share their jobs through pg-boss (jobs/queue.ts).
  const queue =
    config.database === undefined
      ? undefined
      : await JobQueue.open(config.database, Math.max(8, config.renderConcurrency * 4)).catch(
          async (error: unknown) => {
            await store.close();
            throw error;
          },
        );
  // A scene one service encodes is waited for by the others' renders that want it (media/segments.ts).
  const sceneLocks =
    config.database === undefined
      ? undefined
      : await WaitedLocks.open(config.database, SCENE_LOCKS, `video-plugin-service scenes pid ${process.pid}`);
  const jobs = new Jobs(store, {
    ...config,
    mediaDir,
    mediaStore,
    ...(sceneLocks ? { sceneLock: (name: string) => sceneLocks.hold(name) } : {}),
    webhooks,
    egress: sourcePolicy(config.allowLoopbackSources, config.allowPrivateSources, () => port),
    clock: stepClock ?? REAL_CLOCK,
    controls,
    ...(queue
      ? { queue, admit: (partnerID: string, starting: string) => sandboxes.admitJob(partnerID, starting) }
      : {}),
  });
  const streams = new Streams(store, { heartbeatMs: config.heartbeatMs, baseURL: () => origin, sessions: config });
  const budgets = new Budgets(config.limits);
  const sandboxes = new Sandboxes({
    config,
    store,
    jobs,
    webhooks,
    endSession: (key) => streams.endSession(key),
    mediaDir,
  });
  // What a killed run left of its sandboxes (with a data file), before any of its jobs resumes. On a
  // shared database the sandboxes there are served (other running services may have made them),
  // and those whose time is over are ended.
  const leftovers = await sandboxes.start();
  if (leftovers > 0) {
    console.log(
      queue
        ? `video-plugin-service: ended ${leftovers} sandboxes whose time was over in ${store.location ?? ''}.`
        : `video-plugin-service: removed ${leftovers} sandboxes a previous run left in ${config.dataFile ?? ''}.`,
    );
  }
  const ctx: ApiContext = {
    config,
    store,
    jobs,
    streams,
    webhooks,
    baseURL: () => origin,
    mediaDir,
    budgets,
    controls,
    stepClock,
    sandboxes,
  };
  const live = new Live(config, store, streams, () => origin);

  const server = createServer((req, res) => {
    if (!hostAllowed(req.headers.host, config.publicHosts)) {
      return sendError(res, new HttpError(403, 'origin_not_allowed', hostRefusal(req.headers.host ?? '')));
    }
    handle(req, res, ctx, mediaStore).catch((error: unknown) => sendError(res, error));
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!hostAllowed(req.headers.host, config.publicHosts)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    live.upgrade(req, socket, head);
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  ({ port } = server.address() as AddressInfo);
  origin = `http://${displayHost(config.host)}:${port}`;
  // What a previous run left unfinished (with a data file): jobs, then webhook deliveries. On a
  // shared database the queue keeps the jobs: this service works it with the others.
  if (queue) await queue.work((ref) => jobs.runQueued(ref));
  else jobs.resume();
  webhooks.resume();
  if (config.media === 'real') announceFfmpeg(); // which ffmpeg renders (path, version), once

  let closing: Promise<void> | undefined;
  return {
    url: origin,
    origin,
    port,
    partners: config.partners.configured().map((partner) => ({
      id: partner.id,
      secret: partner.secret,
      webhookSecrets: partner.webhookSecrets,
      allowedOrigins: partner.allowedOrigins.map((pattern) => pattern.source),
      webhookURLs: partner.webhookURLs,
      authModes: partner.authModes,
    })),
    jobMs: config.jobMs,
    allowLoopbackSources: config.allowLoopbackSources,
    shared: config.shared,
    sandboxes: {
      http: config.sandboxes.operatorKey !== undefined,
      max: config.sandboxes.max,
      ttlMs: config.sandboxes.ttlMs,
      jobsPerSandbox: config.sandboxes.jobsPerSandbox,
    },
    dataFile: config.dataFile,
    database: config.database === undefined ? undefined : store.location,
    mediaStore: mediaStore?.description,
    webhooks: { deliveries: webhooks.deliveries, settled: () => webhooks.settled() },
    testControls: {
      enabled: controls.enabled,
      force: (partnerID, request) => controls.force(partnerID, request),
      release: (partnerID) => controls.release(partnerID),
    },
    clock: {
      manual: stepClock !== undefined,
      advance: async (ms, { partnerID } = {}) => advanceStepClock(stepClock, ms, partnerID, config.partners),
      waiting: (partnerID) => stepClock?.waiting(partnerID) ?? 0,
    },
    createSandbox: async (options) => sandboxes.create(options),
    resetSandbox: (partnerID) => sandboxes.reset(partnerID),
    stats: () => ({
      accounts: store.accounts.size,
      sessions: store.sessions.size,
      topics: store.topics.size,
      generations: store.generations.size,
      videos: store.videos.size,
      usedJtis: store.usedJtis.size,
      streams: streams.size + live.size,
      listeners: store.listenerCount,
      jobs: jobs.running,
      searchesWaiting: jobs.searchQueue.waiting,
      connections: sockets.size,
      sandboxes: sandboxes.size,
    }),
    close() {
      closing ??= (async () => {
        await sandboxes.close();
        // A job stopped by the close is not reported done to the shared queue: it goes to another service.
        queue?.stopping();
        await jobs.close();
        await sceneLocks?.end();
        await queue?.close();
        await webhooks.close();
        streams.endAll();
        await live.closeAll();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        await store.close();
        mediaStore?.close();
        if (temporaryMedia) await rm(mediaDir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: ApiContext,
  mediaStore: MediaStore | undefined,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://service.invalid');
  const path = url.pathname;
  // On a database other processes share, what they acknowledged is read first (a no-op otherwise).
  if (path.startsWith('/api/') || path.startsWith('/media/')) ctx.store.refresh();
  if (path === '/api' || path.startsWith('/api/')) return handleApi(req, res, url, ctx);
  if (req.method === 'GET' || req.method === 'HEAD') {
    if (path === '/plugin') return servePluginPage(res, ctx.config, url.searchParams.get('partner'));
    if (path === '/') {
      // For a person who opens the service's address in a browser.
      const text =
        'video-plugin local service\n\nPlugin page: /plugin (opened by the Plugin in its iframe)\nHealth: /api/health\nAPI: see docs/service.md in the video-plugin package\n';
      res
        .writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' })
        .end(text);
      return;
    }
    if (path.startsWith('/assets/')) return serveAsset(req, res, path, ctx.config);
    if (path.startsWith('/media/')) return serveMedia(req, res, path, ctx.store, ctx.mediaDir, mediaStore);
  }
  throw new NotFoundError(`Nothing is served at ${req.method} ${path}.`);
}

/** The host as it appears in a URL: a wildcard address is reached through loopback. */
function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
