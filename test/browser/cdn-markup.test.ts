// The CDN scripts' declarative `data-video-plugin` markup, the form CMS sanitizers keep: what each
// attribute does, markup added and removed after load, and bad input named on the console. Every
// page is a whole HTML document in a same-origin iframe (support/cdn-page.ts), talking to the real
// local service.
import { expect } from '@open-wc/testing';
import { token } from '../support/plugin.js';
import type { VideoPluginElement } from '../../src/element/index.js';
import type { VideoPluginError } from '../../src/errors.js';
import {
  CLASSIC,
  PARTNER,
  afterMutations,
  insert,
  markup,
  next,
  page,
  scriptPage,
  service,
  site,
  type PageWindow,
} from '../support/cdn-page.js';

describe('CDN scripts: the data-video-plugin markup', () => {
  it('forwards every data- attribute to the <video-plugin> it creates, and later changes too', async () => {
    const win = await scriptPage();
    const host = insert(
      win,
      await markup({
        'data-environment': 'demo',
        'data-auth-mode': 'uncontrolled',
        'data-connect-timeout': '9000',
        'data-call-timeout': '8000',
        'data-theme': 'dark',
        'data-locale': 'de',
        'data-display': 'modal',
        'data-launcher': '',
        'data-preload': 'auto',
        'data-open-on': 'none',
      }),
    );
    await afterMutations();
    const el = host.querySelector('video-plugin') as VideoPluginElement;
    const forwarded = [
      'partner-id',
      'environment',
      'auth-mode',
      'connect-timeout',
      'call-timeout',
      'theme',
      'locale',
      'display',
      'launcher',
      'preload',
    ];
    expect(forwarded.map((name) => el.getAttribute(name))).to.deep.equal([
      PARTNER,
      'demo',
      'uncontrolled',
      '9000',
      '8000',
      'dark',
      'de',
      'modal',
      '',
      'auto',
    ]);
    // The attributes of <video-plugin> and the data- forms are the same list, but for height
    // (data-height is the embed's own: a CSS height, or auto, the element's height="auto") and the
    // two that only the site-wide <script> sets.
    expect(el.serviceURL).to.equal(service);
    expect(el.hasAttribute('debug')).to.equal(false);
    const attributes = [...win.VideoPlugin!.VideoPluginElement.observedAttributes].sort();
    expect(attributes).to.deep.equal([...forwarded, 'service-url', 'debug', 'height'].sort());
    await el.updateComplete;
    expect(el.plugin!.authMode).to.equal('uncontrolled');

    const rebuilt = el.plugin;
    host.setAttribute('data-call-timeout', '7000');
    await afterMutations();
    await el.updateComplete;
    expect(el.getAttribute('call-timeout')).to.equal('7000');
    // A change of configuration: the element built a new Plugin with it.
    expect(el.plugin).to.not.equal(rebuilt);
  });

  it('data-open-on="load" (the default) opens the AI page at once', async () => {
    const win = await scriptPage();
    const template = win.document.createElement('template');
    template.innerHTML = await markup({ 'data-auth-mode': 'uncontrolled' });
    const host = template.content.firstElementChild!;
    const opened = next(host, 'pluginOpened');
    win.document.body.append(host);
    await opened;
    const iframe = host.querySelector('video-plugin')!.shadowRoot!.querySelector('iframe')!;
    expect(iframe.getBoundingClientRect().height).to.equal(600);
  });

  it('data-height="auto" is the element\'s height="auto": the studio fits its content', async () => {
    const win = await scriptPage();
    const template = win.document.createElement('template');
    template.innerHTML = await markup({ 'data-height': 'auto' });
    const host = template.content.firstElementChild!;
    const opened = next(host, 'pluginOpened');
    win.document.body.append(host);
    await opened;
    const el = host.querySelector('video-plugin')!;
    expect(el.getAttribute('height')).to.equal('auto');
    expect(el.style.getPropertyValue('--video-plugin-height')).to.equal('');
    const iframe = el.shadowRoot!.querySelector('iframe')!;
    // The studio's first height message: the search step, shorter than the default min of 400px.
    while (!iframe.style.height) await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(parseFloat(iframe.style.height)).to.be.below(400);
    expect(iframe.getBoundingClientRect().height).to.equal(400);
    expect(el.getBoundingClientRect().height).to.equal(400);
  });

  it('data-open-on="click" shows a launcher button that opens the AI page, labelled by data-launcher-text', async () => {
    const win = await scriptPage();
    const host = insert(win, await markup({ 'data-open-on': 'click', 'data-launcher-text': 'Make a video' }));
    await afterMutations();
    const button = host.querySelector('video-plugin > button') as HTMLButtonElement;
    expect(button.textContent).to.equal('Make a video');
    expect(button.type).to.equal('button');
    const opened = next(host, 'pluginOpened');
    button.click();
    await opened;
  });

  it('data-open-on="click" uses the author\'s own button when the markup has one', async () => {
    const win = await scriptPage();
    const host = insert(win, await markup({ 'data-open-on': 'click' }, '<p><button class="mine">Start</button></p>'));
    await afterMutations();
    expect(host.querySelectorAll('button')).to.have.length(1);
    const opened = next(host, 'pluginOpened');
    (host.querySelector('button.mine') as HTMLButtonElement).click();
    await opened;
  });

  it('data-open-on="none" opens nothing: the page\'s code calls openPlugin on the element inside', async () => {
    const win = await scriptPage();
    const host = insert(win, await markup({ 'data-open-on': 'none', 'data-auth-mode': 'jwt' }));
    await afterMutations();
    const el = host.querySelector('video-plugin') as VideoPluginElement;
    expect(host.querySelector('button')).to.equal(null);
    await el.createAccount(await token('create', { partnerID: PARTNER }));
    const opened = next(host, 'pluginOpened');
    await el.openPlugin();
    await opened;
  });

  it('markup added later is upgraded; removed, its studio ends; the observer then stops watching it', async () => {
    const win = await scriptPage();
    const section = insert(win, '<section></section>');
    const host = insert(win, await markup({ 'data-open-on': 'none' }), section);
    await afterMutations();
    const el = host.querySelector('video-plugin') as VideoPluginElement;
    await el.getVideos();
    const plugin = el.plugin!;
    section.remove();
    await afterMutations();
    expect(plugin.isDestroyed).to.equal(true);
    // Detached, the host is no longer watched: its attribute changes do nothing.
    host.setAttribute('data-call-timeout', '5000');
    await afterMutations();
    expect(el.getAttribute('call-timeout')).to.equal(null);
    // Inserted again, it is watched again and its studio starts a new session.
    win.document.body.append(host);
    await afterMutations();
    expect(host.querySelectorAll('video-plugin')).to.have.length(1);
    expect(await el.getVideos()).to.deep.equal([]);
    host.setAttribute('data-call-timeout', '6000');
    await afterMutations();
    expect(el.getAttribute('call-timeout')).to.equal('6000');
  });

  it('removing data-video-plugin puts the host back as it was', async () => {
    const win = await scriptPage();
    const host = insert(win, await markup({ 'data-open-on': 'click' }, '<em>Hello</em>'));
    await afterMutations();
    expect(host.querySelector('video-plugin')).to.not.equal(null);
    host.removeAttribute('data-video-plugin');
    await afterMutations();
    expect(host.innerHTML).to.equal('<em>Hello</em>');
  });

  it('works inside a <p> or wrapped by the CMS (a figure, nested divs)', async () => {
    const win = await scriptPage();
    for (const [before, after] of [
      ['<p>', '</p>'],
      ['<figure class="wp-block-html"><div class="entry-content">', '</div></figure>'],
    ]) {
      // Parsed as the browser parses a post body: a <div> inside <p> closes the paragraph.
      const wrapper = insert(win, `<article>${before}${await markup({ 'data-open-on': 'click' })}${after}</article>`);
      await afterMutations();
      const host = wrapper.querySelector('[data-video-plugin]')!;
      const opened = next(host, 'pluginOpened');
      (host.querySelector('button') as HTMLButtonElement).click();
      await opened;
    }
  });

  it('any element can be the host: a <span> inside a paragraph works too', async () => {
    const win = await scriptPage();
    const p = insert(
      win,
      `<p>Make one: <span data-video-plugin data-partner-id="${PARTNER}" data-auth-mode="uncontrolled" data-open-on="click"></span></p>`,
    );
    await afterMutations();
    const opened = next(p, 'pluginOpened');
    (p.querySelector('button') as HTMLButtonElement).click();
    await opened;
  });
});

