/** Helpers for browser tests of the `Plugin` against the real local service. */
import { executeServerCommand } from '@web/test-runner-commands';
import { getConfig } from '@web/test-runner-core/browser/session.js';
import { Plugin } from '../../src/plugin.js';
import type { PluginOptions } from '../../src/options.js';
import type { VideoPluginError } from '../../src/errors.js';
import type {
  ActionStatus,
  PluginEventMap,
  PluginEventName,
  TopicSearchStatusUpdatePayload as StatusPayload,
} from '../../src/wire/api.js';

export interface TestConfig {
  /** The service this test file uses: real media for the real-media suites, else SVG stand-ins. */
  serviceURL: string;
  slowServiceURL: string;
  /** Whether `serviceURL` makes real media (renders, storyboards) for this test file. */
  realMedia: boolean;
  /** A service that makes real media, in every engine: for the few tests that need scenes everywhere. */
  realServiceURL: string;
  /** A service whose sessions end 3 s after their login, with searches of 4 s. */
  shortSessionServiceURL: string;
}

interface ServedConfig extends Omit<TestConfig, 'realMedia'> {
  realMediaSuites?: string[];
}

let config: Promise<TestConfig> | undefined;

/**
 * Where the test service runs (started by test/harness/wtr/service-plugin.mjs). In an engine that runs
 * some suites with real media (test/harness/browsers.mjs), this file's page gets that service.
 */
