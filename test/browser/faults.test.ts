// Faults: the service unreachable, slow, answering 500s, down, restarted mid-generation, and the
// configuration faults a partner meets first. Every promise settles with the documented error,
// subscriptions resume after recovery with each status once, in order, and the page stays usable.
// The service is the real one, run as its own process with --data behind a proxy that plays the
// network (test/support/faults.ts, test/harness/wtr/fault-plugin.mjs). The iframe's own faults
// (reloaded, navigated away, removed) are in frame-faults.test.ts, which the storage-rule
// configurations run too.
import { expect } from '@open-wc/testing';
import { ConnectionError, NotFoundError, OriginNotAllowedError, ServiceError, TimeoutError } from '../../src/errors.js';
import type { Plugin } from '../../src/plugin.js';
import {
  accountID,
  counts,
  fault,
  faults,
  generation,
  observer,
  retried,
  setMode,
  subject,
  topicId,
  useFaultService,
} from '../support/faults.js';
import {
  BUSINESS_URL,
  createPlugin,
  inFrame,
  nextEvent,
  rejection,
  statusLog,
  testConfig,
  token,
  until,
} from '../support/plugin.js';

describe('faults', function () {
  this.timeout(15000);
  useFaultService();

  describe('the service', () => {
    it('unreachable: calls reject with a ConnectionError naming the URL and the page origin, opens time out, cleanup resolves', async () => {
      const { closedURL, proxyURL } = await faults();
      const createToken = await token('create');
      // Past the connect limit, before the frame's load is explained (nothing listens: named below).
      const plugin = await createPlugin({ serviceURL: closedURL, connectTimeout: 150 });
      const statuses: unknown[] = [];
      plugin.subscribeToVideoGenerationStatusUpdates('gen_unreachable', (payload) => statuses.push(payload));
      const openFailed = nextEvent(plugin, 'pluginOpenFailed');
      const [read, write, open] = await Promise.all([
        rejection(plugin.getVideos()),
        rejection(plugin.createAccount(createToken)),
        rejection(plugin.openPlugin({ timeout: 50 })),
      ]);
      for (const error of [read, write]) {
        expect(error).to.be.instanceOf(ConnectionError);
        expect(error.code).to.equal('connection_failed');
        expect(error.data).to.deep.include({ pageOrigin: location.origin, retryable: true });
        expect(error.message).to.contain(closedURL).and.contain(location.origin).and.contain('150 ms');
      }
      expect(open).to.be.instanceOf(TimeoutError);
      expect(open.message).to.contain('openPlugin').and.contain('50 ms').and.contain('not connected');
      expect(await openFailed).to.equal(open);
      expect(plugin.isOpen).to.equal(false);
      expect(statuses).to.deep.equal([]);
      await plugin.cleanup();
      expect(plugin.iframe.isConnected).to.equal(false);
      // The page goes on: another Plugin on a reachable service works.
      const other = await createPlugin({ serviceURL: proxyURL });
      expect(await other.getVideos()).to.deep.equal([]);
    });

    it('down when the Plugin starts: the ConnectionError is retryable, and the retry loads the page again and connects', async () => {
      await setMode({ mode: 'down' });
      const plugin = await createPlugin({ serviceURL: (await faults()).proxyURL, connectTimeout: 500 });
      const error = await rejection(plugin.getVideos());
      expect(error).to.be.instanceOf(ConnectionError);
      expect(error.data).to.deep.include({ retryable: true });
      await setMode({ mode: 'ok' });
      // Up to 20 tries of 500 ms: this machine's Chromium 156 took longer than 5 to load the page
      // again in three full runs of 2026-11-28 (and passed alone every time).
      expect(await retried(() => plugin.getVideos(), 20)).to.deep.equal([]);
      expect((await plugin.loginAccount(await token('login', { accountID }))).id).to.equal(accountID);
    });

    it('slow: a call and an open exceed their limits with a TimeoutError, late answers change nothing, and it works again once fast', async () => {
      const plugin = await subject({ callTimeout: 400 });
      let opened = 0;
      plugin.on('pluginOpened', () => opened++);
      await setMode({ mode: 'slow', delayMs: 1500 });
      const read = await rejection(plugin.getVideos());
      expect(read).to.be.instanceOf(TimeoutError);
      expect(read.code).to.equal('timeout');
      expect(read.data).to.deep.equal({ method: 'getVideos', timeout: 400 });
      const openFailed = nextEvent(plugin, 'pluginOpenFailed');
      const open = await rejection(plugin.openPlugin({ topicId, timeout: 300 }));
      expect(open).to.be.instanceOf(TimeoutError);
      expect(open.message).to.contain('openPlugin').and.contain('300 ms');
      expect(await openFailed).to.equal(open);
      expect(plugin.isOpen).to.equal(false);
      // Sent after the timed-out open and answered after it: its answer is the sentinel.
      await plugin.openPlugin({ topicId, timeout: 5000 });
      expect(opened).to.equal(1);
      await setMode({ mode: 'ok' });
      expect(await plugin.getVideos()).to.be.an('array');
    });

    it('slow to answer a re-read: a status never goes back or repeats', async () => {
      const plugin = await subject();
      // The subscription's first read of the generation comes back after the socket said PROCESSING.
      await setMode({ mode: 'slow', delayMs: 1200, path: '/api/generations/' });
      const { requestId } = await plugin.startVideoGeneration(generation());
      const log = statusLog((cb) => plugin.subscribeToVideoGenerationStatusUpdates(requestId, cb));
      await log.until('COMPLETE');
      // The socket may push PENDING first (the generation's progress moves while it waits); the
      // slow read's PENDING, arriving after PROCESSING, is never delivered, nor any older progress.
      expect([
        ['PROCESSING', 'COMPLETE'],
        ['PENDING', 'PROCESSING', 'COMPLETE'],
      ]).to.deep.include(log.statuses);
      const fractions = log.payloads.map(({ progress }) => progress!.fraction);
      expect(fractions).to.deep.equal([...fractions].sort((a, b) => a - b));
    });

    it("slow to answer the studio's read: the studio shows the newest status, never the late read's", async () => {
      const plugin = await subject();
      // The studio's reads of the topic come back 1.5 s late: the socket says PROCESSING, then
      // COMPLETE, before the prompt view's first read (served while PROCESSING) arrives.
      await setMode({ mode: 'slow', delayMs: 1500, path: '/api/topics/' });
      const opened = nextEvent(plugin, 'pluginOpened');
      await plugin.openPlugin({ businessURL: BUSINESS_URL });
      await opened;
      const frame = inFrame(plugin);
      await frame.text('[data-view="prompt"] h2[data-topic-status="COMPLETE"]');
      await until('the late reads to be answered', async () => (await counts()).held === 0, 10000);
      // A round trip through the page after those answers: the page has read them by now.
      await plugin.getVideos();
      expect(await frame.text('[data-view="prompt"] h2[data-topic-status="COMPLETE"]', 2000)).to.equal('Sunny Bakery');
    });

    it("a subscription's first read refused (a gateway's 500): the page reads again, and the status comes", async () => {
      const plugin = await subject();
      const before = (await counts()).refused;
      await setMode({ mode: '500', path: '/api/topics/' });
      // The topic is COMPLETE: no change will come on the socket, the read is the only way.
      const log = statusLog((cb) => plugin.subscribeToTopicSearchStatusUpdates(topicId, cb));
      await until('the read to be refused', async () => (await counts()).refused > before, 10000);
      await setMode({ mode: 'ok' });
      await log.until('COMPLETE');
      expect(log.statuses).to.deep.equal(['COMPLETE']);
    });

    const outages = [
      { mode: 'down', what: 'the network to the service drops', Class: ConnectionError, code: 'connection_failed' },
      { mode: '500', what: 'the service answers 500', Class: ServiceError, code: 'internal_error' },
    ] as const;
    for (const { mode, what, Class, code } of outages) {
      it(`${what}: calls reject with ${Class.name} ${code}; once back, the status socket replays every status missed, once`, async () => {
        const plugin = await subject();
        const topicLog = statusLog((cb) => plugin.subscribeToTopicSearchStatusUpdates(topicId, cb));
        await topicLog.until('COMPLETE'); // the page's status socket is open
        await setMode({ mode });
        for (const call of [() => plugin.getVideos(), () => plugin.startVideoGeneration(generation())]) {
          const error = await rejection(call());
          expect(error).to.be.instanceOf(Class);
          expect(error.code).to.equal(code);
          if (mode === '500') expect(error.message).to.contain('500');
          else expect(error.data).to.deep.include({ retryable: true });
        }
        // Meanwhile a whole generation runs, started and followed by another page.
        const other = await observer();
        const started = await other.startVideoGeneration(generation());
        const log = statusLog((cb) => plugin.subscribeToVideoGenerationStatusUpdates(started.requestId, cb));
        await statusLog((cb) => other.subscribeToVideoGenerationStatusUpdates(started.requestId, cb)).until('COMPLETE');
        expect(log.statuses).to.deep.equal([]);
        await setMode({ mode: 'ok' });
        await log.until('COMPLETE');
        // The page re-reads what it watches after the replay; a call sent now is answered after that.
        expect((await plugin.getVideos()).map((video) => video.id)).to.include(started.videoId);
        expect(log.statuses).to.deep.equal(['PENDING', 'PROCESSING', 'COMPLETE']);
        expect(topicLog.statuses).to.deep.equal(['COMPLETE']);
      });
    }

    it('the status socket alone is cut mid-generation: it reconnects with its cursor, no status is lost or repeated', async () => {
      const plugin = await subject();
      const { requestId } = await plugin.startVideoGeneration(generation());
      const log = statusLog((cb) => plugin.subscribeToVideoGenerationStatusUpdates(requestId, cb));
      await log.until('PROCESSING');
      const before = [...log.statuses];
      await fault('cut');
      await log.until('COMPLETE');
      expect(log.statuses).to.deep.equal([...before, 'COMPLETE']);
    });

    it('restarted mid-generation with --data: calls meanwhile reject with a ConnectionError, statuses go on with none lost or repeated', async () => {
      const plugin = await subject();
      const { requestId, videoId } = await plugin.startVideoGeneration(generation());
      const log = statusLog((cb) => plugin.subscribeToVideoGenerationStatusUpdates(requestId, cb));
      await log.until('PROCESSING');
      const before = [...log.statuses];
      await fault('stop');
      const error = await rejection(plugin.getVideos());
      expect(error).to.be.instanceOf(ConnectionError);
      expect(error.data).to.deep.include({ retryable: true });
      expect(error.message).to.contain('could not be reached');
      // The page cannot reconnect until the generation is over: its cursor, from the last run, is
      // unknown to the new one, so only a re-read can bring COMPLETE.
      await setMode({ mode: '500' });
      await fault('start');
      const other = await observer();
      await statusLog((cb) => other.subscribeToVideoGenerationStatusUpdates(requestId, cb)).until('COMPLETE');
      expect(log.statuses).to.deep.equal(before);
      await setMode({ mode: 'ok' });
      await log.until('COMPLETE');
      expect(log.statuses).to.deep.equal([...before, 'COMPLETE']);
      expect((await plugin.getAccountInfo()).id).to.equal(accountID);
      expect((await plugin.getVideoData(videoId))?.thumbnailURL).to.be.a('string');
    });
  });

  describe('a restart that loses the sessions (no --data, or a new data file)', () => {
    afterEach(() => fault('restart', { data: 'original' }));

    it('while the frame stays loaded: detected as a lost session, getLoginToken asked once, sessionLost, session_lost', async () => {
      const asked: string[] = [];
      const plugin = await subject({
        getLoginToken: (id) => {
          asked.push(id);
          return token('login', { accountID: id });
        },
      });
      expect((await plugin.getAccountInfo()).id).to.equal(accountID);
      const lost = nextEvent(plugin, 'sessionLost');
      await fault('restart', { data: 'fresh' });
      // Not silently logged out (getVideos would answer [] for nobody): the call rejects.
      const error = await rejection(plugin.getVideos());
      expect(error.code).to.equal('session_lost');
      expect(error.message).to.contain(`session of account ${accountID} in the service`);
      // The new service knows no such account, so the login token cannot bring it back.
      expect(error.message).to.contain('getLoginToken did not restore it');
      const payload = await lost;
      expect(payload.accountID).to.equal(accountID);
      expect(payload.error.code).to.equal('session_lost');
      expect((await rejection(plugin.getAccountInfo())).code).to.equal('session_lost');
      expect(asked).to.deep.equal([accountID]);
    });

    it('sessions ended, accounts kept: getLoginToken restores the session and the call goes through, no sessionLost', async () => {
      const asked: string[] = [];
      const plugin = await subject({
        getLoginToken: (id) => {
          asked.push(id);
          return token('login', { accountID: id });
        },
      });
      const lostEvents: unknown[] = [];
      plugin.on('sessionLost', (payload) => lostEvents.push(payload));
      const { videoId } = await plugin.startVideoGeneration(generation());
      await fault('restart', { data: 'no-sessions' });
      // The call meets not_authenticated, the session is restored, and the call is sent again.
      const videos = await plugin.getVideos();
      expect(videos.map((video) => video.id)).to.include(videoId);
      expect(asked).to.deep.equal([accountID]);
      expect((await plugin.getAccountInfo()).id).to.equal(accountID);
      expect(lostEvents).to.deep.equal([]);
    });

    it('without getLoginToken: sessionLost says what to do, and a new login ends the lost state', async () => {
      const plugin = await subject({ getLoginToken: undefined });
      const lost = nextEvent(plugin, 'sessionLost');
      await fault('restart', { data: 'fresh' });
      const error = await rejection(plugin.getAccountInfo());
      expect(error.code).to.equal('session_lost');
      expect(error.message).to.contain('in the service: it no longer knows it').and.contain('getLoginToken');
      expect((await lost).accountID).to.equal(accountID);
      const newcomer = await plugin.createAccount(await token('create'));
      expect((await plugin.getAccountInfo()).id).to.equal(newcomer);
    });
  });

  describe('a configuration fault or a silent service is named within 1 s, by its own error, printed once', () => {
    /** What the SDK printed with console.error meanwhile (in the page that runs the Plugin). */
    let printed: unknown[][];
    let restore: () => void;
    const spyOn = (target: Console) => {
      const original = target.error;
      printed = [];
      target.error = (...args: unknown[]) => printed.push(args);
      restore = () => (target.error = original);
    };
    beforeEach(() => spyOn(console));
    afterEach(() => restore());

    /**
     * A Plugin of `partnerID` at `serviceURL` (default connect limit: 15 s), its first error, which
     * must come within `limit` ms.
     */
    async function named(partnerID: string, serviceURL: string, limit = 2000) {
      await testConfig();
      const started = performance.now();
      const plugin = await createPlugin({ partnerID, serviceURL });
      const error = await rejection(plugin.ready);
      const ms = performance.now() - started;
      console.log(`${error.name} after ${Math.round(ms)} ms`);
      // The promise is 1 s (100–700 ms measured here on a machine shared with other test runs);
      // 2 s keeps a loaded machine from failing it, far below the 15 s connect limit it replaces.
      expect(ms).to.be.lessThan(limit);
      // A configuration fault is one error for everything: the next call rejects with the very same
      // one. A retryable one lets the next call load the frame again: the same words once more.
      const again = await rejection(plugin.getVideos());
      if (error.data?.retryable) expect(again.message).to.equal(error.message);
      else expect(again).to.equal(error);
      // Printed once: for the studio that could not start, not for each call.
      expect(printed).to.deep.equal([[`[video-plugin] ${error.name} (${error.code}): ${error.message}`]]);
      return error;
    }

    let refusingService: Promise<{ serviceURL: string; partnerID: string; allowedOrigin: string }> | undefined;
    const refusing = () => (refusingService ??= fetch('/__faults/refusing').then((r) => r.json()));

    it("a refused origin (the service's frame-ancestors stop the frame): OriginNotAllowedError naming this page's origin and the fix", async () => {
      const { serviceURL, partnerID } = await refusing();
      const error = await named(partnerID, serviceURL);
      expect(error).to.be.instanceOf(OriginNotAllowedError);
      expect(error.code).to.equal('origin_not_allowed');
      expect(error.message)
        .to.contain(`origin ${location.origin} is not allowed for partner ${partnerID}`)
        .and.contain(`--allowed-origin ${location.origin}`);
      expect(error.data).to.deep.equal({ origin: location.origin, partnerID });
    });

    it('an unknown partner whose frame is stopped too: NotFoundError naming the partners the local service knows', async () => {
      const { serviceURL } = await refusing();
      const error = await named('mkt-plattform', serviceURL);
      expect(error).to.be.instanceOf(NotFoundError);
      expect(error.code).to.equal('partner_not_found');
      expect(error.message)
        .to.contain('no partner "mkt-plattform" (it knows "mkt-platform")')
        .and.contain('partner-id')
        .and.contain('iss');
      expect(error.data).to.deep.include({ partnerID: 'mkt-plattform', partners: ['mkt-platform'] });
    });

    it('an unknown partner whose frame loads (it refuses in the handshake): the same NotFoundError', async () => {
      const error = await named('no-such-partner', (await faults()).proxyURL);
      expect(error).to.be.instanceOf(NotFoundError);
      expect(error.code).to.equal('partner_not_found');
      expect(error.message).to.contain('no partner "no-such-partner" (it knows "test-partner")');
    });

    it('nothing listens at the service URL: a retryable ConnectionError that says so, not a refusal', async () => {
      const { closedURL } = await faults();
      // Firefox and WebKit fire no load for a frame whose server does not answer: a service on this
      // machine is asked after 600 ms all the same (one across the network after 3 s).
      const error = await named('test-partner', closedURL);
      expect(error).to.be.instanceOf(ConnectionError);
      expect(error.code).to.equal('connection_failed');
      expect(error.message).to.equal(`Nothing answers at ${closedURL}: is the service running there?`);
      expect(error.data).to.deep.include({ retryable: true });
    });

    /** A partner page served with the policy `csp` (test/harness/wtr/diagnose-plugin.mjs), framed here. */
    type PartnerPage = Window & {
      Plugin: new (partnerID: string, options: object) => Plugin;
      violations: string[];
      console: Console;
    };

    /**
     * Runs `test` with a partner page whose CSP is `csp`, once it has loaded; what the SDK prints is
     * spied on in that page's console. The frame is removed afterwards, whatever happened.
     */
    async function inPartnerPage(csp: string, test: (page: PartnerPage) => Promise<void>) {
      const frame = document.createElement('iframe');
      frame.title = 'A partner page';
      const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
      frame.src = `/__diagnose/page.html?csp=${encodeURIComponent(csp)}`;
      document.body.append(frame);
      try {
        await loaded;
        const page = frame.contentWindow as PartnerPage;
        restore();
        spyOn(page.console);
        await test(page);
      } finally {
        frame.remove();
      }
    }

    it("this page's CSP blocks the frame: FrameBlockedError with the frame-src to add, and no other violation", async () => {
      const service = new URL((await faults()).proxyURL).origin;
      await inPartnerPage("default-src 'self'", async (page) => {
        const started = performance.now();
        const plugin = new page.Plugin('test-partner', { serviceURL: service });
        const error = await rejection(plugin.ready);
        const ms = performance.now() - started;
        console.log(`${error.name} after ${Math.round(ms)} ms`);
        expect(ms).to.be.lessThan(2000);
        // Made in the partner page's realm: compared by name.
        expect(error.name).to.equal('FrameBlockedError');
        expect(error.code).to.equal('frame_blocked');
        expect(error.message).to.equal(`This page's CSP blocks the frame: add ${service} to its frame-src.`);
        expect(await rejection(plugin.getVideos())).to.equal(error);
        expect(printed).to.deep.equal([[`[video-plugin] FrameBlockedError (frame_blocked): ${error.message}`]]);
        // The browser's own report of the frame, and nothing the SDK asked on top.
        expect(page.violations.filter((line) => !line.startsWith('frame-src '))).to.deep.equal([]);
        await plugin.cleanup();
      });
    });

    it("a page whose connect-src refuses the question: no guess (not 'nothing answers'), the connect limit decides", async () => {
      const { closedURL } = await faults();
      await inPartnerPage(`default-src 'self'; frame-src ${closedURL}`, async (page) => {
        // Past the 3 s after which a frame that never loaded is explained too (Firefox, WebKit).
        const plugin = new page.Plugin('test-partner', { serviceURL: closedURL, connectTimeout: 4000 });
        const error = await rejection(plugin.ready);
        expect(error.name).to.equal('ConnectionError');
        expect(error.message).to.contain('within 4000 ms');
        expect(printed).to.have.length(1);
        // The question was asked and refused by the page's policy, as documented.
        expect(page.violations.some((line) => line.startsWith('connect-src '))).to.equal(true);
        await plugin.cleanup();
      });
    });

    it('a healthy service prints nothing, and cleanup() before the connection prints nothing either', async () => {
      const plugin = await createPlugin({ serviceURL: (await faults()).proxyURL });
      await plugin.ready;
      const early = await createPlugin({ serviceURL: (await faults()).proxyURL });
      await early.cleanup();
      expect((await rejection(early.ready)).code).to.equal('destroyed');
      expect(printed).to.deep.equal([]);
    });
  });
});
