// web-test-runner commands that act inside the service's cross-origin iframe the way a person
// would: real clicks and typing through the browser (puppeteer), found by the iframe's channel.
// Tests call them with executeServerCommand from @web/test-runner-commands.

async function findFrame(session, channel, timeout = 8000) {
  const page = session.browser.getPage(session.id);
  const deadline = Date.now() + timeout;
  for (;;) {
    const frame = page.frames().find((f) => f.url().includes(channel));
    if (frame) return frame;
    if (Date.now() > deadline) throw new Error(`no frame with channel ${channel}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/* global sessionStorage, DOMException -- these run inside the frame (frame.evaluate) */
// What the browser can do to the frame's own storage, played inside the frame (session.test.ts).
// Each returns whether the frame's sessionStorage is usable afterwards.
const STORAGE_ACTIONS = {
  // Just look: false where the browser denies the frame any storage (third-party storage blocked).
  probe: () => {
    try {
      return sessionStorage.length >= 0;
    } catch {
      return false;
    }
  },
  // The user or the browser clears the frame's site data: a reload finds nothing.
  clear: () => {
    try {
      sessionStorage.clear();
      return true;
    } catch {
      return false;
    }
  },
  // The browser starts denying storage to this document, as Chromium does when third-party
  // storage is blocked: every touch of window.sessionStorage throws a SecurityError.
  deny: () => {
    Object.defineProperty(window, 'sessionStorage', {
      configurable: true,
      get() {
        throw new DOMException('Access is denied for this document.', 'SecurityError');
      },
    });
    return false;
  },
};

export function frameCommandsPlugin() {
  return {
    name: 'video-plugin-frame-commands',
    async executeCommand({ command, payload, session }) {
      if (!command.startsWith('frame-')) return undefined;
      const { channel, selector, value, timeout = 8000 } = payload;
      const frame = await findFrame(session, channel, timeout);
      if (command === 'frame-storage') return frame.evaluate(STORAGE_ACTIONS[value]);
      const handle = await frame.waitForSelector(selector, { timeout, visible: command !== 'frame-text' });
      switch (command) {
        case 'frame-click':
          await handle.click();
          return true;
        case 'frame-fill':
          await handle.click({ clickCount: 3 });
          await handle.type(value);
          return true;
        case 'frame-text':
          return handle.evaluate((element) => element.textContent?.trim() ?? null);
        default:
          throw new Error(`unknown command ${command}`);
      }
    },
  };
}
