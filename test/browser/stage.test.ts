// The element's stage (src/element/stage.ts) in every engine, against the real service: the
// loading skeleton and `ready`, the failure panel and its retry; the display modes (inline, modal,
// drawer) with their focus, Esc, backdrop and scroll-lock behaviour, and the `closed` event; the
// inline element's box (its rendered height) in each state, fixed and height="auto".
import { expect } from '@open-wc/testing';
import { ConnectionError, InvalidParameterError, NotFoundError } from '../../src/errors.js';
import '../../src/element/index.js';
import { element, elements, next, removeElements } from '../support/element.js';
import { ESCAPE, inFrame, testConfig, token, until } from '../support/plugin.js';
import type { VideoPluginElement } from '../../src/element/video-plugin-element.js';

afterEach(removeElements);

describe('<video-plugin>: loading state and ready', () => {
  it('shows ::part(loading) while connecting, then fires ready and hides it', async () => {
    const { serviceURL } = await testConfig();
    const el = document.createElement('video-plugin');
    elements.push(el);
    el.setAttribute('partner-id', 'test-partner');
    el.setAttribute('service-url', serviceURL);
    const ready = next(el, 'ready');
    document.body.append(el);
    await el.updateComplete;
    const loading = el.shadowRoot!.querySelector<HTMLElement>('[part="loading"]')!;
    expect(getComputedStyle(loading).display).to.equal('grid');
    expect(loading.getAttribute('role')).to.equal('progressbar');
    await ready;
    await el.ready;
    expect(getComputedStyle(loading).display).to.equal('none');
    // Its own content (a placeholder) is never covered by the skeleton.
    const placeholder = await element({ 'connect-timeout': '30000' }, '<button type="button">Create a video</button>');
    expect(getComputedStyle(placeholder.shadowRoot!.querySelector('[part="loading"]')!).display).to.equal('none');
  });

  /** The failure panel of `el`: whether it shows, what it says (its slot's content), and its retry. */
  const panelOf = (el: HTMLElement) => {
    const panel = el.shadowRoot!.querySelector<HTMLElement>('[part="failed"]')!;
    const retry = panel.querySelector<HTMLButtonElement>('[part="retry"]')!;
    const slot = panel.querySelector<HTMLSlotElement>('slot[name="failed"]')!;
    const shown = (node: Element) => node.getClientRects().length > 0;
    return {
      shown: getComputedStyle(panel).display === 'grid',
      // What shows in the slot: the partner's content, else its own fallback.
      text: slot
        .assignedElements({ flatten: true })
        .map((node) => node.textContent)
        .join(''),
      retry: shown(retry) ? retry.textContent : null,
      button: retry,
    };
  };

  it('on a connection failure shows a kind message and a retry control (never the technical one), and fires error with the error of ready', async () => {
    const el = document.createElement('video-plugin');
    elements.push(el);
    el.setAttribute('partner-id', 'test-partner');
    el.setAttribute('service-url', 'http://127.0.0.1:9/');
    el.setAttribute('connect-timeout', '300');
    el.setAttribute('lang', 'en');
    const failed = next<ConnectionError>(el, 'error');
    document.body.append(el);
    const error = (await failed).detail;
    expect(error).to.be.instanceOf(ConnectionError);
    // The error event and ready carry the same error.
    expect(await el.ready.catch((e: unknown) => e)).to.equal(error);
    const panel = panelOf(el);
    expect(panel).to.include({ shown: true, text: 'The studio could not load.', retry: 'Try again' });
    expect(el.shadowRoot!.querySelector('[part="failed"]')!.textContent).to.not.contain('127.0.0.1');
    const first = el.plugin;
    const again = next(el, 'error');
    panel.button.click();
    await el.updateComplete;
    expect(el.plugin).to.not.equal(first);
    expect(getComputedStyle(el.shadowRoot!.querySelector('[part="loading"]')!).display).to.equal('grid');
    await again;
  });

  it('on a configuration fault says so in the element locale, with no retry (it cannot help)', async () => {
    const { serviceURL } = await testConfig();
    const el = document.createElement('video-plugin');
    elements.push(el);
    el.setAttribute('partner-id', 'no-such-partner');
    el.setAttribute('service-url', serviceURL);
    el.setAttribute('locale', 'de-CH');
    const failed = next<NotFoundError>(el, 'error');
    document.body.append(el);
    const error = (await failed).detail;
    expect(error).to.be.instanceOf(NotFoundError);
    expect(error.code).to.equal('partner_not_found');
    expect(panelOf(el)).to.include({ shown: true, text: 'Das Studio konnte nicht geladen werden.', retry: null });
  });

  it("without a locale, the page's language (the nearest lang) decides; the failed slot replaces the message", async () => {
    const { serviceURL } = await testConfig();
    const section = document.createElement('section');
    section.lang = 'fr';
    document.body.append(section);
    try {
      const el = document.createElement('video-plugin');
      elements.push(el);
      el.setAttribute('partner-id', 'no-such-partner');
      el.setAttribute('service-url', serviceURL);
      const failed = next(el, 'error');
      section.append(el);
      await failed;
      expect(panelOf(el)).to.include({ shown: true, text: "Le studio n'a pas pu être chargé.", retry: null });
      const own = document.createElement('p');
      own.slot = 'failed';
      own.textContent = 'Please contact support.';
      el.append(own);
      expect(panelOf(el).text).to.equal('Please contact support.');
      // The partner's content shows in the panel, in place of the element's own message.
      expect(own.getClientRects().length).to.be.greaterThan(0);
    } finally {
      section.remove();
    }
  });
});

