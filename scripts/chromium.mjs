// The one place that finds headless Chromium and sets its flags, for the browser tests
// (web-test-runner.config.mjs), the demo's smoke test and screenshot, and `npm run bench`.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Flags of every run: no sandbox (CI containers), no GPU, no background traffic, and
 * `--site-per-process` so that a cross-site iframe runs in its own process, as on users' machines.
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--site-per-process',
];

/** The Chromium executable: $CHROME_PATH, the usual install locations, then $PATH; or undefined. */
export function findChromium() {
  const candidates = [
    process.env.CHROME_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome-stable',
    '/usr/bin/google-chrome',
  ];
  for (const candidate of candidates) if (candidate && existsSync(candidate)) return candidate;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome']) {
    try {
      return execFileSync('which', [name], { encoding: 'utf8' }).trim();
    } catch {
      // not on PATH
    }
  }
  return undefined;
}

/** Like findChromium, but throws a message that says how to install it. */
export function requireChromium() {
  const path = findChromium();
  if (!path) {
    throw new Error('No Chromium found. Install it (Debian/Ubuntu: `apt-get install -y chromium`) or set CHROME_PATH.');
  }
  return path;
}

/** Launches headless Chromium with puppeteer-core; `extraArgs` are added to the flags. */
export async function launchChromium(extraArgs = []) {
  const { default: puppeteer } = await import('puppeteer-core');
  return puppeteer.launch({
    executablePath: requireChromium(),
    headless: true,
    args: [...CHROMIUM_FLAGS, ...extraArgs],
  });
}
