// web-test-runner commands that act inside the service's cross-origin iframe the way a person
// would: real clicks and typing through the browser, found by the iframe's channel. Puppeteer
// drives Chromium and Firefox (CDP / WebDriver BiDi); WebDriver drives WebKit (test/harness/webkit.mjs).
// Tests call them with executeServerCommand from @web/test-runner-commands:
//   frame-click, frame-fill, frame-text   {channel, selector, value?, timeout?}
//   frame-reload, frame-navigate          {channel, url?}   (the fault tests)
//   frame-storage                         {channel, value: 'probe' | 'clear' | 'deny'} (session.test.ts)
//   frame-probe                           {channel, selector}: text and computed look of an element,
//                                         and the page's lang (white-label.test.ts)
//   frame-key                             {channel, selector, value}: a click on selector, then the
//                                         key `value` (WebDriver key code, e.g. \uE00C for Escape)
//   frame-fit                             {channel, selector}: once selector is in the frame, its
//                                         width, heights, overflow and small touch targets (fit.test.ts)
//   frame-screenshot                      {channel, value}: a PNG of the iframe as the page shows
//                                         it, saved as .test-results/screenshots/<engine>-<value>.png
//   frame-press                           {channel, value, text?, page?}: the key `value` ('Enter',
//                                         'Shift+Tab', 'Escape', ' '), or the characters of `text`, on
//                                         whatever has the focus: no click first (the keyboard journey,
//                                         a11y.test.ts); `page`: on the partner's page, not in the frame
//   frame-tab                             {channel, selector, value?}: Tab (or `value`, 'Shift+Tab')
//                                         until the frame's focus is on selector; the stops on the way.
//                                         Fails when the focus leaves the frame or never gets there,
//                                         or when a stop is out of the frame's viewport or covered at
//                                         its centre (WCAG 2.4.11; FOCUSED's `obscured`)
//   frame-focus                           {channel, selector?}: once the focus is on selector (or at
//                                         once), what has it, its focus ring, and the frame's live
//                                         regions, player and running animations (a11y.test.ts)
//   frame-emulate                         {channel, value}: prefers-reduced-motion `value` in the page
//                                         and its frames (Chromium's DevTools protocol; false elsewhere)
//   frame-pictures                        {channel, selector}: once every <img> matching selector
//                                         has loaded or failed, their src and natural width
//   frame-policy                          {channel, url}: inside the frame, a string to a DOM XSS
//                                         sink (innerHTML), document.domain and the top's location
//                                         set (to `url`), and an <img> from `url`: whether Trusted
//                                         Types and the sandbox refused them, the image's violation
//   browser-log                           {value: 'start' | 'stop', until?}: from start to stop,
//                                         every console error or warning and every HTTP response
//                                         >= 400 of the page and its frames; stop returns them once
//                                         one matches the pattern `until` (the browser reports them
//                                         a little later than the page sees its answers), or false
//                                         in WebKit (WebDriver classic sees neither)
//   frame-axe, frame-spacing, frame-clip  the accessibility audits (frame-audit.mjs)
//   frame-tree                            {channel, selector?}: once selector is in the frame, its
//                                         accessibility tree summed up (frame-tree.mjs): controls
//                                         and names, live regions and text; false outside Chromium

import { mkdirSync, writeFileSync } from 'node:fs';
import { isAudit, puppeteerAudit, webdriverAudit } from './frame-audit.mjs';
import { readTree } from './frame-tree.mjs';
import { FOCUSED, MAX_TABS, puppeteerPress, webdriverPress } from './frame-keys.mjs';
import { FIT, PICTURES, POLICY, PROBE, SHOWN, STORAGE_ACTIONS } from './frame-scripts.mjs';