describe('<video-plugin>: display modes', () => {
  for (const display of ['modal', 'drawer'] as const) {
    it(`${display}: a launcher opens an accessible dialog; Esc closes it, focus returns, scroll unlocks`, async () => {
      const outside = document.createElement('button');
      outside.textContent = 'Outside';
      document.body.append(outside);
      try {
        const el = await element({ display, launcher: '' }, '<button type="button">Create a video</button>');
        await el.createAccount(await token('create'));
        const launcher = el.querySelector('button')!;
        launcher.focus();
        const pluginOpened = next(el, 'pluginOpened');
        launcher.click();
        await pluginOpened;
        const dialog = el.shadowRoot!.querySelector('dialog')!;
        await until('the dialog opens', () => dialog.open);
        expect(dialog.matches(':modal')).to.equal(true);
        expect(dialog.className).to.equal(display);
        expect(el.shadowRoot!.activeElement).to.equal(el.plugin!.iframe);
        expect(document.documentElement.style.overflow).to.equal('hidden');
        // The rest of the page is inert: it cannot take the focus.
        outside.focus();
        expect(document.activeElement).to.not.equal(outside);
        const box = dialog.getBoundingClientRect();
        if (display === 'drawer') {
          expect(Math.round(box.right)).to.equal(document.documentElement.clientWidth);
          expect(Math.round(box.height)).to.equal(innerHeight);
        } else {
          expect(box.left).to.be.above(0);
        }
        await expect(el).to.be.accessible();

        const closed = next<{ reason: string }>(el, 'closed');
        await inFrame(el.plugin!).key('h2', ESCAPE);
        expect((await closed).detail.reason).to.equal('ui');
        await until('the dialog closes', () => !dialog.open);
        expect(document.activeElement).to.equal(launcher);
        expect(document.documentElement.style.overflow).to.equal('');
      } finally {
        outside.remove();
      }
    });
  }

  it('a click on the backdrop and Esc on the dialog close it, each with its reason', async () => {
    const el = await element({ display: 'modal' });
    await el.createAccount(await token('create'));
    const dialog = el.shadowRoot!.querySelector('dialog')!;
    for (const [close, reason] of [
      // A click outside the dialog's box targets the dialog itself (its ::backdrop).
      [() => dialog.dispatchEvent(new MouseEvent('click', { bubbles: true })), 'backdrop'],
      // What the browser fires on Esc while the focus is in the page's part of the dialog.
      [() => dialog.dispatchEvent(new Event('cancel', { cancelable: true })), 'escape'],
    ] as const) {
      await el.openPlugin();
      await until('the dialog opens', () => dialog.open);
      const closed = next<{ reason: string }>(el, 'closed');
      close();
      expect((await closed).detail.reason).to.equal(reason);
      await until('the dialog closes', () => !dialog.open);
      expect(el.plugin!.isOpen).to.equal(false);
    }
    const closed = next<{ reason: string }>(el, 'closed');
    await el.openPlugin();
    await el.close();
    expect((await closed).detail.reason).to.equal('api');
  });

  it('inline stays in the element; a bad display value is an error event naming the attribute', async () => {
    const el = await element();
    await el.createAccount(await token('create'));
    await el.openPlugin();
    expect(el.shadowRoot!.querySelector('dialog')!.open).to.equal(false);
    expect(el.plugin!.iframe.getBoundingClientRect().height).to.equal(600);
    const error = next<InvalidParameterError>(el, 'error');
    el.setAttribute('display', 'popup');
    const detail = (await error).detail;
    expect(detail.data?.field).to.equal('display');
    expect(detail.message).to.include('"inline", "modal", "drawer"');
  });
});

