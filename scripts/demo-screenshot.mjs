// Takes docs/demo.png: the partner demo mid-session (account created, a topic searched from the
// sample business website, the AI flow open on it), in headless Chromium.
//   node scripts/demo-screenshot.mjs [output.png]
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.mjs';
import { startDemo } from '../demo/server.mjs';

const output = process.argv[2] ?? fileURLToPath(new URL('../docs/demo.png', import.meta.url));
const { startService } = await import('../dist/service/server.js');
// The ports of `npm start` when they are free, so that the picture shows the addresses people see.
const onPort = (start, port) =>
  start(port).catch((error) => (error.code === 'EADDRINUSE' ? start(0) : Promise.reject(error)));
const service = await onPort(
  (port) => startService({ port, host: '127.0.0.1', allowLoopbackSources: true, jobMs: 400 }),
  8001,
);
const [partner] = service.partners;
const demo = await onPort(
  (port) => startDemo({ port, serviceURL: service.url, partnerID: partner.id, secret: partner.secret }),
  8000,
);
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1440, height: 900 });
  await page.goto(demo.url, { waitUntil: 'load' });
  await page.waitForSelector('body[data-ready="true"]');
  await page.click('#create-account');
  await page.waitForFunction(() => document.querySelector('#session')?.textContent?.startsWith('Logged in'));
  await page.click('#start-search');
  await page.waitForSelector('#search-status[data-status="COMPLETE"]');
  await page.click('#open-with-topic');
  const handle = await page.waitForFunction(() =>
    document.querySelector('video-plugin')?.shadowRoot?.querySelector('iframe'),
  );
  const frame = await handle.asElement().contentFrame();
  await frame.waitForSelector('[data-view="prompt"] h2[data-topic-status="COMPLETE"]');
  // Let the topic's images finish loading before the picture is taken.
  await frame.waitForFunction(() => [...document.images].every((image) => image.complete));
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: output });
  console.log(`saved ${output}`);
} finally {
  await browser.close();
  await demo.close();
  await service.close();
}