/** Where frame-screenshot saves its pictures, per engine. */
function screenshotPath(name) {
  const dir = new URL('../../../.test-results/screenshots/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  return new URL(`${process.env.VP_BROWSER ?? 'chromium'}-${name.replace(/[^\w.-]/g, '_')}.png`, dir);
}

/** Puppeteer's names of the WebDriver key codes the tests use. */
const KEY_NAMES = { '\uE00C': 'Escape', '\uE004': 'Tab' };

/** frame-tab's failure when a stop is out of view or covered (WCAG 2.4.11, FOCUSED's `obscured`). */
const obscuredError = (key, stops, now) =>
  `${key ?? 'Tab'} after ${stops.join(' → ') || 'nothing'} put the focus on ${now.focused}, which is ${now.obscured}`;

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what, timeout, probe, shown) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const found = await probe();
    if (found) return found;
    if (Date.now() > deadline) {
      const seen = shown && (await shown().catch((error) => `nothing readable (${error.message})`));
      throw new Error(`${what} within ${timeout} ms${seen ? `; the frame shows ${seen}` : ''}`);
    }
    await pause(50);
  }
}

// ---- Puppeteer (Chromium, Firefox) ----

/**
 * Errors that mean the `Frame` we acted on is gone: the frame reloaded or navigated between finding
 * it and acting (Firefox over WebDriver BiDi answers "no such frame"; Chromium over CDP reports a
 * detached frame or a destroyed execution context). The command then finds the live frame again.
 */
const STALE_FRAME =
  /no such frame|Browsing Context|detached|Execution context was destroyed|Target closed|context.+not found/i;

/** The live (not detached) frame whose URL carries the channel; the newest one if several match. */
function liveFrame(page, channel) {
  return page
    .frames()
    .filter((frame) => !frame.detached && frame.url().includes(channel))
    .at(-1);
}

/**
 * The commands that are one script in the frame: the function and its argument. Over CDP they can
 * run through the frame's own target when Puppeteer's frame tree lacks the frame (targetAction).
 */
function scriptOf(command, { value, selector, url }) {
  if (command === 'frame-storage') return [STORAGE_ACTIONS[value], null];
  if (command === 'frame-probe') return [PROBE, selector];
  if (command === 'frame-fit') return [FIT, selector];
  if (command === 'frame-pictures') return [PICTURES, selector];
  if (command === 'frame-policy') return [POLICY, url];
  if (command === 'frame-focus') return [FOCUSED, selector ?? null];
  return undefined;
}

/** How long a script command looks for the frame in Puppeteer's frame tree before its target. */
const TREE_FIRST_MS = 1000;

/**
 * The Chromium target (an out-of-process iframe) whose URL carries the channel. Puppeteer's frame
 * tree can miss such a frame for good when its attach and navigation events race on a busy machine
 * (puppeteer/puppeteer#7990; ci25 under load: a connected studio frame not found for 10 s), while
 * the browser's target list has it.
 */
function frameTarget(page, channel) {
  if (page.browser().protocol !== 'cdp') return undefined;
  return page
    .browser()
    .targets()
    .find((target) => target.url().includes(channel));
}

/** Runs a script command in the frame's target over a CDP session of its own. */
async function targetAction(target, command, args) {
  const [script, argument] = scriptOf(command, args);
  const run = async () => {
    const cdp = await target.createCDPSession();
    try {
      const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', {
        expression: `(${script})(${JSON.stringify(argument)})`,
        awaitPromise: true,
        returnByValue: true,
      });
      if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
      return result.value;
    } finally {
      await cdp.detach().catch(() => {});
    }
  };
  if (command === 'frame-storage' || command === 'frame-policy') return run();
  return until(`no ${args.selector} in the frame`, args.timeout, run);
}

