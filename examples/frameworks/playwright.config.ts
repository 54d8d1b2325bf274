// The framework apps in Chromium: one Playwright project per app (apps.mjs), the same tests for
// each (tests/frameworks.spec.ts), plus the server-rendering checks of the Next.js app
// (tests/ssr.spec.ts). Playwright starts the local service, the static server of the built
// single-page apps, and `next start`. Build the apps first: `npm run build:frameworks`.
//
// Debian's Chromium, as in examples/partner-e2e: no browser download.
import { defineConfig } from '@playwright/test';
import { existsSync } from 'node:fs';
import { APPS, PARTNER, SERVICE_PORT } from './apps.mjs';

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
  forbidOnly: true,
  use: {
    launchOptions: chromium ? { executablePath: chromium } : {},
  },
  projects: Object.entries(APPS).map(([name, app]) => ({
    name,
    testMatch: name === 'next' ? /\.spec\.ts$/ : /frameworks\.spec\.ts$/,
    use: { baseURL: `http://localhost:${app.port}` },
  })),
  webServer: [
    {
      // --allow-loopback-sources: the apps' pages it searches are on this machine, on several ports.
      command: `node ../../packages/service/bin/video-plugin-service.js --port ${SERVICE_PORT} --partner ${PARTNER.id} --secret ${PARTNER.secret} --allow-loopback-sources --job-ms 300 --media placeholder`,
      url: `http://127.0.0.1:${SERVICE_PORT}/api/health`,
      reuseExistingServer: false,
      // Stopped with SIGTERM, not Playwright's default SIGKILL: the service then closes and removes
      // the temporary folder it keeps the topics' checked pictures in.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    },
    {
      command: 'node serve.mjs',
      url: `http://localhost:${APPS.react19.port}/`,
      reuseExistingServer: false,
    },
    {
      command: `npx --no-install next start next --port ${APPS.next.port} --hostname localhost`,
      url: `http://localhost:${APPS.next.port}/`,
      reuseExistingServer: false,
      env: { NEXT_TELEMETRY_DISABLED: '1' },
    },
  ],
});
