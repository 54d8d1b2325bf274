// White label (issue 14) in every engine, against the real service and its cross-origin pages:
// appearance and locale (at start and live through update(), and as the element's attributes),
// cancellable waits (AbortSignal) and the status iterators. The element's loading state, failure
// panel and display modes are the stage's: test/browser/stage.test.ts.
import { expect } from '@open-wc/testing';
import { ConnectionError, DestroyedError, InvalidParameterError } from '../../src/errors.js';
import '../../src/element/index.js';
import { element, next, removeElements } from '../support/element.js';
import { Plugin } from '../../src/plugin.js';
import { CATALOGUES } from '../../packages/service/src/pages/i18n.js';
import { de } from '../../packages/service/src/pages/locales/de.js';
import { en } from '../../packages/service/src/pages/locales/en.js';
import {
  BUSINESS_URL,
  createPlugin,
  inFrame,
  rejection,
  signUp,
  testConfig,
  thrown,
  token,
} from '../support/plugin.js';

afterEach(removeElements);

const PALETTE = {
  colorPrimary: '#7c3aed',
  colorBackground: '#fffbeb',
  colorText: '#1c1917',
  fontFamily: 'Georgia, serif',
  borderRadius: 12,
  spacingUnit: 6,
};

describe('appearance', () => {
  it('applies a partner palette, font, radius and spacing to the studio', async () => {
    const plugin = await createPlugin({ appearance: PALETTE });
    await signUp(plugin);
    await plugin.openPlugin();
    const frame = inFrame(plugin);
    const button = await frame.probe('[data-view="search"] button[type="submit"]');
    expect(button!.background).to.equal('rgb(124, 58, 237)');
    // Text on the primary colour: black or white, whichever reads better (white on violet).
    expect(button!.color).to.equal('rgb(255, 255, 255)');
    expect(button!.radius).to.equal('12px');
    expect(button!.paddingTop).to.equal('12px');
    expect(button!.pageBackground).to.equal('rgb(255, 251, 235)');
    expect(button!.fontFamily).to.include('Georgia');
    expect((await frame.probe('h2'))!.color).to.equal('rgb(28, 25, 23)');
  });

  it('has a dark scheme, and picks readable text for a background given alone', async () => {
    const plugin = await createPlugin({ appearance: { colorScheme: 'dark' } });
    await signUp(plugin);
    await plugin.openPlugin();
    const frame = inFrame(plugin);
    const dark = await frame.probe('h2');
    expect(dark!.pageBackground).to.equal('rgb(15, 23, 42)');
    expect(dark!.colorScheme).to.equal('dark');
    await plugin.update({ appearance: { colorBackground: '#111111' } });
    const given = await frame.probe('h2');
    expect(given!.pageBackground).to.equal('rgb(17, 17, 17)');
    expect(given!.color).to.equal('rgb(255, 255, 255)');
  });

  it('changes live with update(): no reload, the session and what the user typed stay', async () => {
    const plugin = await createPlugin();
    const accountID = await signUp(plugin);
    await plugin.openPlugin();
    const frame = inFrame(plugin);
    await frame.fill('#source-url', 'https://typed.example/');
    let loads = 0;
    plugin.iframe.addEventListener('load', () => loads++);
    await plugin.update({ appearance: { colorScheme: 'dark' }, locale: 'de' });
    const heading = await frame.probe('h2');
    expect(heading!.pageBackground).to.equal('rgb(15, 23, 42)');
    expect(heading!.text).to.equal(de['search.heading']);
    expect(heading!.lang).to.equal('de');
    expect((await frame.probe('#source-url'))!.value).to.equal('https://typed.example/');
    expect(loads).to.equal(0);
    expect((await plugin.getAccountInfo()).id).to.equal(accountID);
    // Each option replaces the current one; the other stays.
    await plugin.update({ appearance: {} });
    const light = await frame.probe('h2');
    expect(light!.pageBackground).to.equal('rgb(255, 255, 255)');
    expect(light!.lang).to.equal('de');
  });

  it('refuses bad values naming the field: the connection at start, the call on update()', async () => {
    const cases: [object, string, RegExp][] = [
      [{ colorPrimary: 'blue' }, 'options.appearance.colorPrimary', /hex colour/],
      [{ colour: '#fff' }, 'options.appearance', /unknown key "colour"/],
      [{ colorText: '#999999', colorBackground: '#ffffff' }, 'options.appearance.colorText', /2\.85:1.*4\.5:1/],
      [{ borderRadius: 99 }, 'options.appearance.borderRadius', /0 to 32/],
      [{ colorScheme: 'sepia' }, 'options.appearance.colorScheme', /"light", "dark", "auto"/],
      [{ fontFamily: 'x;}body{display:none' }, 'options.appearance.fontFamily', /font-family/],
    ];
    for (const [appearance, field, message] of cases) {
      const plugin = await createPlugin({ appearance });
      const error = await rejection(plugin.ready);
      expect(error, field).to.be.instanceOf(InvalidParameterError);
      expect(error.data?.field).to.equal(field);
      expect(error.message).to.match(message);
      // Every call fails with the same error: nothing reaches a misconfigured studio.
      expect((await rejection(plugin.getVideos())).data?.field).to.equal(field);
    }
    const { serviceURL } = await testConfig();
    expect(thrown(() => new Plugin('test-partner', { serviceURL, appearance: 'dark' as never })).data?.field).to.equal(
      'options.appearance',
    );
    const malformed = await createPlugin({ locale: 'en_US!' });
    expect((await rejection(malformed.ready)).data?.field).to.equal('options.locale');

    const plugin = await createPlugin({ appearance: { colorScheme: 'dark' } });
    await signUp(plugin);
    await plugin.openPlugin();
    const bad = await rejection(plugin.update({ appearance: { colorText: '#1e293b', colorBackground: '#0f172a' } }));
    expect(bad.data?.field).to.equal('changes.appearance.colorText');
    // The studio keeps its look.
    expect((await inFrame(plugin).probe('h2'))!.pageBackground).to.equal('rgb(15, 23, 42)');
    expect((await rejection(plugin.update('dark' as never))).data?.field).to.equal('changes');
    expect((await rejection(plugin.update({ theme: 'dark' } as never))).message).to.match(/unknown key "theme"/);
    await plugin.cleanup();
    expect(await rejection(plugin.update({ locale: 'de' }))).to.be.instanceOf(DestroyedError);
  });
});

