// The partner page itself inside a cross-site iframe (a CMS preview, an admin panel that frames
// apps): this test page on localhost frames the partner page on 127.0.0.1, which embeds the
// service frame. Everything must connect and work as on a top-level page, in every engine (storage
// rules decide nothing here: no signed-in studio reloads; test/harness/browsers.mjs, STORAGE_SUITES).
import { expect } from '@open-wc/testing';

interface FramedMessage {
  framedPartner: true;
  type: 'ready' | 'done' | 'failed';
  results?: Record<string, unknown>;
  error?: string;
}

const frames: HTMLIFrameElement[] = [];
afterEach(() => {
  for (const iframe of frames.splice(0)) iframe.remove();
});

/** The partner page's origin: the same dev server under another site. */
const partnerOrigin = () => `http://127.0.0.1:${location.port}`;

/** Waits for the next message of the framed partner page. */
function nextMessage(frame: HTMLIFrameElement): Promise<FramedMessage> {
  return new Promise((resolve) => {
    const listen = (event: MessageEvent): void => {
      const data = event.data as FramedMessage | undefined;
      if (event.source !== frame.contentWindow || event.origin !== partnerOrigin() || !data?.framedPartner) return;
      window.removeEventListener('message', listen);
      resolve(data);
    };
    window.addEventListener('message', listen);
  });
}

/** Frames the partner page cross-site, runs its journey and resolves to its results. */
async function runFramed(variant: 'esm' | 'cdn'): Promise<Record<string, unknown>> {
  const frame = document.createElement('iframe');
  frame.title = 'Partner app';
  frame.style.cssText = 'width:700px;height:900px;border:0';
  const url = new URL('/test/fixtures/framed-partner.html', partnerOrigin());
  url.searchParams.set('variant', variant);
  url.searchParams.set('framer', location.origin);
  frame.src = url.href;
  frames.push(frame);
  const ready = nextMessage(frame);
  document.body.append(frame);
  expect((await ready).type).to.equal('ready');
  const done = nextMessage(frame);
  frame.contentWindow!.postMessage('run', partnerOrigin());
  const message = await done;
  expect(message.error).to.equal(undefined);
  return message.results!;
}

describe('a partner page framed by another site', function () {
  this.timeout(30000);

  it('the Plugin connects, creates an account, searches, opens the AI page and cleans up', async () => {
    expect(new URL(partnerOrigin()).hostname).to.not.equal(location.hostname);
    expect(await runFramed('esm')).to.deep.equal({
      sameAccount: true,
      videos: 0,
      search: 'COMPLETE',
      opened: true,
      isOpen: true,
      height: 400,
      destroyed: true,
      iframes: 0,
    });
  });

  it('<video-plugin> from the CDN bundle connects, creates an account and opens the AI page', async () => {
    expect(await runFramed('cdn')).to.deep.equal({ sameAccount: true, opened: true, isOpen: true, height: 400 });
  });
});
