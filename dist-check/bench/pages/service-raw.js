/**
 * The raw baselines: a `MessageChannel` echo (the port arrives in a handshake, as in the SDK) and a
 * `window.postMessage` echo that checks source and origin, as any real page must.
 */
import { answerClockProbes, meta, now, pushSeries } from './common.js';
const hostOrigin = meta('host');
let port;
window.addEventListener('message', (event) => {
  if (event.origin !== hostOrigin || event.source !== window.parent) return;
  const data = event.data;
  if (data?.raw === 'echo') {
    window.parent.postMessage(data, hostOrigin);
  } else if (data?.raw === 'connect' && event.ports[0]) {
    port?.close();
    port = event.ports[0];
    const own = port;
    own.onmessage = (message) => {
      const request = message.data;
      if (request.push) pushSeries(request.push, request.gapMs ?? 2, () => own.postMessage({ push: now() }));
      else own.postMessage(message.data);
    };
    own.postMessage({ ready: true });
  }
});
answerClockProbes(hostOrigin);
window.parent.postMessage({ raw: 'hello' }, hostOrigin);
//# sourceMappingURL=service-raw.js.map
