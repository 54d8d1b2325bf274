// Headless Chromium for the demo's smoke test and its screenshot (docs/demo.png), found the way the
// browser tests find it: $CHROME_PATH, then the usual install locations.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import puppeteer from 'puppeteer-core';

/** The Chromium executable, or undefined when none is installed. */
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

/** Launches headless Chromium with cross-site iframes in their own process, as on users' machines. */
export function launchChromium() {
  const executablePath = findChromium();
  if (!executablePath) {
    throw new Error('No Chromium found. Install it (Debian/Ubuntu: `apt-get install -y chromium`) or set CHROME_PATH.');
  }
  return puppeteer.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--site-per-process',
    ],
  });
}
