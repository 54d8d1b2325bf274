// A web-test-runner plugin: starts the real local service (the same code `npm start` runs) on
// 127.0.0.1 for the browser tests, and gives the test pages what a partner back end would:
// the service URL and tokens minted by `video-plugin/server` (the secret stays in Node).
import { existsSync } from 'node:fs';

export const TEST_PARTNERS = [
  { id: 'test-partner', secret: 'test-partner-secret-0123456789abcdef' },
  { id: 'other-partner', secret: 'other-partner-secret-0123456789abcdef' },
  // A partner that allows no test origin: its frames must refuse the test page.
  { id: 'strict-partner', secret: 'strict-partner-secret-0123456789abcd', allowedOrigins: ['https://shop.example'] },
  // A partner that signs its users in with tokens only: the studio's own sign-in is not offered.
  { id: 'jwt-partner', secret: 'jwt-partner-secret-0123456789abcdefgh', authModes: ['jwt'] },
];

/** `token`, signed again with `secret` as issued 600 s ago and expired 540 s ago. */
async function backdated(token, secret) {
  const { SignJWT, decodeJwt, decodeProtectedHeader } = await import('jose');
  const issuedAt = Math.floor(Date.now() / 1000) - 600;
  return new SignJWT({ ...decodeJwt(token), iat: issuedAt, exp: issuedAt + 60 })
    .setProtectedHeader(decodeProtectedHeader(token))
    .sign(Buffer.from(secret));
}

async function readBody(request) {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
}

/**
 * @param {{ realMediaSuites?: string[] }} options - test files (paths from the project root) whose
 *   pages get a service that makes real media as their `serviceURL` (test/support/plugin.ts reads it).
 */
export function testServicePlugin({ realMediaSuites = [] } = {}) {
  let service;
  let slowService;
  let realService;
  let shortSessionService;
  let tokens;
  return {
    name: 'video-plugin-test-service',
    async serverStart() {
      const dist = new URL('../../../dist/', import.meta.url);
      if (!existsSync(new URL('service/server.js', dist))) {
        throw new Error('dist/ is missing: run `npm run build` before the browser tests (npm test does).');
      }
      const { startService } = await import(new URL('service/server.js', dist).href);
      tokens = await import(new URL('server/index.js', dist).href);
      // Each service searches the test pages, which are served on loopback.
      service = await startService({
        port: 0,
        host: '127.0.0.1',
        allowLoopbackSources: true,
        jobMs: 150,
        heartbeatMs: 1000,
        // The browser suites test the SDK and the wire, not the media: instant SVG stand-ins.
        media: 'placeholder',
        partners: TEST_PARTNERS,
      });
      // Jobs that take seconds, for tests that need an action to stay PENDING or PROCESSING a while.
      slowService = await startService({
        port: 0,
        host: '127.0.0.1',
        allowLoopbackSources: true,
        jobMs: 6000,
        media: 'placeholder',
        partners: TEST_PARTNERS,
      });
      // Real renders and storyboards, as partners get them (scenes in the editor, MP4 previews):
      // the real-media suites' service, and in every engine the one of the tests that need scenes
      // (createPlugin({ real: true })). Idle, it costs nothing.
      realService = await startService({
        port: 0,
        host: '127.0.0.1',
        allowLoopbackSources: true,
        jobMs: 150,
        heartbeatMs: 1000,
        media: 'real',
        partners: TEST_PARTNERS,
      });
      // Sessions that end 3 s after their login, and searches that outlast one: for the tests of
      // what the frame does when the service ends its session on its own (closes its socket, 4401).
      shortSessionService = await startService({
        port: 0,
        host: '127.0.0.1',
        jobMs: 4000,
        heartbeatMs: 1000,
        sessionMaxAgeMs: 3000,
        allowLoopbackSources: true,
        media: 'placeholder',
        partners: TEST_PARTNERS,
      });
    },
    async serverStop() {
      await Promise.all([service?.close(), slowService?.close(), realService?.close(), shortSessionService?.close()]);
    },
    async serve(context) {
      if (context.path === '/__test/config') {
        return {
          body: JSON.stringify({
            serviceURL: service.url,
            slowServiceURL: slowService.url,
            realServiceURL: realService.url,
            shortSessionServiceURL: shortSessionService.url,
            realMediaSuites,
            partners: TEST_PARTNERS.map(({ id }) => id),
          }),
          type: 'application/json',
        };
      }
      if (context.path === '/__test/token' && context.method === 'POST') {
        const { kind, partnerID = 'test-partner', expired, ...rest } = await readBody(context.req);
        const partner = TEST_PARTNERS.find((p) => p.id === partnerID);
        const options = { partnerID, secret: partner.secret, ...rest };
        const mint = {
          create: tokens.createAccountToken,
          login: tokens.loginAccountToken,
          loginOrCreate: tokens.loginOrCreateAccountToken,
        }[kind];
        let token = await mint(options);
        // `expired`: the same token, valid in every other way, minted ten minutes ago for one
        // (beyond the service's clock skew): what a partner's cached or early token becomes.
        if (expired) token = await backdated(token, partner.secret);
        return { body: JSON.stringify({ token }), type: 'application/json' };
      }
      return undefined;
    },
  };
}
