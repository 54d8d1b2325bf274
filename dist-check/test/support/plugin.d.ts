import { Plugin } from '../../src/plugin.js';
import type { PluginOptions } from '../../src/options.js';
import type { VideoPluginError } from '../../src/errors.js';
import type { ActionStatus, PluginEventMap, PluginEventName } from '../../src/wire/api.js';
export interface TestConfig {
  serviceURL: string;
  slowServiceURL: string;
}
/** Where the test service runs (started by test/support/service-plugin.mjs). */
export declare function testConfig(): Promise<TestConfig>;
/** A token minted by `video-plugin/server` in the test server, as a partner back end would. */
export declare function token(
  kind: 'create' | 'login',
  options?: {
    partnerID?: string;
    account?: Record<string, string>;
    accountID?: string;
    externalID?: string;
  },
): Promise<string>;
/** A Plugin for the test partner on the fast test service; cleaned up after each test. */
export declare function createPlugin(
  options?: PluginOptions & {
    partnerID?: string;
    slow?: boolean;
  },
): Promise<Plugin>;
/** Cleans up every Plugin the test created. */
export declare function cleanupPlugins(): Promise<void>;
/**
 * A `getLoginToken` as a partner writes it: a login token for the account, from the partner's back
 * end. Tests that reload the frame pass it, so that they hold where the browser denies the frame
 * its storage (the reload then loses the frame's session, and this restores it).
 */
export declare function getLoginTokenFor(partnerID?: string): (accountID: string) => Promise<string>;
/** Creates an account (with an optional externalID) and returns its ID. */
export declare function signUp(plugin: Plugin, account?: Record<string, string>): Promise<string>;
/** Resolves with the payload of the next `name` event. */
export declare function nextEvent<K extends PluginEventName>(plugin: Plugin, name: K): Promise<PluginEventMap[K]>;
/** Collects the statuses a subscription delivers; `until(status)` resolves when it arrives. */
export declare function statusLog(
  subscribe: (
    callback: (payload: {
      status: ActionStatus;
      error?: {
        code: string;
        message: string;
      };
    }) => void,
  ) => () => void,
): {
  statuses: ('PENDING' | 'PROCESSING' | 'COMPLETE' | 'FAILED')[];
  payloads: {
    status: ActionStatus;
    error?: {
      code: string;
      message: string;
    };
  }[];
  unsubscribe: () => void;
  until(status: ActionStatus): Promise<void>;
};
/** The rejection of `promise`, or a failure when it resolves. */
export declare function rejection(promise: Promise<unknown>): Promise<VideoPluginError>;
/** The error thrown by `fn`, or a failure when it returns. */
export declare function thrown(fn: () => unknown): VideoPluginError;
/** A page on the test server that the service can read for a topic search. */
export declare const BUSINESS_URL: string;
/** The channel id of a Plugin's iframe (from its URL hash), used to find the frame. */
export declare function channelOf(plugin: Plugin): string;
/** Acts inside the Plugin's cross-origin iframe like a person: real clicks, real typing. */
export declare function inFrame(plugin: Plugin): {
  click: (selector: string) => Promise<unknown>;
  fill: (selector: string, value: string) => Promise<unknown>;
  text: (selector: string, timeout?: number) => Promise<string | null>;
};
//# sourceMappingURL=plugin.d.ts.map
