// A web-test-runner plugin for test/browser/diagnose.test.ts: partner pages broken in each way
// diagnose() looks for, served for real, and stand-ins for services that are wrong in ways the
// local service never is.
// - /__diagnose/page.html?csp=…&referrer=…&meta-csp=…&meta-referrer=…: a partner page (same origin
//   as the test page) with that Content-Security-Policy / Referrer-Policy as real response headers
//   (HEAD too: diagnose() reads them that way) and/or <meta> tags; it loads
//   test/fixtures/diagnose-page.ts, which puts diagnose() on its window;
// - /__diagnose/v2/…: a "service" whose page and endpoint speak protocol 2 (a version mismatch);
// - /__diagnose/fa/…: a "service" whose plugin page allows only https://shop.example as its
//   frame-ancestors (the browser refuses to show it in the test page);
// - /__diagnose/config: a loopback port nothing listens on (a service that is down) and the engine.
import { selectedEngine } from '../browsers.mjs';
import { freePort } from '../free-port.mjs';

const escape = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The partner page: meta tags as asked, and the module that exposes diagnose(). */
function pageHtml(params) {
  const metaCsp = params.get('meta-csp');
  const metaReferrer = params.get('meta-referrer');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A partner page for diagnose()</title>
${metaCsp ? `<meta http-equiv="Content-Security-Policy" content="${escape(metaCsp)}">\n` : ''}${
    metaReferrer ? `<meta name="referrer" content="${escape(metaReferrer)}">\n` : ''
  }<script type="module" src="/test/fixtures/diagnose-page.ts"></script>
</head><body></body></html>`;
}

/** The stand-in services' endpoint answer. */
function fakeAnswer(context, { protocolVersion, frameAncestors }) {
  const origin = context.get('origin') || null;
  return {
    service: 'video-plugin-service',
    version: protocolVersion === 1 ? '0.1.0' : '9.0.0',
    protocolVersion,
    partnerID: context.URL.searchParams.get('partnerID'),
    origin,
    originAllowed: true,
    frameAncestors,
    pluginURL: `${context.URL.origin}/plugin`,
  };
}

/** A page that says hello as the service page does, in protocol `v`. */
const helloPage = (v) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>stand-in</title>
<script>
  const channel = new URLSearchParams(location.hash.slice(1)).get('channel');
  parent.postMessage({ videoPlugin: 'hello', v: ${v}, channel }, '*');
</script></head><body></body></html>`;

const FAKES = {
  '/__diagnose/v2/': { protocolVersion: 2, frameAncestors: ['*'], v: 2, pageHeaders: {} },
  '/__diagnose/fa/': {
    protocolVersion: 1,
    frameAncestors: ['https://shop.example'],
    v: 1,
    pageHeaders: { 'content-security-policy': 'frame-ancestors https://shop.example' },
  },
};

export function diagnosePlugin() {
  return {
    name: 'video-plugin-diagnose',
    async serve(context) {
      if (context.path === '/__diagnose/config') {
        return {
          body: JSON.stringify({
            downServiceURL: `http://127.0.0.1:${await freePort()}`,
            storageBlocked: Boolean(selectedEngine().storageBlocked),
          }),
          type: 'application/json',
        };
      }
      if (context.path === '/__diagnose/page.html') {
        const params = context.URL.searchParams;
        const headers = { 'cache-control': 'no-store' };
        if (params.get('csp')) headers['content-security-policy'] = params.get('csp');
        if (params.get('referrer')) headers['referrer-policy'] = params.get('referrer');
        return { body: pageHtml(params), type: 'text/html', headers };
      }
      for (const [prefix, fake] of Object.entries(FAKES)) {
        if (!context.path.startsWith(prefix)) continue;
        const rest = context.path.slice(prefix.length);
        if (rest === 'api/diagnose') {
          return {
            body: JSON.stringify(fakeAnswer(context, fake)),
            type: 'application/json',
            headers: { 'access-control-allow-origin': '*', 'cache-control': 'no-store' },
          };
        }
        if (rest === 'plugin') {
          return {
            body: helloPage(fake.v),
            type: 'text/html',
            headers: { ...fake.pageHeaders, 'cache-control': 'no-store' },
          };
        }
      }
      return undefined;
    },
  };
}
