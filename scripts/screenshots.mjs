// `npm run screenshots`: the white-label pictures of the README (docs/white-label-*.png), the
// studio fitting its content at 360, 768 and 1280 px (docs/images/fit-*.png) and the element's
// box closed without children and on a configuration fault (docs/images/box-*.png), taken
// from the real thing: the local service (placeholder media: the pictures are about the studio's
// look, not the video), a partner page on another origin that loads the CDN module and embeds
// <video-plugin>, and headless Chromium. Each picture: the prompt step of the AI flow after a real
// topic search of test/fixtures/business.html. Run `npm run build` first. Words after the command
// (`npm run screenshots -- box`) make only the pictures whose file names contain one of them.
/* global customElements, requestAnimationFrame -- the evaluate() callbacks run in the page */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.mjs';

const root = new URL('..', import.meta.url);
const dist = new URL('dist/', root);
const { startService } = await import(new URL('service/server.js', dist).href);
const { createAccountToken } = await import(new URL('server/index.js', dist).href);

const PARTNER = { id: 'screenshots', secret: 'screenshots-secret-0123456789abcdef' };

/** The pictures: file name → the element's attributes and appearance. */
const SHOTS = {
  'white-label-palette.png': {
    locale: 'en',
    appearance: {
      colorPrimary: '#7c3aed',
      colorBackground: '#fffbeb',
      colorText: '#1c1917',
      fontFamily: 'Georgia, serif',
      borderRadius: 12,
      spacingUnit: 5,
    },
  },
  'white-label-dark.png': { locale: 'en', appearance: { colorScheme: 'dark', borderRadius: 10 } },
  'white-label-german.png': { locale: 'de', appearance: { colorPrimary: '#047857', borderRadius: 4 } },
};

/** The widths of the fit pictures: a phone, a tablet, a laptop (the page is as tall as it needs). */
const FIT_WIDTHS = [360, 768, 1280];

/** Whether to make the picture `name`: every one, or those named on the command line. */
const only = process.argv.slice(2);
const wanted = (name) => only.length === 0 || only.some((word) => name.includes(word));

/**
 * A partner's page with a `<video-plugin height="auto">` without children between two paragraphs,
 * its box outlined: closed (the studio never opened), or for an unknown partner (the failure panel).
 */
const boxPage = (partnerID) => ({
  type: 'text/html',
  body: `<!doctype html><html lang="en"><body style="margin:0;background:#e2e8f0;font:16px system-ui,sans-serif">
<header style="padding:16px 20px;background:#1e293b;color:#fff"><strong>Sunny Bakery</strong> &middot; Make a video</header>
<p style="margin:20px">The page above the element.</p>
<video-plugin partner-id="${partnerID}" service-url="${service.url}" height="auto" locale="en"
  style="margin:0 20px;outline:2px dashed #64748b;outline-offset:4px"></video-plugin>
<p style="margin:20px">The page goes on right below the element.</p>
<script type="module" src="/cdn.js"></script></body></html>`,
});

const service = await startService({
  port: 0,
  host: '127.0.0.1',
  // The partner's page and its sample site are served here, on loopback.
  allowLoopbackSources: true,
  jobMs: 300,
  media: 'placeholder',
  partners: [{ ...PARTNER, allowedOrigins: ['http://localhost:*'] }],
});

// The partner's page, on localhost (the service is on 127.0.0.1: a real cross-origin frame).
const files = {
  '/': () => ({
    type: 'text/html',
    body: `<!doctype html><html lang="en"><body style="margin:0;background:#e2e8f0">
<video-plugin partner-id="${PARTNER.id}" service-url="${service.url}" style="height:800px"></video-plugin>
<script type="module" src="/cdn.js"></script></body></html>`,
  }),
  // A partner's page with the studio fitting its content (height="auto") between a heading and a footer.
  '/fit': () => ({
    type: 'text/html',
    body: `<!doctype html><html lang="en"><body style="margin:0;background:#e2e8f0;font:16px system-ui,sans-serif">
<header style="padding:16px 20px;background:#1e293b;color:#fff"><strong>Sunny Bakery</strong> &middot; Make a video</header>
<video-plugin partner-id="${PARTNER.id}" service-url="${service.url}" height="auto" locale="en"></video-plugin>
<footer style="padding:16px 20px;color:#475569">The page goes on below the studio.</footer>
<script type="module" src="/cdn.js"></script></body></html>`,
  }),
  '/box-closed': () => boxPage(PARTNER.id),
  '/box-failed': () => boxPage('no-such-partner'),
  '/cdn.js': () => ({ type: 'text/javascript', body: readFileSync(new URL('cdn/video-plugin.module.min.js', dist)) }),
  '/business.html': () => ({
    type: 'text/html',
    body: readFileSync(new URL('test/fixtures/business.html', root)),
  }),
  '/test/fixtures/bread.svg': () => ({
    type: 'image/svg+xml',
    body: readFileSync(new URL('test/fixtures/bread.svg', root)),
  }),
};
const page = createServer((request, response) => {
  const file = files[new URL(request.url, 'http://x').pathname];
  if (!file) return void response.writeHead(404).end();
  const { type, body } = file();
  response.writeHead(200, { 'content-type': type }).end(body);
});
await new Promise((resolve) => page.listen(0, 'localhost', resolve));
const origin = `http://localhost:${page.address().port}`;

