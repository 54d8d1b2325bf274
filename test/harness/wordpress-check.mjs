// `npm run test:wordpress`: the CDN snippets of docs/cdn.md through a real CMS sanitizer. WordPress from
// Debian's packages (`wordpress`, `mariadb-server`, `php-cli`, `php-mysql`; .ci/run installs them),
// its database started here on a Unix socket, PHP's built-in server on loopback, the real local
// service and the built CDN script served as a CDN would. Posts are saved through WordPress's REST
// API (what the block editor does) as an Author (no `unfiltered_html`) and as an Administrator; each
// published post is opened in Chromium and its studio driven: the launcher opens the AI page and
// `pluginOpened` reaches the page. What WordPress kept of each snippet is printed and checked
// against docs/cms.md. Prints `N passed, N failed` last; exits 1 on any failure, and when it cannot
// run here (it says why: it never skips silently).
/* global fetch */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_FLAGS, findChromium } from '../../scripts/chromium.mjs';
import { freePort } from './free-port.mjs';
import { stopGroup } from './leftovers.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const WORDPRESS = '/usr/share/wordpress';
const THEME = `${WORDPRESS}/wp-content/themes/twentytwentythree`;
const CONFIG = '/etc/wordpress/config-127.0.0.1.php';
const PACKAGES = 'apt-get install -y wordpress mariadb-server php-cli php-mysql';
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;

const results = [];
const cleanups = [];

function cannotRun(why) {
  console.log(`wordpress-check: cannot run here: ${why}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// ---- What it needs ----
const which = (name) => {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
};
if (!existsSync(`${WORDPRESS}/wp-load.php`)) cannotRun(`WordPress is not installed (${PACKAGES}).`);
if (!existsSync(THEME))
  cannotRun(`the twentytwentythree theme is missing (apt-get install -y wordpress-theme-twentytwentythree).`);
for (const tool of ['php', 'mariadbd', 'mariadb-install-db', 'mariadb']) {
  if (!which(tool) && !existsSync(`/usr/sbin/${tool}`)) cannotRun(`${tool} is not installed (${PACKAGES}).`);
}
if (!execFileSync('php', ['-m'], { encoding: 'utf8' }).includes('mysqli'))
  cannotRun(`PHP has no mysqli (${PACKAGES}).`);
const chromium = findChromium();
if (!chromium) cannotRun('Chromium is not installed (apt-get install -y chromium).');
if (!existsSync(join(root, 'dist/cdn/video-plugin.min.js'))) cannotRun('dist/ is missing: run `npm run build` first.');
if (existsSync(CONFIG) && !readFileSync(CONFIG, 'utf8').includes('video-plugin wordpress-check')) {
  cannotRun(`${CONFIG} exists and is not ours: this check will not overwrite a real site's configuration.`);
}

const work = mkdtempSync(join(tmpdir(), 'video-plugin-wordpress-'));
cleanups.push(() => rmSync(work, { recursive: true, force: true }));

/**
 * Starts a process that runs until the check ends, in a process group of its own: stopping the
 * group stops what it forked too (PHP's built-in server forks PHP_CLI_SERVER_WORKERS workers that
 * a SIGTERM to the parent alone does not reach).
 */
function daemon(command, args, options = {}) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...options });
  let log = '';
  child.stdout.on('data', (chunk) => (log += chunk));
  child.stderr.on('data', (chunk) => (log += chunk));
  cleanups.push(() => stopGroup(child));
  return { child, log: () => log };
}

/** Runs the cleanups once, last added first. */
let cleaning;
function cleanUp() {
  cleaning ??= (async () => {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch {
        // Already gone.
      }
    }
  })();
  return cleaning;
}

// Interrupted (Ctrl-C, or npm test stopping this step): nothing is left running or on disk.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.log(`wordpress-check: ${signal}: stopping WordPress, its database and the service`);
    cleanUp().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

