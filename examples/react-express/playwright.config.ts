// The starter's end-to-end test (`npm test`): Playwright starts the local service
// (video-plugin-service, real media: the render makes captions and a transcript) and this app's
// Express back end serving the built page (`npm run build` first), on two different sites, as in
// production. The service posts its webhooks to the back end, and runs with its test controls
// (`--test-controls`) so that the test can hold a job at a stage while it changes route.
//
// Two changes from Playwright's defaults: Debian's Chromium where there is one (CHROME_PATH, then
// /usr/bin/chromium), since some machines cannot download Playwright's own build; and the service
// stopped with SIGTERM, so that it cleans up after itself.
import { defineConfig } from '@playwright/test';
import { existsSync } from 'node:fs';
import { partner, ports } from './tests/partner.js';

const chromium = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path) => path && existsSync(path),
);

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  reporter: 'list',
  // A real render of a 5 s video takes a few seconds, longer on a busy machine.
  timeout: 180_000,
  // A web-first assertion waits up to 30 s, not Playwright's default 5: a real service and a real
  // browser on a busy CI machine. It is a hang detector; each assertion still passes the moment its
  // state appears.
  expect: { timeout: 30_000 },
  // The tests force outcomes on the partner's next jobs (per user, but the service is shared):
  // one at a time.
  workers: 1,
  use: { launchOptions: chromium ? { executablePath: chromium } : {} },
  projects: [
    // The built app, as in production, served by the back end.
    { name: 'built', testIgnore: /dev\.spec\.ts/, use: { baseURL: `http://localhost:${ports.app}` } },
    // The same app in Vite's development server, where StrictMode mounts every component twice.
    { name: 'dev', testMatch: /dev\.spec\.ts/, use: { baseURL: `http://localhost:${ports.dev}` } },
  ],
  webServer: [
    {
      // --allow-loopback-port: the sample business page it searches is the app's, on this machine.
      command: [
        `npx video-plugin-service --port ${ports.service} --partner ${partner.id} --secret ${partner.secret}`,
        `--webhook-secret ${partner.webhookSecret} --webhook-url http://localhost:${ports.app}/api/webhooks`,
        `--allow-loopback-port ${ports.app} --allow-loopback-port ${ports.dev} --job-ms 300 --test-controls`,
      ].join(' '),
      url: `${partner.serviceURL}/api/health`,
      reuseExistingServer: false,
      // Stopped with SIGTERM, not Playwright's default SIGKILL: the service then closes and removes
      // the temporary folder its real media were kept in.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    },
    {
      command: 'node server.mjs',
      url: `http://localhost:${ports.app}/`,
      reuseExistingServer: false,
      env: {
        PORT: String(ports.app),
        VIDEO_PLUGIN_SERVICE_URL: partner.serviceURL,
        VIDEO_PLUGIN_PARTNER_ID: partner.id,
        VIDEO_PLUGIN_SECRET: partner.secret,
        VIDEO_PLUGIN_WEBHOOK_SECRET: partner.webhookSecret,
      },
    },
    {
      // `npm run dev`, its /api/… passed to the back end above (vite.config.ts reads PORT).
      command: `npx vite --port ${ports.dev} --strictPort --host 127.0.0.1`,
      url: `http://127.0.0.1:${ports.dev}/`,
      reuseExistingServer: false,
      env: { PORT: String(ports.app) },
    },
  ],
});