export function testConfig(): Promise<TestConfig> {
  config ??= Promise.all([fetch('/__test/config').then((r) => r.json() as Promise<ServedConfig>), getConfig()]).then(
    ([served, { testFile }]) => {
      const file = new URL(testFile, location.href).pathname.replace(/^\//, '');
      const realMedia = Boolean(served.realMediaSuites?.includes(file));
      return {
        serviceURL: realMedia ? served.realServiceURL : served.serviceURL,
        slowServiceURL: served.slowServiceURL,
        realMedia,
        realServiceURL: served.realServiceURL,
        shortSessionServiceURL: served.shortSessionServiceURL,
      };
    },
  );
  return config;
}

/** A token minted by `video-plugin/server` in the test server, as a partner back end would. */
export async function token(
  kind: 'create' | 'login' | 'loginOrCreate',
  options: {
    partnerID?: string;
    account?: Record<string, string>;
    accountID?: string;
    externalID?: string;
    /** Minted ten minutes ago, for one minute: the service refuses it as `token_expired`. */
    expired?: boolean;
  } = {},
): Promise<string> {
  const response = await fetch('/__test/token', { method: 'POST', body: JSON.stringify({ kind, ...options }) });
  if (!response.ok) throw new Error(`token endpoint: ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

const created: Plugin[] = [];

/**
 * Records, from now until `stop(until)`, every console error or warning of the page and its frames
 * and every HTTP response >= 400 they get (test/harness/wtr/frame-commands.mjs). The browser reports
 * them a little after the page has its answer, so `stop` first waits for an entry matching `until`
 * (make the test's last step cause one: what came before it has then been reported too). `stop`
 * gives false in WebKit, where WebDriver sees neither.
 */
export async function recordBrowserLog(): Promise<{ stop(until: RegExp): Promise<string[] | false> }> {
  await executeServerCommand('browser-log', { value: 'start' });
  return {
    stop: (until) =>
      executeServerCommand<string[] | false, { value: string; until: string }>('browser-log', {
        value: 'stop',
        until: until.source,
      }),
  };
}

/**
 * A Plugin for the test partner on the fast test service (`slow`: jobs that take seconds; `real`:
 * real media, scenes and renders, in every engine; `shortSessions`: sessions that end 3 s after
 * their login); cleaned up after each test.
 */
export async function createPlugin(
  options: PluginOptions & { partnerID?: string; slow?: boolean; real?: boolean; shortSessions?: boolean } = {},
): Promise<Plugin> {
  const { partnerID = 'test-partner', slow, real, shortSessions, ...rest } = options;
  const { serviceURL, slowServiceURL, realServiceURL, shortSessionServiceURL } = await testConfig();
  const url = shortSessions ? shortSessionServiceURL : slow ? slowServiceURL : real ? realServiceURL : serviceURL;
  const plugin = new Plugin(partnerID, { serviceURL: url, ...rest });
  created.push(plugin);
  return plugin;
}

/**
 * The waits of `nextEvent` and `statusLog().until` still open, each describing itself (what it
 * waits for, what it saw so far). A test that runs out of time says only "Timeout of N ms
 * exceeded"; `cleanupPlugins` then names these, so the log says which step never came.
 */
const openWaits = new Set<() => string>();

function awaited<T>(describe: () => string, promise: Promise<T>): Promise<T> {
  openWaits.add(describe);
  return promise.finally(() => openWaits.delete(describe));
}

/** Cleans up every Plugin the test created (an `afterEach`); after a failed test, names its open waits. */
export async function cleanupPlugins(this: Mocha.Context | void): Promise<void> {
  const test = this?.currentTest;
  if (test?.state === 'failed' && openWaits.size > 0) {
    console.error(`"${test.title}" still awaited: ${[...openWaits].map((describe) => describe()).join('; ')}`);
  }
  openWaits.clear();
  await Promise.all(created.splice(0).map((plugin) => plugin.cleanup()));
}

/**
 * A `getLoginToken` as a partner writes it: a login token for the account, from the partner's back
 * end. Tests that reload the frame pass it, so that they hold where the browser denies the frame
 * its storage (the reload then loses the frame's session, and this restores it).
 */
export function getLoginTokenFor(partnerID = 'test-partner'): (accountID: string) => Promise<string> {
  return (accountID) => token('login', { partnerID, accountID });
}

/** Creates an account (with an optional externalID) and returns its ID. */
export async function signUp(plugin: Plugin, account: Record<string, string> = {}): Promise<string> {
  return plugin.createAccount(await token('create', { partnerID: plugin.partnerID, account }));
}

/**
 * Signs a new account up on `plugin`, searches `sourceURL` (BUSINESS_URL) and generates a 5 s 16:9
 * video from it; resolves with the video's ID once the generation has ended (COMPLETE, or FAILED
 * for `videoInstructions` with the service's `[fail]` marker). The video is not completed.
 */
export async function generatedVideo(
  plugin: Plugin,
  videoInstructions?: string,
  sourceURL = BUSINESS_URL,
): Promise<string> {
  await signUp(plugin);
  const { topicId } = await plugin.startTopicSearch(sourceURL);
  await statusLog((cb) => plugin.subscribeToTopicSearchStatusUpdates(topicId, cb)).until('COMPLETE');
  const { videoId, requestId } = await plugin.startVideoGeneration({
    topicId,
    aspectRatio: '16:9',
    duration: 5,
    ...(videoInstructions ? { videoInstructions } : {}),
  });
  const generation = statusLog((cb) => plugin.subscribeToVideoGenerationStatusUpdates(requestId, cb));
  await generation.until('COMPLETE', 'FAILED');
  generation.unsubscribe();
  return videoId;
}

/** Resolves with the payload of the next `name` event. */
export function nextEvent<K extends PluginEventName>(plugin: Plugin, name: K): Promise<PluginEventMap[K]> {
  return awaited(
    () => `the event ${name}`,
    new Promise((resolve) => {
      const off = plugin.on(name, (payload) => {
        off();
        resolve(payload);
      });
    }),
  );
}

/** The statuses an action ends in: nothing follows them. */
const FINAL: ActionStatus[] = ['COMPLETE', 'FAILED'];

/**
 * Collects what a subscription delivers: `payloads`, every update (progress moves within a
 * status too), and `statuses`, each status change once. `until(...wanted)` resolves when one of
 * them arrives, and fails at once, with the final payload, when the action ends otherwise.
 */
export function statusLog(subscribe: (callback: (payload: StatusPayload) => void) => () => void) {
  const statuses: ActionStatus[] = [];
  const payloads: StatusPayload[] = [];
  const waiters: { wanted: ActionStatus[]; resolve: () => void; reject: (error: Error) => void }[] = [];
  /** The answer to a wait for `wanted`: reached (true), ended otherwise (an error), or neither yet. */
  const outcome = (wanted: ActionStatus[]): true | Error | undefined => {
    if (statuses.some((status) => wanted.includes(status))) return true;
    const end = payloads.find((payload) => FINAL.includes(payload.status));
    return end && new Error(`waited for the status ${wanted.join(' or ')}, but it ended ${JSON.stringify(end)}`);
  };
  const unsubscribe = subscribe((payload) => {
    if (statuses.at(-1) !== payload.status) statuses.push(payload.status);
    payloads.push(payload);
    for (const waiter of waiters.splice(0)) {
      const settled = outcome(waiter.wanted);
      if (settled === true) waiter.resolve();
      else if (settled) waiter.reject(settled);
      else waiters.push(waiter);
    }
  });
  return {
    statuses,
    payloads,
    unsubscribe,
    until(...wanted: ActionStatus[]): Promise<void> {
      const settled = outcome(wanted);
      if (settled === true) return Promise.resolve();
      if (settled) return Promise.reject(settled);
      return awaited(
        () => `the status ${wanted.join(' or ')} (seen: ${statuses.join(', ') || 'none'})`,
        new Promise((resolve, reject) => waiters.push({ wanted, resolve, reject })),
      );
    },
  };
}

/**
 * Waits until `check` holds, re-checking on every animation frame (for state set by observers or
 * by the other side of the wire); fails naming `what` after `timeout` ms.
 */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeout = 5000): Promise<void> {
  const deadline = performance.now() + timeout;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
}

/** The rejection of `promise`, or a failure when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<VideoPluginError> {
  try {
    await promise;
  } catch (error) {
    return error as VideoPluginError;
  }
  throw new Error('expected the promise to reject');
}

/** The error thrown by `fn`, or a failure when it returns. */
export function thrown(fn: () => unknown): VideoPluginError {
  try {
    fn();
  } catch (error) {
    return error as VideoPluginError;
  }
  throw new Error('expected the call to throw');
}

/** A page on the test server that the service can read for a topic search. */
export const BUSINESS_URL = `${location.origin}/test/fixtures/business.html`;

/** A page with a photo (which the service keeps and shows) and an SVG (which it refuses). */
export const PICTURES_URL = `${location.origin}/test/fixtures/pictures.html`;

/** The channel id of a Plugin's iframe (from its URL hash), used to find the frame. */
export function channelOf(plugin: Plugin): string {
  return new URLSearchParams(new URL(plugin.iframe.src).hash.slice(1)).get('channel')!;
}

/** What `inFrame(plugin).probe(selector)` reads: an element's text and look, the page's language. */
export interface FrameProbe {
  text: string;
  /** The value of a form field. */
  value?: string;
  /** Whether the element matches `:disabled` (a control, or a fieldset). */
  disabled: boolean;
  /** How many form controls in it are not disabled. */
  enabled: number;
  lang: string;
  color: string;
  background: string;
  fontFamily: string;
  radius: string;
  paddingTop: string;
  pageBackground: string;
  colorScheme: string;
}

/** What `inFrame(plugin).policy(url)` finds: the frame's Trusted Types and its CSP for images. */
export interface FramePolicy {
  /** Whether the engine has Trusted Types (`window.trustedTypes`). */
  trustedTypes: boolean;
  /** `TypeError` when a string given to `innerHTML` was refused, `allowed` when it was taken. */
  sink: string;
  /** `SecurityError` when the sandbox refused `document.domain = document.domain`, else `allowed`. */
  domain: string;
  /** The error's name when setting the partner page's `top.location` was refused, else `allowed`. */
  top: string;
  /** The image's fate: refused (with its `img-src` violation) or loaded. */
  image: { refused: boolean; directive?: string; blocked?: string } | 'no violation event';
}

/** The WebDriver code of the Escape key, for `inFrame(plugin).key`. */
export const ESCAPE = '\uE00C';

/** Acts inside the Plugin's cross-origin iframe like a person: real clicks, real typing. */
export function inFrame(plugin: Plugin) {
  const channel = channelOf(plugin);
  const command = <T = unknown>(name: string, args: Record<string, unknown>) =>
    awaited(
      () => `${name} ${String(args.selector ?? args.url)}`,
      executeServerCommand<T, Record<string, unknown>>(name, { channel, ...args }),
    );
  return {
    click: (selector: string) => command('frame-click', { selector }),
    fill: (selector: string, value: string) => command('frame-fill', { selector, value }),
    probe: (selector: string) => command<FrameProbe | null>('frame-probe', { selector }),
    /** Once every `<img>` matching `selector` has loaded or failed: each one's URL and natural width. */
    pictures: (selector: string) => command<{ src: string; width: number }[]>('frame-pictures', { selector }),
    /**
     * Inside the frame: a string given to a DOM XSS sink (`innerHTML`; `sink` is the error's name, or
     * `allowed`), `document.domain` and the partner page's location set (to `url`: `domain`, `top`),
     * and an `<img>` from `url` (`refused` with the CSP violation, or loaded).
     */
    policy: (url: string) => command<FramePolicy>('frame-policy', { url }),
    /** Clicks `selector`, then presses `key` (a WebDriver key code: ESCAPE for Escape). */
    key: (selector: string, key: string) => command('frame-key', { selector, value: key }),
    text: (selector: string, timeout?: number) => command<string | null>('frame-text', { selector, timeout }),
  };
}
