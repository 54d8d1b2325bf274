// The element's stage (src/element/stage.ts) in every engine, against the real service: the
// loading skeleton and `ready`, the failure panel and its retry; the display modes (inline, modal,
// drawer) with their focus, Esc, backdrop and scroll-lock behaviour, and the `closed` event.
import { expect } from '@open-wc/testing';
import { ConnectionError, InvalidParameterError } from '../../src/errors.js';
import '../../src/element/index.js';
import { element, elements, next, removeElements } from '../support/element.js';
import { ESCAPE, inFrame, testConfig, token, until } from '../support/plugin.js';

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

  it('on a connection failure shows the message and a retry control, and fires error', async () => {
    const el = document.createElement('video-plugin');
    elements.push(el);
    el.setAttribute('partner-id', 'test-partner');
    el.setAttribute('service-url', 'http://127.0.0.1:9/');
    el.setAttribute('connect-timeout', '300');
    const failed = next<ConnectionError>(el, 'error');
    document.body.append(el);
    expect((await failed).detail).to.be.instanceOf(ConnectionError);
    const panel = el.shadowRoot!.querySelector<HTMLElement>('[part="failed"]')!;
    expect(getComputedStyle(panel).display).to.equal('grid');
    expect(panel.textContent).to.include('No answer from');
    const first = el.plugin;
    const again = next(el, 'error');
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="retry"]')!.click();
    await el.updateComplete;
    expect(el.plugin).to.not.equal(first);
    expect(getComputedStyle(el.shadowRoot!.querySelector('[part="loading"]')!).display).to.equal('grid');
    await again;
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