/** Waits (at most `ms`) for `ready()` to be true: for a server that is starting, not a test. */
async function until(what, ready, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not start within ${ms / 1000} s`);
}

async function main() {
  // ---- The database: MariaDB on a socket of its own, no network ----
  const datadir = join(work, 'db');
  const socket = join(work, 'mysql.sock');
  execFileSync(
    'mariadb-install-db',
    [
      '--no-defaults',
      `--datadir=${datadir}`,
      '--user=root',
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
    ],
    { stdio: 'ignore' },
  );
  const db = daemon('mariadbd', [
    '--no-defaults',
    `--datadir=${datadir}`,
    `--socket=${socket}`,
    '--skip-networking',
    '--user=root',
    `--pid-file=${join(work, 'db.pid')}`,
  ]);
  const sql = (statement) =>
    execFileSync('mariadb', ['--no-defaults', `--socket=${socket}`, '-uroot', '-e', statement], { stdio: 'pipe' });
  await until('MariaDB', () => {
    try {
      sql('SELECT 1');
      return true;
    } catch {
      return db.child.exitCode === null ? false : Promise.reject(new Error(`mariadbd exited: ${db.log()}`));
    }
  });
  sql(
    "CREATE DATABASE wordpress; CREATE USER 'wp'@'localhost' IDENTIFIED BY 'wp'; GRANT ALL ON wordpress.* TO 'wp'@'localhost';",
  );

  // ---- The local service, and the CDN script served as a CDN would ----
  const { startService } = await import(join(root, 'dist/service/server.js'));
  const service = await startService({
    port: 0,
    host: '127.0.0.1',
    // The WordPress page it searches is on this machine.
    allowLoopbackSources: true,
    jobMs: 300,
    media: 'placeholder',
  });
  cleanups.push(() => service.close());
  // Another site than the WordPress page (127.0.0.1), as the hosted service is.
  const serviceURL = service.url.replace('127.0.0.1', 'localhost');
  const cdnPrefix = `/npm/video-plugin@${version}/dist/cdn/`;
  const cdn = createServer((req, res) => {
    const file = req.url.startsWith(cdnPrefix) ? req.url.slice(cdnPrefix.length) : '';
    if (!/^video-plugin(\.module)?\.min\.js$/.test(file)) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' });
    res.end(readFileSync(join(root, 'dist/cdn', file)));
  });
  await new Promise((resolve) => cdn.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => cdn.close());
  const cdnBase = `http://127.0.0.1:${cdn.address().port}${cdnPrefix}`;

  // ---- The snippets of docs/cdn.md, pointed at this check's CDN, partner and service ----
  const readme = readFileSync(join(root, 'docs/cdn.md'), 'utf8');
  const snippet = (name) => {
    const match = readme.match(new RegExp(`<!-- snippet: ${name} -->\\s*\`\`\`html\\n([\\s\\S]*?)\`\`\``));
    if (!match) throw new Error(`docs/cdn.md has no snippet "${name}"`);
    return (
      match[1]
        .replaceAll(`https://cdn.jsdelivr.net/npm/video-plugin@${version}/dist/cdn/`, cdnBase)
        // The service is the site's choice, on its own <script> tag: markup cannot set it.
        .replaceAll(/(<script\s+src="[^"]*\/video-plugin\.min\.js")/g, `$1 data-service-url="${serviceURL}"`)
        .replaceAll(/\bdata-partner-id="YOUR-PARTNER-ID"/g, 'data-partner-id="demo-partner"')
        .replaceAll(/(\s)partner-id="YOUR-PARTNER-ID"/g, `$1partner-id="demo-partner" service-url="${serviceURL}"`)
        .trim()
    );
  };
  const [siteScript, ...markupParts] = snippet('cdn-markup').split('\n\n');
  const markup = markupParts.join('\n\n');
  const elementSnippet = snippet('cdn-element');

  // ---- WordPress: its configuration, content directory, router and installation ----
  const port = await freePort();
  const site = `http://127.0.0.1:${port}`;
  const content = join(work, 'wp-content');
  mkdirSync(join(content, 'themes'), { recursive: true });
  mkdirSync(join(content, 'mu-plugins'));
  symlinkSync(THEME, join(content, 'themes', 'twentytwentythree'));
  // The site-wide script, printed into <head> as a header-scripts plugin does, verbatim.
  writeFileSync(
    join(content, 'mu-plugins', 'video-plugin.php'),
    `<?php\nadd_action('wp_head', function () { echo ${JSON.stringify(siteScript)} . "\\n"; });\n`,
  );
  writeFileSync(
    CONFIG,
    `<?php
// video-plugin wordpress-check: written and removed by test/harness/wordpress-check.mjs.
define('DB_NAME', 'wordpress');
define('DB_USER', 'wp');
define('DB_PASSWORD', 'wp');
define('DB_HOST', 'localhost:${socket}');
define('WP_HOME', '${site}');
define('WP_SITEURL', '${site}');
define('WP_CONTENT_DIR', '${content}');
define('WP_CONTENT_URL', '${site}/wp-content');
define('WP_ENVIRONMENT_TYPE', 'local');
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_HTTP_BLOCK_EXTERNAL', true);
$table_prefix = 'wp_';
`,
  );
  cleanups.push(() => rmSync(CONFIG, { force: true }));
  const router = join(work, 'router.php');
  writeFileSync(
    router,
    `<?php
$path = urldecode(parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH));
if (strpos($path, '/wp-content/') === 0) {
  $file = realpath(${JSON.stringify(content)} . substr($path, strlen('/wp-content')));
  if (!$file || !is_file($file)) { http_response_code(404); return true; }
  $types = ['css' => 'text/css', 'js' => 'text/javascript', 'svg' => 'image/svg+xml', 'woff2' => 'font/woff2', 'png' => 'image/png', 'jpg' => 'image/jpeg', 'webp' => 'image/webp'];
  header('Content-Type: ' . ($types[pathinfo($file, PATHINFO_EXTENSION)] ?? 'application/octet-stream'));
  readfile($file);
  return true;
}
if ($path !== '/' && is_file($_SERVER['DOCUMENT_ROOT'] . $path)) return false;
$_SERVER['SCRIPT_NAME'] = '/index.php';
$_SERVER['SCRIPT_FILENAME'] = $_SERVER['DOCUMENT_ROOT'] . '/index.php';
require $_SERVER['DOCUMENT_ROOT'] . '/index.php';
`,
  );
  const php = (code) =>
    execFileSync('php', ['-d', 'display_errors=stderr', '-r', code], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  const boot = `$_SERVER['HTTP_HOST'] = '127.0.0.1:${port}'; $_SERVER['REQUEST_URI'] = '/'; $_SERVER['SERVER_PROTOCOL'] = 'HTTP/1.1';`;
  const users = JSON.parse(
    php(`${boot}
define('WP_INSTALLING', true);
function wp_mail() { return true; }
require '${WORDPRESS}/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
wp_install('video-plugin check', 'admin', 'admin@example.com', false, '', 'admin-password-1');
switch_theme('twentytwentythree');
wp_insert_user(['user_login' => 'author', 'user_pass' => 'author-password-1', 'user_email' => 'author@example.com', 'role' => 'author']);
$out = [];
foreach (['admin', 'author'] as $login) {
  $user = get_user_by('login', $login);
  [$password] = WP_Application_Passwords::create_new_application_password($user->ID, ['name' => 'check']);
  $out[$login] = ['password' => $password, 'unfiltered_html' => user_can($user, 'unfiltered_html'), 'role' => $user->roles[0]];
}
echo json_encode($out);`)
      .trim()
      .split('\n')
      .pop(),
  );
  const server = daemon('php', ['-S', `127.0.0.1:${port}`, '-t', WORDPRESS, router], {
    env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
  });
  await until('WordPress', () =>
    fetch(`${site}/?rest_route=/`).then(
      (r) => r.ok,
      () => false,
    ),
  );

  /** Saves a post through the REST API as `login`; returns what WordPress stored and its link. */
  async function save(login, title, body) {
    const auth = `Basic ${Buffer.from(`${login}:${users[login].password}`).toString('base64')}`;
    const response = await fetch(`${site}/?rest_route=/wp/v2/posts`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ title, content: body, status: 'publish' }),
    });
    const post = await response.json();
    if (!response.ok) throw new Error(`saving "${title}" as ${login}: ${response.status} ${JSON.stringify(post)}`);
    const stored = await (
      await fetch(`${site}/?rest_route=/wp/v2/posts/${post.id}&context=edit`, { headers: { authorization: auth } })
    ).json();
    return { link: `${site}/?p=${post.id}`, stored: stored.content.raw };
  }

  // ---- The posts: the recommended markup (a Custom HTML block, and inside a paragraph of a
  // classic post) and the raw element snippet, for each role ----
  const cases = [
    {
      name: 'markup in a Custom HTML block',
      body: `<!-- wp:html -->\n${markup}\n<!-- /wp:html -->`,
      launcher: '[data-video-plugin] button',
      studio: '[data-video-plugin] video-plugin',
    },
    {
      name: 'markup inside a paragraph (classic editor)',
      body: `<p>Make a video about us:\n${markup}</p>`,
      launcher: '[data-video-plugin] button',
      studio: '[data-video-plugin] video-plugin',
    },
    // An author's markup that names another service: kept by the sanitizer, refused by the script
    // (the service is the site's choice, on its <script> tag), so no studio is built.
    {
      name: 'markup naming another service',
      body: `<!-- wp:html -->\n${markup.replace('data-video-plugin', 'data-video-plugin data-service-url="http://localhost:9"')}\n<!-- /wp:html -->`,
      launcher: '[data-video-plugin] button',
      studio: '[data-video-plugin] video-plugin',
      refused: true,
    },
    // (Titles are HTML too: no tag names in them.)
    {
      name: 'raw element snippet',
      body: `<!-- wp:html -->\n${elementSnippet}\n<!-- /wp:html -->`,
      launcher: '#video-studio-start',
      studio: '#video-studio',
      raw: true,
    },
  ];

  // The two roles are what they must be: the check is about the capability.
  const roles = users.author.unfiltered_html === false && users.admin.unfiltered_html === true;
  results.push({ label: 'roles: Author without unfiltered_html, Administrator with it', pass: roles });
  console.log(`${roles ? 'ok  ' : 'FAIL'} roles: Author without unfiltered_html, Administrator with it`);

  // Puppeteer's own signal handlers would exit at once on SIGINT/SIGTERM, before the cleanups.
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: CHROMIUM_FLAGS,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  cleanups.push(() => browser.close());
  try {
    for (const login of ['author', 'admin']) {
      const user = users[login];
      console.log(`\n${login} (role ${user.role}, unfiltered_html: ${user.unfiltered_html})`);
      for (const item of cases) {
        const label = `${login}: ${item.name}`;
        try {
          const { link, stored } = await save(login, item.name, item.body);
          const kept = {
            div: stored.includes('data-video-plugin'),
            dataAttributes: /data-partner-id="demo-partner"[^>]*data-open-on="click"/.test(stored),
            element: stored.includes('<video-plugin'),
            script: stored.includes('<script'),
          };
          const page = await browser.newPage();
          const problems = [];
          page.on('pageerror', (error) => problems.push(String(error)));
          // A script blocked by its integrity hash throws nothing: the browser only logs it.
          page.on('console', (message) => {
            if (message.type() === 'error' && /integrity/i.test(message.text())) problems.push(message.text());
          });
          try {
            await page.goto(link, { waitUntil: 'load' });
            const seen = await page.evaluate(() => ({
              studios: document.querySelectorAll('.entry-content video-plugin, .wp-block-post-content video-plugin')
                .length,
              global: window.VideoPlugin?.version ?? null,
            }));
            // The studio works when the post holds one: the launcher opens the AI page.
            let opened = false;
            if (seen.studios > 0) {
              const waiting = page.evaluate(
                () =>
                  new Promise((resolve) => {
                    document.addEventListener('pluginOpened', () => resolve('pluginOpened'), { once: true });
                    document.addEventListener(
                      'pluginOpenFailed',
                      (event) => resolve(`pluginOpenFailed: ${event.detail?.message}`),
                      { once: true },
                    );
                    setTimeout(() => resolve('no event within 15 s'), 15_000);
                  }),
              );
              await page.click(item.launcher);
              const outcome = await waiting;
              opened = outcome === 'pluginOpened';
              if (!opened) problems.push(outcome);
              const frame = await page.evaluate(
                (selector) => document.querySelector(selector)?.shadowRoot?.querySelector('iframe')?.src ?? '',
                item.studio,
              );
              if (opened && !frame.startsWith(serviceURL)) problems.push(`the studio's frame is "${frame}"`);
            }
            // What docs/cms.md promises for each role and snippet.
            const expected =
              item.raw && !user.unfiltered_html
                ? { kept: { element: false, script: false }, works: false }
                : {
                    kept: item.raw ? { element: true, script: true } : { div: true, dataAttributes: true },
                    works: !item.refused,
                  };
            const keptAsPromised = Object.entries(expected.kept).every(([key, value]) => kept[key] === value);
            const pass =
              keptAsPromised &&
              opened === expected.works &&
              (!item.refused || seen.studios === 0) &&
              seen.global === version &&
              problems.length === 0;
            results.push({ label, pass, kept, opened, problems });
            console.log(
              `  ${pass ? 'ok  ' : 'FAIL'} ${item.name}: kept ${JSON.stringify(kept)}; studio ${opened ? 'opened (pluginOpened)' : 'none'}` +
                `${problems.length ? `; problems: ${problems.join(' | ')}` : ''}`,
            );
            if (!keptAsPromised || item.raw) console.log(`       stored: ${stored.replaceAll('\n', ' ')}`);
          } finally {
            await page.close();
          }
        } catch (error) {
          results.push({ label, pass: false, problems: [String(error)] });
          console.log(`  FAIL ${item.name}: ${error.stack ?? error}`);
        }
      }
    }
  } finally {
    if (results.length === 0) console.log(server.log());
  }
}

try {
  await main();
} catch (error) {
  console.log(`wordpress-check: ${error.stack ?? error}`);
  results.push({ label: 'setup', pass: false });
} finally {
  await cleanUp();
}
mkdirSync(join(root, '.test-results'), { recursive: true });
writeFileSync(join(root, '.test-results', 'wordpress.json'), JSON.stringify(results, null, 2));
const passed = results.filter((r) => r.pass).length;
const failed = results.length - passed;
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
