// <video-plugin> against the real local service: its registration, its attributes and properties
// (→ the Plugin's options) and its box, docs/element-guide.md's "Attributes and properties" and
// "Size, style and placeholder". The other sections have their own suites: element-methods,
// element-events, element-preload, element-lifecycle. Each runs twice: on src/, and (group
// element-classic) on the classic CDN script loaded by a plain <script src>.
import { expect } from '@open-wc/testing';
import {
  ConnectionError,
  InvalidParameterError,
  Plugin,
  TAG_NAME,
  TimeoutError,
  VideoPluginElement,
  VideoPluginError,
  defineVideoPlugin,
} from '../support/element-api.js';
import { SERVICE_URLS } from '../../src/options.js';
import { VERSION } from '../../src/version.js';
import { PARTNER, element, signUp, nextDOMEvent, removeElements } from '../support/element-suite.js';
import { rejection, testConfig } from '../support/plugin.js';

afterEach(removeElements);

describe('<video-plugin>: registration', () => {
  it('is registered as video-plugin by video-plugin/element', () => {
    expect(TAG_NAME).to.equal('video-plugin');
    expect(customElements.get('video-plugin')).to.equal(VideoPluginElement);
    expect(document.createElement('video-plugin')).to.be.instanceOf(VideoPluginElement);
    expect(VideoPluginElement.version).to.equal(VERSION);
  });

  it('registering again is harmless and silent', () => {
    const warnings: unknown[] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args);
    try {
      expect(defineVideoPlugin()).to.equal(true);
      expect(defineVideoPlugin()).to.equal(true);
    } finally {
      console.warn = original;
    }
    expect(warnings).to.deep.equal([]);
  });
});

describe('<video-plugin>: attributes and properties', () => {
  it('maps partner-id, service-url and auth-mode to the Plugin options', async () => {
    const { serviceURL } = await testConfig();
    const el = await element({ 'auth-mode': 'uncontrolled' });
    expect(el.plugin).to.be.instanceOf(Plugin);
    expect(el.plugin!.partnerID).to.equal(PARTNER);
    expect(el.plugin!.serviceURL).to.equal(new URL(serviceURL).href.replace(/\/?$/, '/'));
    expect(el.plugin!.authMode).to.equal('uncontrolled');
    expect(await rejection(el.getAccountInfo())).to.have.property('code', 'account_methods_disabled');
  });

  it('maps environment to the hosted service when no service-url is given', async () => {
    const el = await element({ environment: 'demo', 'connect-timeout': '50' });
    el.removeAttribute('service-url');
    await el.updateComplete;
    expect(el.plugin!.serviceURL).to.equal(`${SERVICE_URLS.demo}/`);
    el.setAttribute('environment', 'prod');
    await el.updateComplete;
    expect(el.plugin!.serviceURL).to.equal(`${SERVICE_URLS.prod}/`);
  });

  it('maps debug to isDebug: the Plugin logs only when it is set', async () => {
    const lines: unknown[][] = [];
    const original = console.debug;
    console.debug = (...args: unknown[]) => lines.push(args);
    try {
      const quiet = await element();
      await quiet.getVideos();
      expect(lines).to.deep.equal([]);
      const loud = await element({ debug: '' });
      await loud.getVideos();
      expect(lines.some((line) => String(line[0]).startsWith('[video-plugin]'))).to.equal(true);
    } finally {
      console.debug = original;
    }
  });

  it('maps connect-timeout: a service that never answers fails the call after that limit', async () => {
    const el = await element({ 'service-url': `${location.origin}/no-service-here/`, 'connect-timeout': '200' });
    const error = await rejection(el.getVideos());
    expect(error).to.be.instanceOf(ConnectionError);
    expect(error.message).to.contain('within 200 ms');
  });

  it('maps call-timeout: the default limit of every call', async () => {
    const el = await element({
      'service-url': `${location.origin}/no-service-here/`,
      'connect-timeout': '9000',
      'call-timeout': '150',
    });
    const error = await rejection(el.getVideos());
    expect(error).to.be.instanceOf(TimeoutError);
    expect(error.message).to.contain('getVideos').and.contain('within 150 ms');
  });

  it('passes the editor property to the Plugin and validates it', async () => {
    const el = await element();
    const first = el.plugin;
    const errors: VideoPluginError[] = [];
    el.addEventListener('error', (event) => errors.push(event.detail));
    el.editor = { labels: { completeVideoConfirmation: { shouldShow: true, title: 'Publish?' } } };
    await el.updateComplete;
    expect(errors).to.deep.equal([]);
    expect(el.plugin).to.not.equal(first);
    el.editor = { labels: { completeVideoConfirmation: { title: '' } } };
    await el.updateComplete;
    expect(errors).to.have.length(1);
    expect(errors[0]!.data?.field).to.equal('editor.labels.completeVideoConfirmation.title');
  });

  it('reports invalid attribute values with an error event naming the attribute, never a throw', async () => {
    const cases: [string, string][] = [
      ['environment', 'staging'],
      ['auth-mode', 'oauth'],
      ['service-url', 'ftp://files.example'],
      ['connect-timeout', 'soon'],
      ['call-timeout', '-5'],
    ];
    for (const [attribute, value] of cases) {
      const el = await element({}, { connect: false });
      const failed = nextDOMEvent<VideoPluginError>(el, 'error');
      expect(() => el.setAttribute(attribute, value)).to.not.throw();
      document.body.append(el);
      const { detail } = await failed;
      expect(detail, attribute).to.be.instanceOf(InvalidParameterError);
      expect(detail.data?.field).to.equal(attribute);
      expect(detail.message).to.contain(`${attribute} attribute`);
      if (!/^\d|soon/.test(value)) expect(detail.message).to.contain(value);
      expect(el.plugin).to.equal(undefined);
    }
  });

  it('reports a missing partner-id, and rejects the calls that waited, with the same error', async () => {
    const el = await element({}, { connect: false });
    el.removeAttribute('partner-id');
    const waiting = el.getVideos();
    const failed = nextDOMEvent<VideoPluginError>(el, 'error');
    document.body.append(el);
    const { detail } = await failed;
    expect(detail.message).to.contain('partner-id attribute');
    expect(await rejection(waiting)).to.equal(detail);
    expect(await rejection(el.getVideos())).to.equal(detail);
  });

  it('reports invalid property values with an error event, never a throw', async () => {
    const el = await element();
    const errors: VideoPluginError[] = [];
    el.addEventListener('error', (event) => errors.push(event.detail));
    expect(() => {
      el.editor = 42 as never;
      el.callbacks = { pluginOpend: () => {} } as never;
      el.plugin = undefined;
    }).to.not.throw();
    await el.updateComplete;
    expect(errors.map((error) => error.data?.field).sort()).to.deep.equal(['callbacks', 'editor', 'plugin']);
    expect(errors.find((error) => error.data?.field === 'callbacks')!.message).to.contain('pluginOpend');
  });

  it('keeps its current session when an attribute becomes invalid', async () => {
    const el = await element();
    const accountID = await signUp(el);
    const plugin = el.plugin;
    const failed = nextDOMEvent(el, 'error');
    el.setAttribute('auth-mode', 'sometimes');
    await failed;
    expect(el.plugin).to.equal(plugin);
    expect((await el.getAccountInfo()).id).to.equal(accountID);
  });

  it('every public getter has a setter', () => {
    let checked = 0;
    // Up to Lit's ReactiveElement (found by position: minified builds rename classes).
    const reactiveElement = (Object.getPrototypeOf(VideoPluginElement) as { prototype: object }).prototype;
    for (
      let proto = VideoPluginElement.prototype;
      proto !== HTMLElement.prototype && proto !== reactiveElement;
      proto = Object.getPrototypeOf(proto)
    ) {
      for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(proto))) {
        if (!descriptor.get) continue;
        expect(descriptor.set, name).to.be.a('function');
        checked++;
      }
    }
    // The walk must have seen the element's own properties (partnerID, serviceURL, authMode, ...).
    expect(checked).to.be.greaterThan(5);
  });
});

