// The library (ESM build in dist/) and the CDN bundle on a partner page with a strict
// Content-Security-Policy in a real header — no unsafe-inline, no unsafe-eval, Trusted Types
// required with no policy allowed, frame-src only the service — served by
// test/harness/wtr/csp-plugin.mjs. The page runs a journey (accounts, a topic search, the AI page, a
// Plugin and a <video-plugin>) and reports by postMessage. Zero violations are required on the
// page (securitypolicyviolation and report-uri) and in the service's own iframes (their CSP issues,
// read through the DevTools protocol); a sentinel violation proves each of the three listens. The
// one exception is the SDK's documented question about a silent frame (questionsAllowed, below).
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { HELLO_GRACE_MS, LOCAL_UNLOADED_MS } from '../../src/wire/host.js';
import { testConfig } from '../support/plugin.js';

interface PageMessage {
  cspPage: true;
  type: 'opened' | 'done' | 'failed';
  error?: string;
  channels?: string[];
  results?: Record<string, unknown>;
  violations?: string[];
  signs?: Signs[];
  clean?: string[];
  sentinel?: string[];
  sink?: string;
}

/** A frame's first load and first message (its hello), in ms after its src was set (csp-listen.js). */
interface Signs {
  url: string;
  load: number | null;
  hello: number | null;
}

/**
 * The violations of a strict page that the SDK did not explain. It may ask the service why a frame
 * is silent (`GET /api/diagnose`, which this page's connect-src refuses) once for each service frame
 * that had neither loaded nor said hello after LOCAL_UNLOADED_MS, or loaded and said no hello
 * within HELLO_GRACE_MS of it, as docs/plugin-api.md says: a busy machine's studio can be that slow.
 * A frame that said hello in time is never asked about. 5 ms of slack: the page reads its clock a
 * little after the SDK's timers start. Nothing else is explained.
 */
function unexplained(violations: string[], signs: Signs[], serviceURL: string): string[] {
  const question = `connect-src ${serviceURL}/api/diagnose?partnerID=`;
  const silent = signs.filter(({ url, load, hello }) => {
    if (!url.startsWith(serviceURL)) return false;
    const unloaded = Math.min(load ?? Infinity, hello ?? Infinity) >= LOCAL_UNLOADED_MS - 5;
    const noHelloAfterLoad = load !== null && (hello ?? Infinity) - load >= HELLO_GRACE_MS - 5;
    return unloaded || noHelloAfterLoad;
  });
  let allowed = silent.length;
  return violations.filter((violation) => !(violation.startsWith(question) && allowed-- > 0));
}

const frames: HTMLIFrameElement[] = [];
afterEach(() => {
  for (const iframe of frames.splice(0)) iframe.remove();
});

/** The next message of the CSP page (or its failure, as an error). */
function fromPage(type: PageMessage['type']): Promise<PageMessage> {
  return new Promise((resolve, reject) => {
    const listener = (event: MessageEvent) => {
      const data = event.data as PageMessage;
      if (event.origin !== location.origin || !data?.cspPage || (data.type !== type && data.type !== 'failed')) return;
      window.removeEventListener('message', listener);
      if (data.type === 'failed') reject(new Error(`the CSP page failed: ${data.error}`));
      else resolve(data);
    };
    window.addEventListener('message', listener);
  });
}

const frameIssues = (channel: string) =>
  executeServerCommand<string[], { channel: string }>('csp-frame-issues', { channel });