describe('CDN scripts: the data-video-plugin markup, bad input', () => {
  /** The error event of a host inserted into a page, and the page. */
  async function errorOf(html: string): Promise<{ error: VideoPluginError; win: PageWindow; host: Element }> {
    const win = await scriptPage();
    const template = win.document.createElement('template');
    template.innerHTML = html;
    const host = template.content.firstElementChild!;
    const failed = next<VideoPluginError>(host, 'error');
    win.document.body.append(host);
    return { error: (await failed).detail, win, host };
  }

  it('a missing data-partner-id: an error event naming it, no studio; setting it later builds one', async () => {
    const { error, win, host } = await errorOf('<div data-video-plugin data-open-on="none"></div>');
    expect(error).to.be.instanceOf(win.VideoPlugin!.InvalidParameterError);
    expect(error.code).to.equal('invalid_parameter');
    expect(error.data?.field).to.equal('data-partner-id');
    expect(error.message).to.contain('data-partner-id').and.contain('partner ID');
    expect(host.querySelector('video-plugin')).to.equal(null);
    // Nobody called preventDefault(): the console has it too, for an author with no listener.
    expect(win.errors.some((line) => line.includes('data-partner-id'))).to.equal(true);
    host.setAttribute('data-partner-id', PARTNER);
    await afterMutations();
    expect(await (host.querySelector('video-plugin') as VideoPluginElement).getVideos()).to.deep.equal([]);
  });

  for (const [attribute, value, words] of [
    ['data-auth-mode', 'open', ['jwt', 'uncontrolled']],
    ['data-environment', 'staging', ['prod', 'demo']],
    ['data-connect-timeout', 'soon', ['number']],
    ['data-open-on', 'hover', ['load', 'click', 'none']],
    ['data-height', 'tall', ['CSS height']],
  ] as const) {
    it(`an invalid ${attribute}: an error event naming ${attribute}, the same error as the element's`, async () => {
      const { error, win } = await errorOf(await markup({ 'data-open-on': 'none', [attribute]: value }));
      expect(error).to.be.instanceOf(win.VideoPlugin!.InvalidParameterError);
      expect(error.data?.field).to.equal(attribute);
      expect(error.message).to.contain(attribute);
      for (const word of words) expect(error.message).to.contain(word);
      expect(error.message).to.not.match(/(^|[^-])\b(auth-mode|environment|service-url|connect-timeout) attribute/);
    });
  }

  it('a studio that cannot start (an unknown partner) is printed once, by the SDK, not again by the markup', async () => {
    const { error, win } = await errorOf(await markup({ 'data-partner-id': 'no-such-partner' }));
    expect(error).to.be.instanceOf(win.VideoPlugin!.NotFoundError);
    // The event has been dispatched: whatever the markup would print, it has printed.
    expect(win.errors).to.deep.equal([`[video-plugin] NotFoundError (partner_not_found): ${error.message}`]);
  });

  it('an error event that a listener cancels stays off the console', async () => {
    const win = await scriptPage();
    const template = win.document.createElement('template');
    template.innerHTML = await markup({ 'data-auth-mode': 'open' });
    const host = template.content.firstElementChild!;
    host.addEventListener('error', (event) => event.preventDefault());
    const failed = next(host, 'error');
    win.document.body.append(host);
    await failed;
    expect(win.errors).to.deep.equal([]);
  });

  it('unknown data- attributes are ignored, with a warning only when the site-wide script has data-debug', async () => {
    const quiet = await scriptPage();
    insert(quiet, await markup({ 'data-open-on': 'none', 'data-partnerid': 'typo', 'data-align': 'wide' }));
    await afterMutations();
    expect(quiet.warnings).to.deep.equal([]);
    const win = await page('', site(CLASSIC, ' data-debug'));
    insert(win, await markup({ 'data-open-on': 'none', 'data-partnerid': 'typo' }));
    await afterMutations();
    const ours = win.warnings.filter((warning) => warning.startsWith('[video-plugin]'));
    expect(ours).to.have.length(1);
    expect(ours[0]).to.contain('data-partnerid').and.contain('ignored').and.contain('data-partner-id');
  });

  it('a page without the markup gets no element, no iframe and no request', async () => {
    const win = await page('<main><p>Nothing to embed here.</p><div data-other="1"></div></main>', site());
    win.document.body.append(win.document.createElement('div'));
    await afterMutations();
    expect(win.document.querySelectorAll('video-plugin, iframe')).to.have.length(0);
    const requests = win.performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname);
    expect(requests).to.deep.equal([CLASSIC]);
  });
});