describe('locale', () => {
  it('speaks each of its languages, switched live, with the page lang and Intl formats', async () => {
    const plugin = await createPlugin();
    await signUp(plugin);
    const { topicId } = await plugin.startTopicSearch(BUSINESS_URL);
    for await (const { status } of plugin.topicSearchStatus(topicId)) if (status === 'FAILED') throw new Error(status);
    await plugin.openPlugin({ topicId });
    const frame = inFrame(plugin);
    for (const locale of Object.keys(CATALOGUES)) {
      await plugin.update({ locale });
      const submit = await frame.probe('[data-view="prompt"] button[type="submit"]');
      expect(submit!.text, locale).to.equal(CATALOGUES[locale]!['prompt.generate']);
      expect(submit!.lang).to.equal(locale);
      const seconds = new Intl.NumberFormat(locale, { style: 'unit', unit: 'second', unitDisplay: 'short' });
      expect((await frame.probe('#duration option'))!.text).to.equal(seconds.format(5));
      // The first choice leaves the language to the page; then each language, named in the locale.
      expect((await frame.probe('#language option'))!.text).to.equal(CATALOGUES[locale]!['prompt.pageLanguage']);
      const language = new Intl.DisplayNames([locale], { type: 'language' }).of('de');
      expect((await frame.probe('#language option[value="de"]'))!.text).to.equal(language);
    }
  });

  it('keeps a regional tag for formats, and falls back from a language it does not speak', async () => {
    const plugin = await createPlugin({ locale: 'de-CH' });
    await signUp(plugin);
    await plugin.openPlugin();
    const frame = inFrame(plugin);
    const swiss = await frame.probe('h2');
    expect([swiss!.text, swiss!.lang]).to.deep.equal([de['search.heading'], 'de-CH']);
    await plugin.update({ locale: 'ja' });
    // The browser's language (the test browsers run in English), else English.
    const fallback = await frame.probe('h2');
    expect(fallback!.text).to.equal(en['search.heading']);
    expect(fallback!.lang).to.match(/^en/);
  });
});

