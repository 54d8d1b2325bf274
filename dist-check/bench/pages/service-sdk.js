/**
 * The service side for the SDK measurements: the real service-side wire module (`serveHost`)
 * answering the methods the bench calls from memory, with no HTTP behind them, the way the
 * service page answers a logged-out `getVideos`.
 */
import { serveHost } from '../../src/wire/service.js';
import { answerClockProbes, meta, now, pushSeries, videoAt } from './common.js';
const hostOrigin = meta('host');
const endpoint = serveHost({
  checkOrigin: (origin) =>
    origin === hostOrigin
      ? undefined
      : { code: 'origin_not_allowed', message: `The origin ${origin} is not allowed.`, data: { origin } },
  info: () => ({ accountID: null }),
  methods: {
    ping: () => null,
    getVideos: () => [],
    logoutAccount: () => null,
    close: () => null,
  },
  topics: {
    videoGeneration: (_key, push) => {
      push({ status: 'PENDING' });
      return () => {};
    },
  },
});
answerClockProbes(hostOrigin);
// The trigger of the event-push measurement comes on the window channel, so the SDK's own traffic
// is only the pushed events themselves.
window.addEventListener('message', (event) => {
  if (event.origin !== hostOrigin || event.source !== window.parent) return;
  const data = event.data;
  if (data?.bench !== 'push') return;
  pushSeries(data.count ?? 0, data.gapMs ?? 2, () => endpoint.emit('videoSaved', videoAt(now())));
});
//# sourceMappingURL=service-sdk.js.map
