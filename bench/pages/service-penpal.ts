/** The Penpal 7 child: the same cheap methods, over Penpal's own handshake and port. */
import { WindowMessenger, connect } from 'penpal';
import { answerClockProbes, meta, now, pushSeries } from './common.js';

const hostOrigin = meta('host');

interface HostMethods {
  [name: string]: (...args: never[]) => unknown;
  onPush: (sentAt: number) => void;
}

const connection = connect<HostMethods>({
  messenger: new WindowMessenger({ remoteWindow: window.parent, allowedOrigins: [hostOrigin] }),
  methods: {
    ping: () => null,
    getVideos: () => [],
    startPush: (count: number, gapMs: number) => {
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
