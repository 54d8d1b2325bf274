// The faulty service of the fault suites (faults.test.ts, frame-faults.test.ts): the real service
// as its own process with --data, behind a proxy that plays the network
// (test/harness/wtr/fault-plugin.mjs), and the account and topic the tests share.
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { ConnectionError } from '../../src/errors.js';
import type { Plugin } from '../../src/plugin.js';
import type { PluginOptions } from '../../src/options.js';
import {
  BUSINESS_URL,
  channelOf,
  cleanupPlugins,
  createPlugin,
  getLoginTokenFor,
  signUp,
  statusLog,
  token,
} from './plugin.js';

export interface FaultConfig {
  proxyURL: string;
  directURL: string;
  closedURL: string;
}

export type Mode =
  { mode: 'ok' | 'down' } | { mode: '500'; path?: string } | { mode: 'slow'; delayMs: number; path?: string };

/** What the proxy did: answers `slow` holds back now, requests `500` refused so far. */
export const counts = async () => (await (await fetch('/__faults/counts')).json()) as { held: number; refused: number };

let config: Promise<FaultConfig> | undefined;
export const faults = (): Promise<FaultConfig> => (config ??= fetch('/__faults/config').then((r) => r.json()));

export async function fault(
  path: 'mode' | 'stop' | 'start' | 'cut' | 'restart',
  body?: Mode | { data: 'fresh' | 'original' | 'no-sessions' },
): Promise<void> {
  const response = await fetch(`/__faults/${path}`, { method: 'POST', body: JSON.stringify(body ?? {}) });
  if (!response.ok) throw new Error(`/__faults/${path}: ${response.status}`);
}
export const setMode = (mode: Mode) => fault('mode', mode);

/** Makes the Plugin's iframe reload itself, or go to `url`, from inside (its own script). */
export const frameGoes = (plugin: Plugin, action: 'reload' | 'navigate', url?: string) =>
  executeServerCommand(`frame-${action}`, { channel: channelOf(plugin), url });

export const nextLoad = (iframe: HTMLIFrameElement) =>
  new Promise<void>((resolve) => iframe.addEventListener('load', () => resolve(), { once: true }));

/**
 * What a partner does with a retryable ConnectionError: calls again, and each call loads the frame
 * anew. A test's short connectTimeout (500–800 ms, so that the fault's own error comes fast) can
 * also end a try while a busy machine loads the page again (WebKit beside stress-ng did, once in a
 * fresh-clone run): up to `tries` tries, each within that limit.
 */
export async function retried<T>(call: () => Promise<T>, tries = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const retryable = error instanceof ConnectionError && error.data?.retryable === true;
      if (!retryable || attempt >= tries) throw error;
    }
  }
}

/** The account and its COMPLETE topic on the faulty service, shared by the tests (useFaultService). */
export let accountID: string;
export let topicId: string;
export const generation = () => ({ topicId, aspectRatio: '16:9', duration: 5 }) as const;

/** A Plugin through the proxy, logged in to the shared account. */
export async function subject(options: PluginOptions = {}): Promise<Plugin> {
  const plugin = await createPlugin({
    serviceURL: (await faults()).proxyURL,
    connectTimeout: 3000,
    callTimeout: 5000,
    // The iframe faults reload the frame: where storage is blocked, this logs the account back in.
    getLoginToken: getLoginTokenFor(),
    ...options,
  });
  // Connected first: a short callTimeout of the test is for its own calls, not for a busy machine's
  // frame start.
  await plugin.ready;
  await plugin.loginAccount(await token('login', { accountID }));
  return plugin;
}

/** Another page's Plugin on a direct connection to the service: it sees what happens meanwhile. */
export async function observer(): Promise<Plugin> {
  const plugin = await createPlugin({ serviceURL: (await faults()).directURL });
  await plugin.loginAccount(await token('login', { accountID }));
  return plugin;
}

/** Errors and rejections that reach the page: there must be none. */
const pageErrors: unknown[] = [];
const onPageError = (event: ErrorEvent | PromiseRejectionEvent) =>
  pageErrors.push(event instanceof PromiseRejectionEvent ? event.reason : event.message);

/**
 * The hooks of a fault suite, called inside its `describe`: the shared account and topic first;
 * after each test the network healed, the service started, the Plugins cleaned up, and no error
 * left on the page.
 */
export function useFaultService(): void {
  before(async function () {
    this.timeout(20000);
    window.addEventListener('error', onPageError);
    window.addEventListener('unhandledrejection', onPageError);
    const plugin = await createPlugin({ serviceURL: (await faults()).proxyURL });
    accountID = await signUp(plugin);
    ({ topicId } = await plugin.startTopicSearch(BUSINESS_URL));
    await statusLog((cb) => plugin.subscribeToTopicSearchStatusUpdates(topicId, cb)).until('COMPLETE');
    await cleanupPlugins();
  });

  after(() => {
    window.removeEventListener('error', onPageError);
    window.removeEventListener('unhandledrejection', onPageError);
  });

  afterEach(async () => {
    await setMode({ mode: 'ok' });
    await fault('start');
    await cleanupPlugins();
    expect(pageErrors.splice(0)).to.deep.equal([]);
  });
}