async function puppeteerCommand(session, command, args) {
  const page = session.browser.getPage(session.id);
  const start = Date.now();
  const deadline = start + args.timeout;
  const script = scriptOf(command, args) !== undefined;
  // Never keep a Frame across a navigation: look it up for every attempt, and try again (within the
  // command's time) when it went stale under the action.
  for (;;) {
    const found = await until(`no frame with channel ${args.channel}`, Math.max(0, deadline - Date.now()), () => {
      const frame = liveFrame(page, args.channel);
      if (frame) return { frame };
      const target = script && Date.now() - start >= TREE_FIRST_MS && frameTarget(page, args.channel);
      return target ? { target } : undefined;
    });
    const remaining = { ...args, timeout: Math.max(1, deadline - Date.now()) };
    try {
      if (found.frame) return await puppeteerAction(page, found.frame, command, remaining);
      console.warn(
        `frame-commands: ${command}: no frame with channel ${args.channel} in Puppeteer's tree; through its target`,
      );
      return await targetAction(found.target, command, remaining);
    } catch (error) {
      if (Date.now() > deadline || !STALE_FRAME.test(String(error?.message))) throw error;
      await pause(50);
    }
  }
}

/** What a Puppeteer frame shows (SHOWN), for a command's timeout. */
const shownIn = (frame) => () => frame.evaluate(SHOWN);

async function puppeteerAction(page, frame, command, { channel, selector, value, text, url, timeout }) {
  if (command === 'frame-storage') return frame.evaluate(STORAGE_ACTIONS[value]);
  if (command === 'frame-probe') {
    return until(`no ${selector} in the frame`, timeout, () => frame.evaluate(PROBE, selector), shownIn(frame));
  }
  if (command === 'frame-fit') {
    return until(`no ${selector} in the frame`, timeout, () => frame.evaluate(FIT, selector), shownIn(frame));
  }
  if (command === 'frame-pictures') {
    return until(
      `no loaded ${selector} in the frame`,
      timeout,
      () => frame.evaluate(PICTURES, selector),
      shownIn(frame),
    );
  }
  if (command === 'frame-policy') return frame.evaluate(POLICY, url);
  if (isAudit(command)) return puppeteerAudit(frame, command, { selector, value, timeout }, until, shownIn(frame));
  if (command === 'frame-focus') {
    return until(
      `no focus on ${selector ?? 'anything'} in the frame`,
      timeout,
      () => frame.evaluate(FOCUSED, selector ?? null),
      shownIn(frame),
    );
  }
  if (command === 'frame-press') {
    await puppeteerPress(page, value, text);
    return true;
  }
  if (command === 'frame-tab') {
    const stops = [];
    while (stops.length < MAX_TABS) {
      await puppeteerPress(page, value ?? 'Tab');
      const now = await frame.evaluate(FOCUSED, null);
      if (now.lost)
        throw new Error(`${value ?? 'Tab'} took the focus out of the frame after ${stops.join(' → ') || 'nothing'}`);
      if (now.obscured) throw new Error(obscuredError(value, stops, now));
      stops.push(now.focused);
      if (await frame.evaluate((wanted) => document.activeElement.matches(wanted), selector)) return stops;
    }
    throw new Error(`no focus on ${selector} after ${MAX_TABS} presses of ${value ?? 'Tab'}: ${stops.join(' → ')}`);
  }
  if (command === 'frame-tree') {
    if (page.browser().protocol !== 'cdp') return false;
    // The frame's own target when it runs out of process (cross-site, --site-per-process), else the
    // page's session with the frame's id.
    const target = frameTarget(page, channel);
    const open = target ? () => target.createCDPSession() : async () => frame.client;
    return until(
      `no ${selector ?? 'document'} in the frame`,
      timeout,
      () => readTree(open, selector, target ? undefined : frame._id),
      shownIn(frame),
    );
  }
  if (command === 'frame-emulate') {
    if (page.browser().protocol !== 'cdp') return false;
    const features = [{ name: 'prefers-reduced-motion', value }];
    await page.emulateMediaFeatures(features);
    // A cross-site frame is a target of its own (out of process), which the page's emulation misses.
    const target = frameTarget(page, channel);
    if (target) {
      const cdp = await target.createCDPSession();
      await cdp.send('Emulation.setEmulatedMedia', { features });
    }
    return true;
  }
  if (command === 'frame-screenshot') {
    const path = screenshotPath(value);
    writeFileSync(path, await (await frame.frameElement()).screenshot());
    return path.pathname;
  }
  if (command === 'frame-key') {
    const target = await frame.waitForSelector(selector, { timeout, visible: true });
    await target.click();
    await page.keyboard.press(KEY_NAMES[value] ?? value);
    return true;
  }
  if (command === 'frame-reload' || command === 'frame-navigate') {
    // Deferred, so that the evaluation returns before its document goes away.
    const to = command === 'frame-navigate' ? url : null;
    await frame.evaluate((next) => void setTimeout(() => (next ? location.assign(next) : location.reload()), 0), to);
    return true;
  }
  const handle = await frame.waitForSelector(selector, { timeout, visible: command !== 'frame-text' });
  switch (command) {
    case 'frame-click':
      await handle.click();
      return true;
    case 'frame-fill':
      // Click in, select what is there (a triple click does not select an input's text in every
      // engine), then type over it.
      await handle.click();
      await handle.evaluate((input) => input.select());
      await handle.type(value);
      return true;
    case 'frame-text':
      return handle.evaluate((element) => element.textContent?.trim() ?? null);
  }
  throw new Error(`unknown command ${command}`);
}

