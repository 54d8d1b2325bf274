// A partner's end-to-end test of their video-plugin integration, with Playwright Test and its
// default settings. Playwright starts the local stand-in of the hosted service
// (`video-plugin-service`, the service's own package) and the partner's app, on two
// different sites, as in production.
//
// The one change from Playwright's defaults: Debian's Chromium instead of Playwright's own build
// (this machine cannot download browsers). Playwright's default Chromium flags turn storage
// partitioning off, so the studio's cross-site frame gets no storage at all — the case a partner's
// CI and many privacy-minded users hit, and one the studio must survive.
import { defineConfig } from '@playwright/test';
import { existsSync } from 'node:fs';

const APP_PORT = 8310;
const SERVICE_PORT = 8311;
// A second service with real media (MP4, poster, captions, transcript) for the snapshot test.
const REAL_MEDIA_SERVICE_PORT = 8312;
export const REAL_MEDIA_SERVICE_URL = `http://127.0.0.1:${REAL_MEDIA_SERVICE_PORT}`;
// A shared service for tests/sandbox.spec.ts: a sandbox per test (video-plugin/testing), forced
// outcomes and a step clock per sandbox. In your CI: one such service for the whole run.
const SANDBOX_SERVICE_PORT = 8313;
export const SANDBOX_SERVICE_URL = `http://127.0.0.1:${SANDBOX_SERVICE_PORT}`;
// In your CI: a secret of its own (openssl rand -base64 32), given to the service and the tests.
export const OPERATOR_KEY = process.env.VIDEO_PLUGIN_OPERATOR_KEY ?? 'example-operator-key-0123456789abcdef0123';
// In your repo: the partner ID and secret of your staging account (from your CI's secrets), or any
// pair when you run the local service.
const partner = { id: 'example-partner', secret: 'example-partner-secret-0123456789abcdef' };

const chromium = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path) => path && existsSync(path),
);

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  reporter: 'list',
  timeout: 30_000,
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
      // In your repo: `npx video-plugin-service …` (after `npm install -D video-plugin-service`).
      // --allow-loopback-port: the tests search the app's own pages, on this machine; without it
      // (the default) a search never reads a local port.
      command: `node ../../packages/service/bin/video-plugin-service.js --port ${SERVICE_PORT} --partner ${partner.id} --secret ${partner.secret} --allow-loopback-port ${APP_PORT} --job-ms 300 --media placeholder`,
      url: `http://127.0.0.1:${SERVICE_PORT}/api/health`,
      reuseExistingServer: false,
      // Stopped with SIGTERM, not Playwright's default SIGKILL: the service then closes and removes
      // the temporary folder it keeps the topics' checked pictures in.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    },
    {
      // Real media, for tests/snapshot.spec.ts: the same service without `--media placeholder`.
      command: `node ../../packages/service/bin/video-plugin-service.js --port ${REAL_MEDIA_SERVICE_PORT} --partner ${partner.id} --secret ${partner.secret} --allow-loopback-port ${APP_PORT} --job-ms 300`,
      url: `${REAL_MEDIA_SERVICE_URL}/api/health`,
      reuseExistingServer: false,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    },
    {
      // Sandboxes, test controls and the step clock, for tests/sandbox.spec.ts.
      command: `node ../../packages/service/bin/video-plugin-service.js --port ${SANDBOX_SERVICE_PORT} --sandboxes --test-controls --clock manual --allow-loopback-port ${APP_PORT} --job-ms 2000 --media placeholder`,
      url: `${SANDBOX_SERVICE_URL}/api/health`,
      env: { VIDEO_PLUGIN_OPERATOR_KEY: OPERATOR_KEY },
      reuseExistingServer: false,
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
