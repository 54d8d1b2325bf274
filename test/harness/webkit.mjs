/* global fetch, AbortSignal */
// WebKit for the browser tests: Debian's WebKitGTK MiniBrowser driven by WebKitWebDriver (W3C
// WebDriver) under Xvfb. Playwright cannot drive Debian's WebKit (it needs its own patched build,
// which cannot be downloaded here), so this is a small web-test-runner launcher that speaks the
// few WebDriver commands the runner needs over fetch: start a session, open a URL, read it back.
// The frame commands (test/harness/wtr/frame-commands.mjs) use the same `webdriver()` call to act inside the
// service's iframe.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { freePort } from './free-port.mjs';
import { stopGroup } from './leftovers.mjs';

/** The pids of a process's children (Linux). */
function childrenOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

const MINIBROWSER_CANDIDATES = [
  process.env.WEBKIT_MINIBROWSER,
  '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
  '/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
  '/usr/libexec/webkit2gtk-4.1/MiniBrowser',
];

/** Where WebKitGTK's MiniBrowser, WebKitWebDriver and xvfb-run are, or undefined when one is missing. */
export function findWebKit() {
  const minibrowser = MINIBROWSER_CANDIDATES.find((path) => path && existsSync(path));
  const which = (name) => {
    try {
      return execFileSync('which', [name], { encoding: 'utf8' }).trim();
    } catch {
      return undefined;
    }
  };
  const driver = which('WebKitWebDriver');
  const xvfbRun = which('xvfb-run');
  return minibrowser && driver && xvfbRun ? { minibrowser, driver, xvfbRun } : undefined;
}

/** How long one WebDriver command may go unanswered (a hang detector; each is a few ms idle). */
const COMMAND_LIMIT = 15_000;

/** How long a script run in a page may take before WebKitWebDriver answers `script timeout`. */
const SCRIPT_LIMIT = 5_000;

/** A web-test-runner launcher for WebKitGTK: one MiniBrowser window, one test file at a time. */
export function webkitLauncher() {
  let driverProcess;
  let base;
  let sessionPath;
  const active = new Map();

  /**
   * One WebDriver command; resolves to its `value`, throws its error message. A command that gets no
   * answer within {@link COMMAND_LIMIT} throws too, naming itself: a hang detector, so that a test
   * fails with what hung instead of waiting out its own time limit in silence.
   */
  async function webdriver(method, path, body) {
    const response = await fetch(`${base}${sessionPath ?? ''}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(COMMAND_LIMIT),
    }).catch((error) => {
      if (error?.name !== 'TimeoutError') throw error;
      throw new Error(`WebDriver ${method} ${path}: no answer within ${COMMAND_LIMIT} ms (timed out)`);
    });
    const payload = await response.json();
    if (!response.ok) throw new Error(`WebDriver ${method} ${path}: ${payload.value?.message ?? response.status}`);
    return payload.value;
  }

  return {
    name: 'WebKit',
    type: 'webdriver',
    concurrency: 1,
    webdriver,
    async initialize() {
      const found = findWebKit();
      if (!found) {
        throw new Error(
          'WebKit is not installed. Install it (Debian/Ubuntu: `apt-get install -y webkit2gtk-driver xvfb`).',
        );
      }
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      // xvfb-run gives the browser a display of its own; its own process group so stop() ends all of it.
      driverProcess = spawn(found.xvfbRun, ['-a', found.driver, `--port=${port}`], {
        stdio: 'ignore',
        detached: true,
      });
      const deadline = Date.now() + 20_000;
      for (;;) {
        try {
          const status = await fetch(`${base}/status`).then((r) => r.json());
          if (status.value?.ready) break;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline) throw new Error('WebKitWebDriver did not start within 20 s.');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const session = await webdriver('POST', '/session', {
        capabilities: {
          alwaysMatch: {
            browserName: 'MiniBrowser',
            // No command waits for a navigation: web-test-runner waits for its test page itself,
            // and the frame commands find their frame again when it went away under them. WebKit's
            // 'eager' wait resolves only on a DOMContentLoaded that comes after the command: one
            // sent into a frame (or page) whose DOM is ready but whose load has not ended (a
            // picture still loading) waits out the page-load timeout, 300 s (WebAutomationSession's
            // waitForNavigationToCompleteOnFrame and documentLoadedForFrame). 'normal' would wait
            // for every picture of the studio.
            pageLoadStrategy: 'none',
            'webkitgtk:browserOptions': { binary: found.minibrowser, args: ['--automation'] },
          },
        },
      });
      sessionPath = `/session/${session.sessionId}`;
      // The frame commands' scripts are short reads: one that does not end (a document going away
      // under it) answers `script timeout` after SCRIPT_LIMIT, and the command tries again.
      await webdriver('POST', '/timeouts', { script: SCRIPT_LIMIT });
      await webdriver('POST', '/window/rect', { width: 1024, height: 768 }).catch(() => {});
    },
    async stop() {
      if (sessionPath) await webdriver('DELETE', '').catch(() => {});
      sessionPath = undefined;
      if (driverProcess && driverProcess.exitCode === null) {
        // The driver first: xvfb-run then stops its Xvfb and removes its temporary folder, which it
        // does not do when it is killed itself. Whatever of the group is left goes after that.
        const exited = new Promise((resolve) => driverProcess.once('exit', resolve));
        for (const pid of childrenOf(driverProcess.pid)) {
          try {
            process.kill(pid, 'SIGTERM');
          } catch {
            // already gone
          }
        }
        let timer;
        await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 5000)))]);
        clearTimeout(timer);
        await stopGroup(driverProcess, 1000);
      }
    },
    async startSession(sessionId, url) {
      active.set(sessionId, url);
      await webdriver('POST', '/url', { url });
    },
    isActive(sessionId) {
      return active.has(sessionId);
    },
    async getBrowserUrl() {
      return webdriver('GET', '/url');
    },
    async stopSession(sessionId) {
      active.delete(sessionId);
      // Leave the test page so that nothing of it keeps running.
      await webdriver('POST', '/frame', { id: null }).catch(() => {});
      await webdriver('POST', '/url', { url: 'about:blank' });
      return {};
    },
    startDebugSession() {
      throw new Error('Debugging is not supported in WebKit: use Chromium.');
    },
  };
}
