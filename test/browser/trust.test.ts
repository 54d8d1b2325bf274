// What the page's markup may not decide: the service a <video-plugin> written in markup (by a CMS
// author, say) connects to. Real element, real service.
import { expect } from '@open-wc/testing';
import { InvalidParameterError, VideoPluginError, type VideoPluginElement } from '../support/element-api.js';
import { cleanupPlugins, testConfig } from '../support/plugin.js';

/** A host no test resolves: the studio cannot load from it, which is all these tests need. */
const ELSEWHERE = 'https://service.example';
const META = 'video-plugin-service-url';

const made: Element[] = [];

afterEach(async () => {
  await cleanupPlugins();
  for (const node of made.splice(0)) node.remove();
});

/**
 * A <video-plugin> for the test partner, its service set by `set`, in the document, and its first
 * `error` event (listened to before it is connected: a refused configuration reports at once).
 */
async function element(
  set: (el: VideoPluginElement) => void,
): Promise<{ el: VideoPluginElement; failed: Promise<VideoPluginError> }> {
  const el = document.createElement('video-plugin');
  el.setAttribute('partner-id', 'test-partner');
  el.setAttribute('connect-timeout', '500');
  set(el);
  const failed = new Promise<VideoPluginError>((resolve) =>
    el.addEventListener('error', (event) => resolve((event as CustomEvent<VideoPluginError>).detail), { once: true }),
  );
  made.push(el);
  document.body.append(el);
  await el.updateComplete;
  return { el, failed };
}

/** A `<meta name="video-plugin-service-url">` with `content`, in `parent`. */
function meta(parent: Element, content: string): void {
  const node = document.createElement('meta');
  node.name = META;
  node.content = content;
  made.push(node);
  parent.append(node);
}

const frameOf = (el: VideoPluginElement) => el.shadowRoot!.querySelector('iframe');

describe('service-url from markup', () => {
  it('names a service the page did not allow: an error naming the attribute and the fix, no frame', async () => {
    const { el, failed } = await element((el) => el.setAttribute('service-url', `${ELSEWHERE}/studio/`));
    const error = await failed;
    expect(error).to.be.instanceOf(InvalidParameterError);
    expect(error.data?.field).to.equal('service-url');
    expect(error.message)
      .to.contain('the service-url attribute is not allowed in markup')
      .and.contain(`<meta name="${META}"`)
      .and.contain('serviceURL property');
    expect(el.plugin).to.equal(undefined);
    expect(frameOf(el)).to.equal(null);
    const origins = performance.getEntriesByType('resource').map((entry) => new URL(entry.name).origin);
    expect(origins).to.not.include(ELSEWHERE);
  });

  it("is obeyed for a URL the page's <head> lists as written, and not for a <meta> in the body", async () => {
    meta(document.body, ELSEWHERE);
    const refused = await element((el) => el.setAttribute('service-url', ELSEWHERE));
    expect((await refused.failed).data?.field).to.equal('service-url');
    expect(frameOf(refused.el)).to.equal(null);

    meta(document.head, 'https://other.example');
    meta(document.head, `${ELSEWHERE}/`);
    const other = await element((el) => el.setAttribute('service-url', ELSEWHERE));
    expect((await other.failed).data?.field, 'listed as written, not by origin').to.equal('service-url');
    meta(document.head, ELSEWHERE);
    const allowed = await element((el) => el.setAttribute('service-url', ELSEWHERE));
    const frame = frameOf(allowed.el);
    expect(frame, 'the studio is built').to.not.equal(null);
    expect(new URL(frame!.src).origin).to.equal(ELSEWHERE);
    // It connects there (and cannot: nothing answers), which is not the markup's refusal.
    expect((await allowed.failed).data?.field).to.not.equal('service-url');
  });

  it('is refused however the URL is spelled to reach another host', async () => {
    for (const url of [
      'http:\\\\service.example/',
      'http:service.example',
      'HTTPS://service.example',
      'http://127.0.0.1:80@service.example/',
    ]) {
      const { el, failed } = await element((el) => el.setAttribute('service-url', url));
      expect((await failed).data?.field, url).to.equal('service-url');
      expect(frameOf(el), url).to.equal(null);
    }
  });

  it('is obeyed for a loopback service (a developer’s own): localhost, 127.0.0.1', async () => {
    const { serviceURL } = await testConfig();
    for (const url of [serviceURL, serviceURL.replace('127.0.0.1', 'localhost')]) {
      // This one connects for real: the default connect timeout, not the 500 ms that is enough to
      // refuse (a busy machine takes longer than that to load the studio).
      const { el } = await element((el) => {
        el.setAttribute('service-url', url);
        el.removeAttribute('connect-timeout');
      });
      expect(await el.getVideos().then(() => 'connected'), url).to.equal('connected');
    }
  });

  it("set as the serviceURL property from the site's script, it is the site's choice", async () => {
    const { el, failed } = await element((el) => (el.serviceURL = ELSEWHERE));
    const frame = frameOf(el);
    expect(frame, 'the studio is built').to.not.equal(null);
    expect(new URL(frame!.src).origin).to.equal(ELSEWHERE);
    expect((await failed).data?.field).to.not.equal('service-url');
  });
});