// ---- WebDriver (WebKit) ----

/** Finds the iframe whose URL carries the channel, also inside shadow roots (the element's). */
const FIND_IFRAME = `
  const channel = arguments[0];
  const find = (root) => {
    for (const frame of root.querySelectorAll('iframe')) if (frame.src.includes(channel)) return frame;
    for (const element of root.querySelectorAll('*')) {
      const found = element.shadowRoot && find(element.shadowRoot);
      if (found) return found;
    }
    return null;
  };
  return find(document);`;

/**
 * Errors that mean the frame WebDriver acted in went away or stopped answering under the command:
 * the iframe reloaded or moved (a new browsing context), its document was replaced during a script,
 * or a command got no answer (test/harness/webkit.mjs). The command then finds the frame again.
 */
const WEBDRIVER_STALE = /no such frame|no such window|stale element|script timeout|timed out|browsing context/i;

async function webdriverCommand(session, command, args) {
  const deadline = Date.now() + args.timeout;
  // As with Puppeteer: never keep a frame across a reload; find it for every attempt, within the
  // command's time.
  for (;;) {
    try {
      return await webdriverAction(session, command, { ...args, timeout: Math.max(1, deadline - Date.now()) });
    } catch (error) {
      if (Date.now() > deadline || !WEBDRIVER_STALE.test(String(error?.message))) throw error;
      await pause(50);
    }
  }
}

