/** The Penpal 7 child: the same cheap methods, over Penpal's own handshake and port. */
import { WindowMessenger, connect } from 'penpal';
import { answerClockProbes, meta, now, pushSeries } from './common.js';
const hostOrigin = meta('host');
const connection = connect({
  messenger: new WindowMessenger({ remoteWindow: window.parent, allowedOrigins: [hostOrigin] }),
  methods: {
    ping: () => null,
    getVideos: () => [],
    startPush: (count, gapMs) => {
      void connection.promise.then((host) =>
        pushSeries(count, gapMs, () => {
          void host.onPush(now());
        }),
      );
      return true;
    },
  },
});
answerClockProbes(hostOrigin);
//# sourceMappingURL=service-penpal.js.map