/**
 * In the page of `tab`: a new account, a topic search of the sample business page, and the AI page
 * opened on that topic (with the given locale and appearance, if any).
 */
async function openOnTopic(tab, { locale, appearance } = {}) {
  const token = await createAccountToken({ partnerID: PARTNER.id, secret: PARTNER.secret });
  await tab.evaluate(
    async (token, source, locale, appearance) => {
      const studio = document.querySelector('video-plugin');
      if (locale) studio.setAttribute('locale', locale);
      if (appearance) studio.appearance = appearance;
      await customElements.whenDefined('video-plugin');
      await studio.ready;
      await studio.createAccount(token);
      const { topicId } = await studio.startTopicSearch(source);
      for await (const { status } of studio.topicSearchStatus(topicId))
        if (status === 'FAILED') throw new Error(status);
      await studio.openPlugin({ topicId });
    },
    token,
    `${origin}/business.html`,
    locale,
    appearance,
  );
}

const browser = await launchChromium();
try {
  for (const [name, { locale, appearance }] of Object.entries(SHOTS)) {
    if (!wanted(name)) continue;
    const tab = await browser.newPage();
    await tab.setViewport({ width: 960, height: 800 });
    await tab.goto(`${origin}/`);
    await openOnTopic(tab, { locale, appearance });
    const frame = await (await tab.$('video-plugin >>> iframe')).contentFrame();
    await frame.waitForSelector('[data-view="prompt"] h2[data-topic-status="COMPLETE"]');
    await frame.evaluate(() => Promise.all([...document.images].map((image) => image.decode().catch(() => {}))));
    const file = fileURLToPath(new URL(`docs/${name}`, root));
    await (await tab.$('video-plugin')).screenshot({ path: file });
    console.log(`screenshots: ${name}`);
    await tab.close();
  }
  for (const width of FIT_WIDTHS) {
    const name = `images/fit-${width}.png`;
    if (!wanted(name)) continue;
    const tab = await browser.newPage();
    await tab.setViewport({ width, height: 900 });
    await tab.goto(`${origin}/fit`);
    await openOnTopic(tab);
    const iframe = await tab.$('video-plugin >>> iframe');
    const frame = await iframe.contentFrame();
    await frame.waitForSelector('[data-view="prompt"] h2[data-topic-status="COMPLETE"]');
    await frame.evaluate(() => Promise.all([...document.images].map((image) => image.decode().catch(() => {}))));
    // The studio has sent its height and the iframe took it (its style carries it in pixels).
    await tab.waitForFunction((frame) => frame.style.height.endsWith('px'), {}, iframe);
    // Two frames of the studio at that height: painted, not mid-resize.
    await frame.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await tab.screenshot({ path: fileURLToPath(new URL(`docs/${name}`, root)), fullPage: true });
    console.log(`screenshots: ${name}`);
    await tab.close();
  }
  for (const state of ['closed', 'failed']) {
    const name = `images/box-${state}.png`;
    if (!wanted(name)) continue;
    const tab = await browser.newPage();
    await tab.setViewport({ width: 768, height: 280 });
    await tab.goto(`${origin}/box-${state}`);
    // Connected and closed, or refused (the partner is unknown): the state the picture is of.
    await tab.evaluate(async () => {
      await customElements.whenDefined('video-plugin');
      await document.querySelector('video-plugin').ready.catch(() => {});
    });
    await tab.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await tab.screenshot({ path: fileURLToPath(new URL(`docs/${name}`, root)), fullPage: true });
    console.log(`screenshots: ${name}`);
    await tab.close();
  }
} finally {
  await browser.close();
  page.close();
  await service.close();
}