async function webdriverAction(session, command, { channel, selector, value, text, url, timeout, page }) {
  const webdriver = session.browser.webdriver;
  // A key for the partner's page (the button that opens the studio): WebDriver sends keys to the
  // browsing context it is in, so it stays in the page.
  if (command === 'frame-press' && page) return webdriverPress(webdriver, value, text).then(() => true);
  // A test file runs alone in the one window: switch into the frame, act, and always switch back
  // (commands are queued one at a time, below: a switch is the whole session's state).
  const iframe = await until(`no frame with channel ${channel}`, timeout, () =>
    webdriver('POST', '/execute/sync', { script: FIND_IFRAME, args: [channel] }),
  );
  await webdriver('POST', '/frame', { id: iframe });
  const shown = () => webdriver('POST', '/execute/sync', { script: `return (${SHOWN})();`, args: [] });
  try {
    // Awaited here: the frame is switched back in `finally`, after the audit, not before.
    if (isAudit(command)) return await webdriverAudit(webdriver, command, { selector, value, timeout }, until, shown);
    if (command === 'frame-storage') {
      return webdriver('POST', '/execute/sync', { script: `return (${STORAGE_ACTIONS[value]})();`, args: [] });
    }
    if (command === 'frame-reload' || command === 'frame-navigate') {
      await webdriver('POST', '/execute/sync', {
        script: 'const to = arguments[0]; setTimeout(() => (to ? location.assign(to) : location.reload()), 0);',
        args: [command === 'frame-navigate' ? url : null],
      });
      return true;
    }
    if (command === 'frame-policy') {
      return webdriver('POST', '/execute/async', {
        script: `const done = arguments[arguments.length - 1]; (${POLICY})(arguments[0]).then(done);`,
        args: [url],
      });
    }
    if (command === 'frame-emulate' || command === 'frame-tree') return false;
    const focused = () =>
      webdriver('POST', '/execute/sync', { script: `return (${FOCUSED})(arguments[0]);`, args: [null] });
    if (command === 'frame-press') {
      await webdriverPress(webdriver, value, text);
      return true;
    }
    if (command === 'frame-tab') {
      const stops = [];
      while (stops.length < MAX_TABS) {
        await webdriverPress(webdriver, value ?? 'Tab');
        const now = await focused();
        if (now.lost)
          throw new Error(`${value ?? 'Tab'} took the focus out of the frame after ${stops.join(' → ') || 'nothing'}`);
        if (now.obscured) throw new Error(obscuredError(value, stops, now));
        stops.push(now.focused);
        const there = await webdriver('POST', '/execute/sync', {
          script: 'return document.activeElement.matches(arguments[0]);',
          args: [selector],
        });
        if (there) return stops;
      }
      throw new Error(`no focus on ${selector} after ${MAX_TABS} presses of ${value ?? 'Tab'}: ${stops.join(' → ')}`);
    }
    if (
      command === 'frame-probe' ||
      command === 'frame-fit' ||
      command === 'frame-pictures' ||
      command === 'frame-focus'
    ) {
      const probe = { 'frame-fit': FIT, 'frame-pictures': PICTURES, 'frame-focus': FOCUSED }[command] ?? PROBE;
      return until(
        `no ${selector} in the frame`,
        timeout,
        () =>
          webdriver('POST', '/execute/sync', { script: `return (${probe})(arguments[0]);`, args: [selector ?? null] }),
        shown,
      );
    }
    if (command === 'frame-screenshot') {
      // The iframe's picture is taken from its parent: leave the frame first.
      await webdriver('POST', '/frame/parent', {});
      const path = screenshotPath(value);
      const png = await webdriver('GET', `/element/${Object.values(iframe)[0]}/screenshot`);
      writeFileSync(path, Buffer.from(png, 'base64'));
      return path.pathname;
    }
    if (command === 'frame-key') {
      const [found] = await until(
        `no ${selector} in the frame`,
        timeout,
        async () => {
          const elements = await webdriver('POST', '/elements', { using: 'css selector', value: selector });
          return elements.length ? elements : undefined;
        },
        shown,
      );
      await webdriver('POST', `/element/${Object.values(found)[0]}/click`, {});
      await webdriver('POST', '/actions', {
        actions: [
          {
            type: 'key',
            id: 'keyboard',
            actions: [
              { type: 'keyDown', value },
              { type: 'keyUp', value },
            ],
          },
        ],
      });
      await webdriver('DELETE', '/actions').catch(() => {});
      return true;
    }
    if (command === 'frame-text') {
      // One script that finds and reads: a re-render between two commands would leave a stale node.
      const read = await until(
        `no ${selector} in the frame`,
        timeout,
        () =>
          webdriver('POST', '/execute/sync', {
            script: 'const found = document.querySelector(arguments[0]); return found && [found.textContent.trim()];',
            args: [selector],
          }),
        shown,
      );
      return read[0];
    }
    // The view may re-render between finding and acting: try again until the deadline.
    const deadline = Date.now() + timeout;
    for (;;) {
      try {
        const element = await until(
          `no visible ${selector} in the frame`,
          Math.max(0, deadline - Date.now()),
          async () => {
            for (const found of await webdriver('POST', '/elements', { using: 'css selector', value: selector })) {
              if (await webdriver('GET', `/element/${Object.values(found)[0]}/displayed`)) return found;
            }
            return undefined;
          },
        );
        const id = Object.values(element)[0];
        await webdriver('POST', `/element/${id}/click`, {});
        if (command === 'frame-fill') {
          await webdriver('POST', `/element/${id}/clear`, {});
          await webdriver('POST', `/element/${id}/value`, { text: value });
        } else if (command !== 'frame-click') throw new Error(`unknown command ${command}`);
        return true;
      } catch (error) {
        if (Date.now() > deadline || !/not found|stale|not focusable|not interactable/i.test(error.message))
          throw error;
        await pause(50);
      }
    }
  } finally {
    await webdriver('POST', '/frame/parent', {}).catch(() => {});
  }
}

