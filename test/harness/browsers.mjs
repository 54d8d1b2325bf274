// The browser matrix of the tests: every engine and storage mode that partners' users run, each a
// real browser from Debian's packages. web-test-runner.config.mjs picks one by $VP_BROWSER;
// test/harness/test.mjs runs them (two at a time: test/harness/steps.mjs) and adds up their counts.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromeLauncher } from '@web/test-runner-chrome';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_FLAGS, findChromium } from '../../scripts/chromium.mjs';
import { findWebKit, webkitLauncher } from './webkit.mjs';

const FIREFOX_CANDIDATES = [process.env.FIREFOX_PATH, '/usr/bin/firefox-esr', '/usr/bin/firefox'];

/** Firefox (ESR from Debian), or undefined. */
export function findFirefox() {
  return FIREFOX_CANDIDATES.find((path) => path && existsSync(path));
}

/**
 * A throwaway Chromium profile whose preferences block what a privacy-minded user blocks. Chromium
 * reads `Default/Preferences` at start, as it would read the same settings from its UI or a policy.
 */
function profileWith(preferences) {
  const dir = mkdtempSync(join(tmpdir(), 'video-plugin-chromium-'));
  mkdirSync(join(dir, 'Default'));
  writeFileSync(join(dir, 'Default', 'Preferences'), JSON.stringify(preferences));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function chromium(extraArgs = [], preferences) {
  return chromeLauncher({
    launchOptions: {
      executablePath: findChromium(),
      headless: true,
      args: [...CHROMIUM_FLAGS, ...extraArgs],
      ...(preferences ? { userDataDir: profileWith(preferences) } : {}),
    },
  });
}

/**
 * The <video-plugin> suites, one per section of docs/element-guide.md (element: attributes,
 * properties and box; the others name theirs). Each runs a second time against the classic CDN
 * script (the element-classic group of web-test-runner.config.mjs), wherever it runs.
 */
const ELEMENT = ['element', 'element-methods', 'element-events', 'element-preload', 'element-lifecycle'];
export const ELEMENT_SUITES = ELEMENT.map((name) => `test/browser/${name}.test.ts`);

/** The suites that prove the API: they run in every engine and storage mode. */
export const API_SUITES = [
  'wire',
  'plugin',
  'plugin-accounts',
  'plugin-jobs',
  'plugin-ui',
  ...ELEMENT,
  'cdn',
  'cdn-markup',
  'journey',
  'isolation',
  'faults',
  'frame-faults',
  'fuzz',
  'session',
  'framed',
  'white-label',
  'stage',
  'diagnose',
  'fit',
  'trust',
  'axe',
  'reflow',
  'a11y',
].map((name) => `test/browser/${name}.test.ts`);

/**
 * The API suites where the browser's storage rules decide what happens: the storage-rule
 * configurations (chromium-block-all, chromium-unpartitioned) run these and no others.
 *
 * The studio keeps its session in memory and a best-effort copy in its frame's sessionStorage
 * (packages/service/src/pages/storage.ts): storage is read when a studio page loads, and reported by
 * diagnose(). A page that loads with a new channel finds nothing stored in any configuration, so
 * storage decides only where the studio frame reloads or navigates while signed in (a move without
 * moveBefore, a change of display, a crash, a navigation: restored from storage, or through
 * getLoginToken, or lost) and where the frame's storage is reported. These suites do that: session
 * (its reloads, and diagnose()'s storage check), frame-faults (the frame reloaded, navigated away,
 * removed and put back), journey and the element suites (the studio reloaded mid-flow; they also run
 * against the classic CDN script); every page load in them proves that a denied storage breaks
 * nothing. The others never reload a signed-in studio and read no storage, so they run with the
 * default rules in every engine: faults (the service's faults and the configuration faults; the
 * frame stays loaded), plugin and plugin-accounts, -jobs and -ui (their one reload, a mount without moveBefore, is session's subject),
 * diagnose (all but the storage check), wire, isolation, fuzz, framed, white-label, fit, cdn, cdn-markup,
 * trust, axe, reflow, a11y,
 * stage. docs/testing.md, "Engines and storage rules", says more.
 */
export const STORAGE_SUITES = ['session', 'frame-faults', ...ELEMENT, 'journey'].map(
  (name) => `test/browser/${name}.test.ts`,
);

/**
 * The suites that also run against a service making real media (H.264/AAC renders, the storyboard
 * the editor edits) in the engines that set `realMedia`: the SDK's own paths meet what partners
 * get, not only the SVG stand-ins the other suites use for speed. (fit: the editor's scenes, which
 * only real media has, are checked at 360 px too.)
 */
export const REAL_MEDIA_SUITES = ['journey', ...ELEMENT, 'white-label', 'stage', 'fit'].map(
  (name) => `test/browser/${name}.test.ts`,
);

/** Every browser suite (Chromium with default rules runs them all). */
export const ALL_SUITES = ['test/browser/**/*.test.ts'];

/**
 * `npm test` runs Chromium's suites in two parts, two steps of its table (test/harness/steps.mjs),
 * $VP_PART naming one: the REAL_MEDIA_SUITES, which render (never beside another step that renders),
 * and every other suite, which can run beside the Node suites' renders as the other engines do.
 * Together they are exactly ALL_SUITES. Without $VP_PART, Chromium runs them all in one run.
 */
export const CHROMIUM_PARTS = {
  'real-media': REAL_MEDIA_SUITES,
  'other-suites': [...ALL_SUITES, ...REAL_MEDIA_SUITES.map((file) => `!${file}`)],
};

/**
 * name → what it is, the suites it runs, whether the service's frame gets no storage in it
 * (`storageBlocked`, read by the tests through /__diagnose/config), whether it is installed (and
 * how to install it), and its web-test-runner launcher.
 */
export const ENGINES = {
  chromium: {
    label: 'Chromium (default storage rules; real media for the REAL_MEDIA_SUITES)',
    files: ALL_SUITES,
    realMedia: true,
    parts: CHROMIUM_PARTS,
    installed: () => Boolean(findChromium()),
    install: 'apt-get install -y chromium',
    launcher: () => chromium(),
  },
  'chromium-block-all': {
    label: 'Chromium, "Block all site data" (cookies content setting 2: every storage denied; the STORAGE_SUITES)',
    files: STORAGE_SUITES,
    storageBlocked: true,
    installed: () => Boolean(findChromium()),
    install: 'apt-get install -y chromium',
    launcher: () => chromium([], { profile: { default_content_setting_values: { cookies: 2 } } }),
  },
  'chromium-unpartitioned': {
    label:
      'Chromium, storage partitioning off and third-party cookies blocked (third-party frames get no storage; the STORAGE_SUITES)',
    files: STORAGE_SUITES,
    storageBlocked: true,
    installed: () => Boolean(findChromium()),
    install: 'apt-get install -y chromium',
    launcher: () =>
      chromium(['--disable-features=ThirdPartyStoragePartitioning'], {
        profile: { cookie_controls_mode: 1, block_third_party_cookies: true },
      }),
  },
  firefox: {
    label: 'Firefox ESR (WebDriver BiDi)',
    files: API_SUITES,
    installed: () => Boolean(findFirefox()),
    install: 'apt-get install -y firefox-esr',
    launcher: () =>
      chromeLauncher({
        puppeteer,
        launchOptions: { browser: 'firefox', executablePath: findFirefox(), headless: true },
      }),
  },
  webkit: {
    label: 'WebKitGTK MiniBrowser (WebKitWebDriver under Xvfb)',
    files: API_SUITES,
    installed: () => Boolean(findWebKit()),
    install: 'apt-get install -y webkit2gtk-driver xvfb',
    launcher: () => webkitLauncher(),
  },
};

/**
 * The engine named by $VP_BROWSER (default `chromium`), limited to the part named by $VP_PART when
 * the engine has parts; throws with the list when either is unknown. `id` names its counts file
 * (`chromium`, or `chromium.real-media`).
 */
export function selectedEngine() {
  const name = process.env.VP_BROWSER || 'chromium';
  const engine = ENGINES[name];
  if (!engine) throw new Error(`Unknown VP_BROWSER "${name}": use one of ${Object.keys(ENGINES).join(', ')}.`);
  if (!engine.installed()) throw new Error(`${engine.label} is not installed: ${engine.install}`);
  const part = process.env.VP_PART;
  if (!part) return { name, id: name, ...engine };
  if (!engine.parts?.[part]) {
    throw new Error(
      `Unknown VP_PART "${part}" for ${name}: use one of ${Object.keys(engine.parts ?? {}).join(', ') || 'none'}.`,
    );
  }
  return { name, id: `${name}.${part}`, ...engine, files: engine.parts[part] };
}
