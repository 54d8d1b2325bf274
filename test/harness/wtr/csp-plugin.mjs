// A web-test-runner plugin for the strict-CSP tests (test/browser/csp.test.ts):
// - serves test/fixtures/csp.html as /__csp/page.html with a real Content-Security-Policy header
//   (no unsafe-inline, no unsafe-eval, Trusted Types enforced, frame-src only the service);
// - collects the page's CSP reports (report-uri) and hands them to the test;
// - reads the CSP issues of the service's cross-origin iframe through the DevTools protocol (the
//   Audits domain replays every issue the frame recorded), and can provoke one as a sentinel.
import { readFile } from 'node:fs/promises';

const PAGE = new URL('../../fixtures/csp.html', import.meta.url);

/** The policy of the test page: only what the library needs, given the service origin. */
export function strictCsp(serviceOrigin, reportURI) {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `frame-src ${serviceOrigin}`,
    "connect-src 'self'",
    "style-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
    `report-uri ${reportURI}`,
  ].join('; ');
}

async function readBody(request) {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** The DevTools target of the service iframe whose URL carries `channel`. */
function frameTarget(session, channel) {
  const page = session.browser.getPage(session.id);
  const target = page
    .browser()
    .targets()
    .find((t) => t.url().includes(channel));
  if (!target) throw new Error(`no target for the frame with channel ${channel}`);
  return target;
}

/** Every CSP issue the frame has recorded since it loaded, as "directive blocked-url" lines. */
async function cspIssues(target) {
  const cdp = await target.createCDPSession();
  const issues = [];
  cdp.on('Audits.issueAdded', ({ issue }) => issues.push(issue));
  try {
    await cdp.send('Audits.enable');
    // A round trip after enable: the replayed issues arrive before its answer.
    await cdp.send('Runtime.evaluate', { expression: '0' });
  } finally {
    await cdp.detach();
  }
  return issues
    .filter((issue) => issue.code === 'ContentSecurityPolicyIssue')
    .map(({ details }) => {
      const csp = details.contentSecurityPolicyIssueDetails;
      return `${csp.violatedDirective} ${csp.blockedURL ?? csp.contentSecurityPolicyViolationType}`;
    });
}

export function cspPlugin() {
  /** Reports received, by the page's run id, and who waits for them. */
  const reports = new Map();
  const waiters = new Map();
  const received = (id) => reports.get(id) ?? [];
  const notify = (id) => {
    for (const waiter of waiters.get(id) ?? []) waiter();
  };
  return {
    name: 'video-plugin-csp',
    async serve(context) {
      if (context.path === '/__csp/page.html') {
        const frame = context.URL.searchParams.get('frame') ?? '';
        const id = context.URL.searchParams.get('id') ?? '';
        if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(frame) || !/^[\w-]+$/.test(id)) {
          return { body: 'frame must be the service origin, id a word', type: 'text/plain' };
        }
        return {
          body: await readFile(PAGE, 'utf8'),
          type: 'text/html',
          headers: {
            'content-security-policy': strictCsp(frame, `/__csp/report?id=${id}`),
            'cache-control': 'no-store',
          },
        };
      }
      if (context.path === '/__csp/markup.html') {
        // The classic CDN script and data-video-plugin markup, no script of the page's own.
        const frame = context.URL.searchParams.get('frame') ?? '';
        const id = context.URL.searchParams.get('id') ?? '';
        if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(frame) || !/^[\w-]+$/.test(id)) {
          return { body: 'frame must be the service origin, id a word', type: 'text/plain' };
        }
        return {
          body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Markup only</title>
<script src="/test/fixtures/csp-listen.js"></script>
<script src="/dist/cdn/video-plugin.min.js" data-service-url="${frame}" defer></script></head>
<body><div data-video-plugin data-partner-id="test-partner" data-auth-mode="uncontrolled" data-open-on="click"></div></body></html>`,
          type: 'text/html',
          headers: {
            'content-security-policy': strictCsp(frame, `/__csp/report?id=${id}`),
            'cache-control': 'no-store',
          },
        };
      }
      if (context.path === '/__csp/report' && context.method === 'POST') {
        const id = context.URL.searchParams.get('id') ?? '';
        const body = JSON.parse((await readBody(context.req)) || '{}');
        reports.set(id, [...received(id), body['csp-report'] ?? body]);
        notify(id);
        return { body: '', type: 'text/plain' };
      }
      if (context.path === '/__csp/reports') {
        // Waits (at most 5 s) until `count` reports arrived: reports are sent after the violation.
        const id = context.URL.searchParams.get('id') ?? '';
        const count = Number(context.URL.searchParams.get('count') ?? 0);
        if (received(id).length < count) {
          await new Promise((resolve) => {
            const timer = setTimeout(resolve, 5000);
            const done = () => received(id).length >= count && (clearTimeout(timer), resolve());
            waiters.set(id, [...(waiters.get(id) ?? []), done]);
          });
          waiters.delete(id);
        }
        return { body: JSON.stringify(received(id)), type: 'application/json' };
      }
      return undefined;
    },
    async executeCommand({ command, payload, session }) {
      if (command === 'csp-frame-issues') return cspIssues(frameTarget(session, payload.channel));
      if (command === 'csp-frame-provoke') {
        // A request the service page's connect-src forbids: one CSP issue in that frame.
        const cdp = await frameTarget(session, payload.channel).createCDPSession();
        try {
          await cdp.send('Runtime.evaluate', {
            expression: `fetch('http://localhost:9/csp-sentinel').catch(() => 'blocked')`,
            awaitPromise: true,
          });
        } finally {
          await cdp.detach();
        }
        return true;
      }
      return undefined;
    },
  };
}