/** The recordings `browser-log` has started, by page. */
const browserLogs = new WeakMap();

/** `browser-log`: what the page and its frames logged as errors, and their failed responses. */
async function browserLog(session, { value, until: pattern, timeout }) {
  // WebDriver classic sees neither; null would read as an unknown command to web-test-runner.
  if (session.browser.type === 'webdriver') return false;
  const page = session.browser.getPage(session.id);
  if (value === 'start') {
    const entries = [];
    const onConsole = (message) => {
      if (message.type() === 'error' || message.type() === 'warn')
        entries.push(`console ${message.type()}: ${message.text()} (${message.location()?.url ?? ''})`);
    };
    const onResponse = (response) => {
      if (response.status() >= 400) entries.push(`HTTP ${response.status()} ${response.url()}`);
    };
    page.on('console', onConsole);
    page.on('response', onResponse);
    browserLogs.set(page, { entries, onConsole, onResponse });
    return true;
  }
  const log = browserLogs.get(page);
  if (!log) throw new Error('browser-log: stop without start');
  if (pattern) {
    const wanted = new RegExp(pattern);
    await until(`no browser log entry matching ${pattern}`, timeout, () => log.entries.some((e) => wanted.test(e)));
  }
  browserLogs.delete(page);
  page.off('console', log.onConsole);
  page.off('response', log.onResponse);
  return log.entries;
}

/**
 * How long the page waits for a command's answer: @web/dev-server-core's own limit
 * (webSocketsPlugin.js, "Did not receive a server response … within 20000ms"), not configurable.
 */
const ANSWER_MS = 20_000;

/** The longest a frame command looks for its element or frame: inside the page's wait, with room. */
const COMMAND_MS = 17_000;

export function frameCommandsPlugin() {
  // WebDriver has one current frame per session: two commands at once (Promise.all in a test)
  // would switch under each other, so they take turns.
  let webdriverTurn = Promise.resolve();
  const inTurn = (run) => {
    const result = webdriverTurn.then(run);
    webdriverTurn = result.catch(() => {});
    return result;
  };
  return {
    name: 'video-plugin-frame-commands',
    async executeCommand({ command, payload, session }) {
      if (!command.startsWith('frame-') && command !== 'browser-log') return undefined;
      // A hang detector, not a pace: a real-media render on a busy machine takes more than 8 s (the
      // old default failed four journeys in Chromium at load average 13). At most COMMAND_MS, counted
      // from the command's arrival (a WebDriver command's wait for its turn included): the page
      // stops waiting for any answer at ANSWER_MS.
      const arrived = Date.now();
      const timeout = Math.min(payload?.timeout ?? COMMAND_MS, COMMAND_MS);
      const args = { ...payload, timeout };
      if (command === 'browser-log') return browserLog(session, args);
      const run =
        session.browser.type === 'webdriver'
          ? inTurn(() =>
              webdriverCommand(session, command, { ...args, timeout: Math.max(1, arrived + timeout - Date.now()) }),
            )
          : puppeteerCommand(session, command, args);
      // A step of the command that does not return (a WebDriver call has COMMAND_LIMIT) is named
      // here, before the page gives up with "Did not receive a server response".
      let limit;
      const overdue = new Promise((_resolve, reject) => {
        limit = setTimeout(
          () =>
            reject(
              new Error(
                `${command} ${payload?.selector ?? payload?.url ?? ''}: no answer within ${ANSWER_MS - 1000} ms (the browser or its driver is busy)`,
              ),
            ),
          ANSWER_MS - 1000,
        );
      });
      return Promise.race([run, overdue]).finally(() => clearTimeout(limit));
    },
  };
}