describe('ready, AbortSignal and status iterators', () => {
  it('ready resolves once connected, and rejects with the ConnectionError when nothing answers', async () => {
    const plugin = await createPlugin();
    await plugin.ready;
    const dead = await createPlugin({ serviceURL: 'http://127.0.0.1:9/', connectTimeout: 300 });
    expect(await rejection(dead.ready)).to.be.instanceOf(ConnectionError);
  });

  it('an AbortSignal stops a long call with its reason; the UI closes again', async () => {
    const plugin = await createPlugin({ slow: true });
    await signUp(plugin);
    const controller = new AbortController();
    const { topicId } = await plugin.startTopicSearch(BUSINESS_URL);
    // A PENDING topic cannot open: openPlugin would wait its whole timeout; abort it instead.
    const opening = plugin.openPlugin({ topicId, signal: controller.signal, timeout: 60_000 });
    controller.abort(new Error('the user navigated away'));
    expect((await rejection(opening)).message).to.equal('the user navigated away');
    expect(plugin.isOpen).to.equal(false);
    const aborted = AbortSignal.abort();
    const error = (await rejection(
      plugin.startTopicSearch(BUSINESS_URL, { signal: aborted }),
    )) as unknown as DOMException;
    expect(error.name).to.equal('AbortError');
    expect((await rejection(plugin.mount(document.body, true, { signal: aborted }))).name).to.equal('AbortError');
    const bad = await rejection(
      plugin.startVideoGeneration({ topicId, aspectRatio: '16:9', duration: 5 }, { signal: 'stop' as never }),
    );
    expect(bad.data?.field).to.equal('options.signal');
    // The call itself was not lost: the service still answers.
    expect(await plugin.getVideos()).to.be.an('array');
  });

  it('status iterators yield each status in order and end on the final one, on break, on abort, on cleanup', async () => {
    const plugin = await createPlugin();
    await signUp(plugin);
    const { topicId } = await plugin.startTopicSearch(BUSINESS_URL);
    const statuses: string[] = [];
    const fractions: number[] = [];
    for await (const update of plugin.topicSearchStatus(topicId)) {
      statuses.push(update.status);
      fractions.push(update.progress?.fraction ?? 0);
    }
    expect(statuses.at(-1)).to.equal('COMPLETE');
    // A status comes once, or again only with more progress: the statuses, runs collapsed, never
    // repeat, and every update moves the progress forward.
    const changes = statuses.filter((status, index) => status !== statuses[index - 1]);
    expect(changes).to.deep.equal([...new Set(changes)]);
    fractions.slice(1).forEach((fraction, index) => expect(fraction).to.be.at.least(fractions[index]!));
    statuses.slice(1).forEach((status, index) => {
      if (status === statuses[index]) expect(fractions[index + 1]).to.be.above(fractions[index]!);
    });

    const { requestId } = await plugin.startVideoGeneration({ topicId, aspectRatio: '16:9', duration: 5 });
    for await (const update of plugin.videoGenerationStatus(requestId)) {
      expect(update.status).to.be.oneOf(['PENDING', 'PROCESSING', 'COMPLETE']);
      break;
    }

    const slow = await createPlugin({ slow: true });
    await signUp(slow);
    const pending = await slow.startTopicSearch(BUSINESS_URL);
    const controller = new AbortController();
    const loop = (async () => {
      for await (const update of slow.topicSearchStatus(pending.topicId, { signal: controller.signal })) {
        if (update.status === 'PENDING' || update.status === 'PROCESSING') controller.abort(new Error('enough'));
      }
    })();
    expect((await rejection(loop)).message).to.equal('enough');

    const ended = rejection(
      (async () => {
        for await (const update of slow.topicSearchStatus(pending.topicId)) void update;
      })(),
    );
    await slow.cleanup();
    expect(await ended).to.be.instanceOf(DestroyedError);
  });
});

describe('<video-plugin>: appearance and locale attributes', () => {
  it('theme and locale change live, without a new session; a bad theme is an error event', async () => {
    const el = await element({ theme: 'dark', locale: 'fr' });
    await el.createAccount(await token('create'));
    await el.openPlugin();
    const frame = inFrame(el.plugin!);
    expect((await frame.probe('h2'))!.pageBackground).to.equal('rgb(15, 23, 42)');
    expect((await frame.probe('h2'))!.text).to.equal(CATALOGUES.fr!['search.heading']);
    const plugin = el.plugin;
    el.setAttribute('theme', 'light');
    el.setAttribute('locale', 'it');
    el.appearance = { colorPrimary: '#b91c1c' };
    await el.updateComplete;
    expect(el.plugin).to.equal(plugin);
    // updateComplete does not wait for the studio (the element sends the change without awaiting
    // it): wait for what only the change produces, the page in Italian, then read.
    const italian = await frame.probe(':root[lang="it"] [data-view="search"] button[type="submit"]');
    expect(italian!.text).to.equal(CATALOGUES.it!['search.submit']);
    expect(italian!.background).to.equal('rgb(185, 28, 28)');
    expect(italian!.pageBackground).to.equal('rgb(255, 255, 255)');
    const error = next<InvalidParameterError>(el, 'error');
    el.setAttribute('theme', 'sepia');
    expect((await error).detail.data?.field).to.equal('theme');
    expect(el.plugin).to.equal(plugin);
  });
});
