// The starter's end-to-end test (`npm test`): Playwright starts the local service
// (video-plugin-service, real media: the render makes captions and a transcript) and this app's
// back end serving the built page (`npm run build` first), on two different sites, as in production.
//
// Two changes from Playwright's defaults: Debian's Chromium where there is one (CHROME_PATH, then
// /usr/bin/chromium), since some machines cannot download Playwright's own build; and the service
// stopped with SIGTERM, so that it cleans up after itself.
import { defineConfig } from '@playwright/test';
import { existsSync } from 'node:fs';

const APP_PORT = Number(process.env.APP_PORT ?? 8347);
const SERVICE_PORT = Number(process.env.SERVICE_PORT ?? 8348);
const partner = { id: 'starter-partner', secret: 'starter-partner-secret-change-me-0123456789' };

const chromium = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path) => path && existsSync(path),
);

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  reporter: 'list',
  // A real render of a 5 s video takes a few seconds, longer on a busy machine.
  timeout: 120_000,
  // A web-first assertion waits up to 15 s, not Playwright's default 5: a real service and a real
  // browser on a busy CI machine. It is a hang detector; each assertion still passes the moment its
  // state appears.
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://localhost:${APP_PORT}`,
    launchOptions: chromium ? { executablePath: chromium } : {},
  },
  webServer: [
    {
      // --allow-loopback-port: the sample business page it searches is the app's, on this machine.
      command: `npx video-plugin-service --port ${SERVICE_PORT} --partner ${partner.id} --secret ${partner.secret} --allow-loopback-port ${APP_PORT} --job-ms 300`,
      url: `http://127.0.0.1:${SERVICE_PORT}/api/health`,
      reuseExistingServer: false,
      // Stopped with SIGTERM, not Playwright's default SIGKILL: the service then closes and removes
      // the temporary folder its real media were kept in.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    },
    {
      command: 'node server.mjs',
      url: `http://localhost:${APP_PORT}/`,
      reuseExistingServer: false,
      env: {
        PORT: String(APP_PORT),
        VIDEO_PLUGIN_SERVICE_URL: `http://127.0.0.1:${SERVICE_PORT}`,
        VIDEO_PLUGIN_PARTNER_ID: partner.id,
        VIDEO_PLUGIN_SECRET: partner.secret,
      },
    },
  ],
});
