/** Helpers for browser tests of the `Plugin` against the real local service. */
import { executeServerCommand } from '@web/test-runner-commands';
import { Plugin } from '../../src/plugin.js';
let config;
/** Where the test service runs (started by test/support/service-plugin.mjs). */
export function testConfig() {
  config ??= fetch('/__test/config').then((r) => r.json());
  return config;
}
/** A token minted by `video-plugin/server` in the test server, as a partner back end would. */
export async function token(kind, options = {}) {
  const response = await fetch('/__test/token', { method: 'POST', body: JSON.stringify({ kind, ...options }) });
  if (!response.ok) throw new Error(`token endpoint: ${response.status}`);
  return (await response.json()).token;
}
const created = [];
/** A Plugin for the test partner on the fast test service; cleaned up after each test. */
export async function createPlugin(options = {}) {
  const { partnerID = 'test-partner', slow, ...rest } = options;
  const { serviceURL, slowServiceURL } = await testConfig();
  const plugin = new Plugin(partnerID, { serviceURL: slow ? slowServiceURL : serviceURL, ...rest });
  created.push(plugin);
  return plugin;
}
/** Cleans up every Plugin the test created. */
export async function cleanupPlugins() {
  await Promise.all(created.splice(0).map((plugin) => plugin.cleanup()));
}
/**
 * A `getLoginToken` as a partner writes it: a login token for the account, from the partner's back
 * end. Tests that reload the frame pass it, so that they hold where the browser denies the frame
 * its storage (the reload then loses the frame's session, and this restores it).
 */
export function getLoginTokenFor(partnerID = 'test-partner') {
  return (accountID) => token('login', { partnerID, accountID });
}
/** Creates an account (with an optional externalID) and returns its ID. */
export async function signUp(plugin, account = {}) {
  return plugin.createAccount(await token('create', { partnerID: plugin.partnerID, account }));
}
/** Resolves with the payload of the next `name` event. */
export function nextEvent(plugin, name) {
  return new Promise((resolve) => {
    const off = plugin.on(name, (payload) => {
      off();
      resolve(payload);
    });
  });
}
/** Collects the statuses a subscription delivers; `until(status)` resolves when it arrives. */
export function statusLog(subscribe) {
  const statuses = [];
  const payloads = [];
  const waiters = [];
  const unsubscribe = subscribe((payload) => {
    statuses.push(payload.status);
    payloads.push(payload);
    for (const waiter of waiters.filter((w) => w.status === payload.status)) waiter.resolve();
  });
  return {
    statuses,
    payloads,
    unsubscribe,
    until(status) {
      if (statuses.includes(status)) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ status, resolve }));
    },
  };
}
/** The rejection of `promise`, or a failure when it resolves. */
export async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}
/** The error thrown by `fn`, or a failure when it returns. */
export function thrown(fn) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}
/** A page on the test server that the service can read for a topic search. */
export const BUSINESS_URL = `${location.origin}/test/fixtures/business.html`;
/** The channel id of a Plugin's iframe (from its URL hash), used to find the frame. */
export function channelOf(plugin) {
  return new URLSearchParams(new URL(plugin.iframe.src).hash.slice(1)).get('channel');
}
/** Acts inside the Plugin's cross-origin iframe like a person: real clicks, real typing. */
export function inFrame(plugin) {
  const channel = channelOf(plugin);
  return {
    click: (selector) => executeServerCommand('frame-click', { channel, selector }),
    fill: (selector, value) => executeServerCommand('frame-fill', { channel, selector, value }),
    text: (selector, timeout) =>
      executeServerCommand('frame-text', {
        channel,
        selector,
        timeout,
      }),
  };
}
//# sourceMappingURL=plugin.js.map