describe('<video-plugin> inline: its box in each state', () => {
  const heightOf = (node: Element) => node.getBoundingClientRect().height;
  const part = (el: HTMLElement, name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part="${name}"]`)!;
  const showing = (node: HTMLElement) => getComputedStyle(node).display !== 'none';
  /** An element for the test service with `attributes`, not yet in the page. */
  async function unconnected(attributes: Record<string, string>): Promise<VideoPluginElement> {
    const { serviceURL } = await testConfig();
    const el = document.createElement('video-plugin');
    elements.push(el);
    el.setAttribute('partner-id', 'test-partner');
    el.setAttribute('service-url', serviceURL);
    for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
    return el;
  }
  /** Microtasks only: no event (the studio's handshake among them) can run in between. */
  async function microtasksUntil(check: () => boolean): Promise<void> {
    for (let i = 0; i < 100 && !check(); i++) await Promise.resolve();
    if (!check()) throw new Error('not within 100 microtasks');
  }

  it('height="auto" without children: no room while connecting or closed; the studio\'s height while open', async () => {
    const el = await element({ height: 'auto' });
    // Connecting, closed: no skeleton for a studio that does not show, and no room.
    expect(el.plugin!.isOpen).to.equal(false);
    expect(showing(part(el, 'loading'))).to.equal(false);
    expect(heightOf(el)).to.equal(0);
    await el.ready;
    expect(heightOf(el)).to.equal(0);
    await el.createAccount(await token('create'));
    await el.openPlugin();
    const iframe = el.plugin!.iframe;
    await until('the studio to send its height', () => iframe.style.height.endsWith('px'), 8000);
    expect(heightOf(el)).to.equal(heightOf(iframe));
    expect(heightOf(el)).to.be.at.least(400);
    const closed = next(el, 'closed');
    await el.close();
    await closed;
    expect(heightOf(el)).to.equal(0);
  });

  it('height="auto" opened while it connects: the skeleton stands over the studio, at the min height', async () => {
    const el = await unconnected({ height: 'auto', 'auth-mode': 'uncontrolled' });
    el.style.setProperty('--video-plugin-min-height', '250px');
    document.body.append(el);
    await el.updateComplete;
    const opening = el.openPlugin().catch(() => {});
    await microtasksUntil(() => !!el.plugin?.isOpen && showing(part(el, 'loading')));
    expect(heightOf(el)).to.equal(250);
    expect(heightOf(part(el, 'loading'))).to.equal(250);
    await el.ready;
    expect(showing(part(el, 'loading'))).to.equal(false);
    await opening;
  });

  it('height="auto" with children: the children\'s height while connecting and closed, the skeleton never over them', async () => {
    const el = await element({ height: 'auto' }, '<div style="height:48px">A picture of the studio</div>');
    expect(showing(part(el, 'loading'))).to.equal(false);
    expect(heightOf(el)).to.equal(48);
    await el.ready;
    expect(heightOf(el)).to.equal(48);
  });

  it('height set as a property (as React 19 and @lit/react do) is the attribute: the same box', async () => {
    const el = await unconnected({});
    el.height = 'auto';
    document.body.append(el);
    await el.updateComplete;
    expect(el.getAttribute('height')).to.equal('auto');
    await el.ready;
    expect(heightOf(el)).to.equal(0);
    el.height = undefined;
    await el.updateComplete;
    expect(el.hasAttribute('height')).to.equal(false);
    expect(heightOf(el)).to.equal(600);
  });

  it('height="auto" on a configuration fault: the failure panel sized to its content, the partner\'s too', async () => {
    const el = await unconnected({ height: 'auto', lang: 'en' });
    el.setAttribute('partner-id', 'no-such-partner');
    const failed = next(el, 'error');
    document.body.append(el);
    await failed;
    const panel = part(el, 'failed');
    expect(showing(panel)).to.equal(true);
    // Its padding (24px above and below) and the message's margin box: no empty space around one line.
    const message = panel.querySelector('p')!;
    const { marginTop, marginBottom } = getComputedStyle(message);
    const content = 48 + heightOf(message) + parseFloat(marginTop) + parseFloat(marginBottom);
    expect(Math.abs(heightOf(panel) - content)).to.be.below(1);
    expect(heightOf(el)).to.equal(heightOf(panel));
    expect(heightOf(el)).to.be.below(200);
    // The partner's message in the failed slot: the panel (and the element) take its height.
    const own = document.createElement('div');
    own.slot = 'failed';
    own.style.height = '300px';
    el.append(own);
    expect(heightOf(el)).to.equal(348);
  });

  it('height="auto" on a retry: the skeleton takes the failure panel\'s place (the user sees it working), then the panel again', async () => {
    const el = await unconnected({ height: 'auto', lang: 'en', 'connect-timeout': '300' });
    el.setAttribute('service-url', 'http://127.0.0.1:9/');
    const failed = next(el, 'error');
    document.body.append(el);
    await failed;
    const panel = part(el, 'failed');
    const retry = part(el, 'retry');
    expect(showing(panel)).to.equal(true);
    // The message, the retry button and the padding: still no empty space.
    expect(heightOf(el)).to.equal(heightOf(panel));
    expect(retry.getBoundingClientRect().bottom).to.be.closeTo(panel.getBoundingClientRect().bottom - 24, 1);
    const again = next(el, 'error');
    retry.click();
    await el.updateComplete;
    const loading = part(el, 'loading');
    expect(showing(loading)).to.equal(true);
    expect(heightOf(loading)).to.be.above(0);
    expect(heightOf(el)).to.equal(heightOf(loading));
    await again;
    expect(showing(panel)).to.equal(true);
    expect(heightOf(el)).to.equal(heightOf(panel));
  });

  it('height="auto" with a tall placeholder on a fault: the panel covers all of it', async () => {
    const el = await unconnected({ height: 'auto', lang: 'en' });
    el.setAttribute('partner-id', 'no-such-partner');
    el.innerHTML = '<div style="height:500px">A picture of the studio</div>';
    const failed = next(el, 'error');
    document.body.append(el);
    await failed;
    expect(heightOf(el)).to.equal(500);
    expect(heightOf(part(el, 'failed'))).to.equal(500);
  });

  it('hidden wins over height="auto"; modal and drawer display keep a block of their children\'s height', async () => {
    const hidden = await element({ height: 'auto', hidden: '' }, '<button type="button">Create a video</button>');
    expect(getComputedStyle(hidden).display).to.equal('none');
    for (const display of ['modal', 'drawer']) {
      const el = await element({ height: 'auto', display }, '<div style="height:48px">Create a video</div>');
      expect(getComputedStyle(el).display).to.equal('block');
      expect(heightOf(el)).to.equal(48);
      await el.ready;
      expect(heightOf(el)).to.equal(48);
    }
  });

  it('a fixed height is the box in every state: connecting, closed (no children), open, closed again', async () => {
    for (const [style, box] of [
      ['', 600],
      ['--video-plugin-height:480px', 480],
      ['height:520px', 520],
    ] as const) {
      const el = await unconnected({});
      el.style.cssText = style;
      document.body.append(el);
      await el.updateComplete;
      expect(showing(part(el, 'loading'))).to.equal(true);
      expect(heightOf(el)).to.equal(box);
      expect(heightOf(part(el, 'loading'))).to.equal(box);
      await el.ready;
      expect(heightOf(el)).to.equal(box);
      await el.createAccount(await token('create'));
      await el.openPlugin();
      expect(heightOf(el)).to.equal(box);
      expect(heightOf(el.plugin!.iframe)).to.equal(box);
      await el.close();
      expect(heightOf(el)).to.equal(box);
      el.remove();
    }
  });

  it('a fixed height on a fault: the failure panel fills the box and, in a box too small for it, scrolls (never cut off)', async () => {
    const el = await unconnected({ lang: 'en' });
    el.setAttribute('partner-id', 'no-such-partner');
    const failed = next(el, 'error');
    document.body.append(el);
    await failed;
    const panel = part(el, 'failed');
    expect(heightOf(el)).to.equal(600);
    expect(heightOf(panel)).to.equal(600);
    // A box smaller than the partner's message: the element keeps its height, the message scrolls
    // inside the panel, and its end can be shown there.
    el.style.height = '120px';
    el.style.overflow = 'hidden';
    const own = document.createElement('div');
    own.slot = 'failed';
    own.style.height = '300px';
    el.append(own);
    expect(heightOf(el)).to.equal(120);
    expect(heightOf(panel)).to.equal(120);
    expect(panel.scrollHeight).to.be.at.least(348);
    panel.scrollTop = panel.scrollHeight;
    const end = own.getBoundingClientRect().bottom;
    expect(end).to.be.at.most(panel.getBoundingClientRect().bottom + 1);
    expect(end).to.be.above(panel.getBoundingClientRect().top);
  });
});