describe('<video-plugin>: layout and accessibility', () => {
  it('holds the iframe in its shadow root, filling its box, styleable through ::part(frame)', async () => {
    const style = document.createElement('style');
    style.textContent = 'video-plugin.styled::part(frame) { border-radius: 12px; }';
    document.head.append(style);
    try {
      const el = await element();
      el.classList.add('styled');
      expect(el.shadowRoot!.querySelector('iframe')).to.equal(el.plugin!.iframe);
      expect(el.plugin!.iframe.getAttribute('part')).to.equal('frame');
      expect(getComputedStyle(el.plugin!.iframe).borderTopLeftRadius).to.equal('12px');
      expect(el.getBoundingClientRect().height).to.equal(600);
      el.style.height = '320px';
      await signUp(el);
      await el.openPlugin();
      const frame = el.plugin!.iframe.getBoundingClientRect();
      const box = el.getBoundingClientRect();
      expect([frame.width, frame.height]).to.deep.equal([box.width, 320]);
    } finally {
      style.remove();
    }
  });

  it('shows its slotted content while the UI is closed', async () => {
    const el = await element({}, { connect: false });
    el.innerHTML = '<button type="button">Create a video</button>';
    document.body.append(el);
    await el.updateComplete;
    const button = el.querySelector('button')!;
    const box = button.getBoundingClientRect();
    expect(box.height).to.be.above(0);
    // Nothing of the element covers the placeholder: a click in its middle reaches it.
    expect(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2)).to.equal(button);
  });

  it('passes an accessibility check, closed and open', async () => {
    const el = await element();
    await expect(el).to.be.accessible();
    await signUp(el);
    await el.openPlugin();
    await expect(el).to.be.accessible();
    expect(el.plugin!.iframe.title).to.not.equal('');
  });
});
