/**
 * The studio's one state, shared by its modules: the API client and status hub, the host's
 * configuration, the view on screen and its watchers. Two slots are filled once at boot by app.ts,
 * `endpoint` (the wire to the host) and `actions` (what the views call): through them navigation,
 * actions and host methods reach each other without importing app.ts or each other in a circle.
 */
import { createLogger, type HostConfig, type ServiceEndpoint } from 'video-plugin/internal';
import { ApiClient } from './client.js';
import { StatusHub } from './status.js';
import type { View, ViewActions } from './views.js';

const partnerID = new URLSearchParams(location.search).get('partner') ?? '';
const api = new ApiClient(partnerID);

/** The studio's state: what every module of the page reads and writes. */
export const studio = {
  /** Where the views render. */
  root: document.getElementById('app') ?? document.body,
  /** The partner this page serves (its `?partner=`). */
  partnerID,
  /** The channel in the URL's hash (set by the host's `Plugin`), or null when opened alone. */
  channel: new URLSearchParams(location.hash.slice(1)).get('channel'),
  api,
  hub: new StatusHub(api),
  /** The host's configuration, from the handshake and `configure`. */
  config: undefined as HostConfig | undefined,
  log: createLogger(false, 'service page'),
  view: { name: 'blank' } as View,
  /** Stops the watchers that belong to the current view. */
  stopViewWatchers: [] as (() => void)[],
  /** The wire to the host's `Plugin` (filled at boot, before anything can use it). */
  endpoint: undefined as unknown as ServiceEndpoint,
  /** What the views call (filled at boot, before the first render). */
  actions: undefined as unknown as ViewActions,
};
