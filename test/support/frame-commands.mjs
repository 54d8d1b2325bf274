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

export function frameCommandsPlugin() {
  return {
    name: 'video-plugin-frame-commands',
    async executeCommand({ command, payload, session }) {
      if (!command.startsWith('frame-')) return undefined;
      const { channel, selector, value, timeout = 8000 } = payload;
      const frame = await findFrame(session, channel, timeout);
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