for (const variant of ['esm', 'cdn'] as const) {
  it(`the ${variant === 'esm' ? 'ESM build' : 'CDN bundle'} works under a strict CSP with Trusted Types, with no violation on the page or in the service frames`, async () => {
    const { serviceURL } = await testConfig();
    const id = crypto.randomUUID();
    const src = `/__csp/page.html?variant=${variant}&frame=${encodeURIComponent(serviceURL)}&id=${id}`;

    // The policy is a real response header, as strict as promised.
    const policy = (await fetch(src)).headers.get('content-security-policy')!;
    expect(policy).to.contain("script-src 'self';").and.contain(`frame-src ${serviceURL};`);
    expect(policy).to.contain("require-trusted-types-for 'script'").and.contain("trusted-types 'none'");
    expect(policy).to.not.match(/unsafe-(inline|eval)|\*/);

    const iframe = document.createElement('iframe');
    iframe.src = src;
    frames.push(iframe);
    const opened = fromPage('opened');
    document.body.append(iframe);
    const { channels, results, violations, signs } = await opened;
    expect(results).to.deep.equal({ lastName: 'Lovelace', search: 'COMPLETE', pluginOpen: true, elementOpen: true });
    expect(signs!.filter(({ url }) => url.startsWith(serviceURL))).to.have.length(2);
    expect(unexplained(violations!, signs!, serviceURL), JSON.stringify(signs)).to.deep.equal([]);
    const asked = violations!.length;

    // The service's own pages (their CSP is the service's) recorded no CSP issue either...
    expect(channels).to.have.length(2);
    for (const channel of channels!) expect(await frameIssues(channel), channel).to.deep.equal([]);
    // ...and the collector does see one when there is one.
    await executeServerCommand('csp-frame-provoke', { channel: channels![0]! });
    expect(await frameIssues(channels![0]!)).to.deep.equal(['connect-src http://localhost:9/csp-sentinel']);

    const done = fromPage('done');
    iframe.contentWindow!.postMessage('finish', location.origin);
    const { clean, sentinel, sink } = await done;
    expect(unexplained(clean!, signs!, serviceURL), 'no violation through cleanup').to.deep.equal([]);
    expect(clean, 'no question after the studio opened').to.have.length(asked);
    // The page's listener hears the two sentinel violations, and Trusted Types really blocks the sink.
    expect(sentinel).to.deep.equal([
      `connect-src ${serviceURL}/csp-sentinel`,
      'require-trusted-types-for trusted-types-sink',
    ]);
    expect(sink).to.equal('TypeError');
    // The report endpoint got exactly those two reports, and the questions: nothing else was ever reported.
    const reports = (await (await fetch(`/__csp/reports?id=${id}&count=${2 + asked}`)).json()) as Record<
      string,
      string
    >[];
    expect(reports.map((report) => report['violated-directive']).sort()).to.deep.equal([
      ...Array(asked + 1).fill('connect-src'),
      'require-trusted-types-for',
    ]);
  }).timeout(20000);
}

it('the classic CDN script with data-video-plugin markup alone (no script of the page) works under the same policy', async () => {
  const { serviceURL } = await testConfig();
  const id = crypto.randomUUID();
  const iframe = document.createElement('iframe');
  iframe.src = `/__csp/markup.html?frame=${encodeURIComponent(serviceURL)}&id=${id}`;
  iframe.style.cssText = 'width:800px;height:700px';
  frames.push(iframe);
  const loaded = new Promise((resolve) => iframe.addEventListener('load', resolve, { once: true }));
  document.body.append(iframe);
  await loaded;
  const win = iframe.contentWindow as Window & { cspViolations: string[]; cspFrames: Signs[] };
  const host = win.document.querySelector('[data-video-plugin]')!;
  const opened = new Promise((resolve) => host.addEventListener('pluginOpened', resolve, { once: true }));
  (host.querySelector('button') as HTMLButtonElement).click();
  await opened;
  const frame = host.querySelector('video-plugin')!.shadowRoot!.querySelector('iframe')!;
  expect(frame.src.startsWith(serviceURL)).to.equal(true);
  expect(win.cspFrames.filter(({ url }) => url.startsWith(serviceURL))).to.have.length(1);
  expect(unexplained(win.cspViolations, win.cspFrames, serviceURL), JSON.stringify(win.cspFrames)).to.deep.equal([]);
  const asked = win.cspViolations.length;
  const reports = (await (await fetch(`/__csp/reports?id=${id}&count=${asked}`)).json()) as unknown[];
  expect(reports).to.have.length(asked);
});
