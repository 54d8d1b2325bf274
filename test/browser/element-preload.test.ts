// <video-plugin preload> (docs/element-guide.md, "Instant open: preload"): when the studio is
// created, at insertion, at the user's intent or at the first call. Runs on src/ and on the classic
// CDN script (element.test.ts says more).
import { expect } from '@open-wc/testing';
import { InvalidParameterError, Plugin, VideoPluginElement, VideoPluginError } from '../support/element-api.js';
import { element, nextDOMEvent, afterMicrotasks, iframesCreatedBy, removeElements } from '../support/element-suite.js';

afterEach(removeElements);

describe('<video-plugin>: preload', () => {
  /** A connected element with a launcher button, and a count of the iframes its first update made. */
  async function withLauncher(
    attributes: Record<string, string>,
  ): Promise<{ el: VideoPluginElement; button: HTMLButtonElement; created: number }> {
    const el = await element({ launcher: '', ...attributes }, { connect: false });
    el.innerHTML = '<button type="button">Create a video</button>';
    const created = await iframesCreatedBy(el, () => document.body.append(el));
    return { el, button: el.querySelector('button')!, created };
  }

  it('auto (the default) creates the studio when the element is inserted', async () => {
    const { el, created } = await withLauncher({});
    expect(created).to.equal(1);
    await el.ready;
  });

  it('none creates nothing before the click; the click creates the studio and opens the AI page', async () => {
    const { el, button, created } = await withLauncher({ preload: 'none', 'auth-mode': 'uncontrolled' });
    expect(created).to.equal(0);
    // Intent is not enough with none.
    button.focus();
    el.dispatchEvent(new PointerEvent('pointerenter'));
    await afterMicrotasks();
    expect(el.plugin).to.equal(undefined);
    expect(el.shadowRoot!.querySelector('iframe')).to.equal(null);
    const opened = nextDOMEvent(el, 'pluginOpened');
    button.click();
    await opened;
    expect(el.plugin!.isOpen).to.equal(true);
  });

  it('none: the first method call creates the studio; ready waits without creating it', async () => {
    const { el } = await withLauncher({ preload: 'none' });
    let ready = false;
    void el.ready.then(() => (ready = true));
    // The sentinel: another element completes a whole round trip meanwhile.
    const other = await element();
    expect(await other.getVideos()).to.deep.equal([]);
    expect(ready).to.equal(false);
    expect(el.plugin).to.equal(undefined);
    expect(await el.getVideos()).to.deep.equal([]);
    await el.ready;
    expect(el.plugin).to.be.instanceOf(Plugin);
  });

  it('none: a status subscription creates the studio', async () => {
    const { el } = await withLauncher({ preload: 'none' });
    expect(await iframesCreatedBy(el, () => el.subscribeToTopicSearchStatusUpdates('a-topic', () => {}))).to.equal(1);
    await el.ready;
    expect(el.plugin).to.be.instanceOf(Plugin);
  });

  for (const [intent, show] of [
    ['the pointer over it', (el: VideoPluginElement) => el.dispatchEvent(new PointerEvent('pointerenter'))],
    ['the focus on its launcher', (_el: VideoPluginElement, button: HTMLButtonElement) => button.focus()],
    [
      'a touch on its launcher',
      (_el: VideoPluginElement, button: HTMLButtonElement) =>
        button.dispatchEvent(new Event('touchstart', { bubbles: true })),
    ],
  ] as const) {
    it(`intent creates and connects the studio at ${intent}, before the click`, async () => {
      const { el, button, created } = await withLauncher({ preload: 'intent', 'auth-mode': 'uncontrolled' });
      expect(created).to.equal(0);
      expect(el.plugin).to.equal(undefined);
      expect(await iframesCreatedBy(el, () => show(el, button))).to.equal(1);
      await el.ready;
      // Connected before the click: the click only shows it. Intent again creates nothing more.
      expect(await iframesCreatedBy(el, () => el.dispatchEvent(new PointerEvent('pointerenter')))).to.equal(0);
      const opened = nextDOMEvent(el, 'pluginOpened');
      button.click();
      await opened;
      expect(el.plugin!.isOpen).to.equal(true);
    });
  }

  it('intent: inserted again after removal, it waits for intent again', async () => {
    const { el, button } = await withLauncher({ preload: 'intent' });
    button.focus();
    await el.ready;
    el.remove();
    await afterMicrotasks();
    expect(el.plugin).to.equal(undefined);
    expect(await iframesCreatedBy(el, () => document.body.append(el))).to.equal(0);
    expect(await iframesCreatedBy(el, () => el.dispatchEvent(new PointerEvent('pointerenter')))).to.equal(1);
    await el.ready;
  });

  it('changing preload never restarts a session; from none to auto creates the studio', async () => {
    const built = await withLauncher({});
    expect(await iframesCreatedBy(built.el, () => built.el.setAttribute('preload', 'none'))).to.equal(0);
    expect(built.el.plugin!.isDestroyed).to.equal(false);
    const { el } = await withLauncher({ preload: 'none' });
    expect(await iframesCreatedBy(el, () => el.setAttribute('preload', 'intent'))).to.equal(0);
    expect(await iframesCreatedBy(el, () => el.removeAttribute('preload'))).to.equal(1);
    await el.ready;
  });

  it('reports an unknown preload value with an error event naming the attribute, and creates nothing', async () => {
    const el = await element({ preload: 'eager' }, { connect: false });
    const error = nextDOMEvent<VideoPluginError>(el, 'error');
    document.body.append(el);
    const { detail } = await error;
    expect(detail).to.be.instanceOf(InvalidParameterError);
    expect(detail.data?.field).to.equal('preload');
    expect(detail.message).to.equal(
      '<video-plugin>: the preload attribute must be one of "auto", "intent", "none", got "eager".',
    );
    expect(el.plugin).to.equal(undefined);
  });
});
