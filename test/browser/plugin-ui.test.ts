// The Plugin's UI against the real local service (docs/plugin-api.md, "Methods" and "Events"):
// opening the AI page and the editor, mount, the events, and onIntent.
import { expect } from '@open-wc/testing';
import {
  AccountMethodsDisabledError,
  NotAuthenticatedError,
  OriginNotAllowedError,
  ServiceError,
} from '../../src/errors.js';
import { Plugin } from '../../src/plugin.js';
import { onIntent } from '../../src/index.js';
import {
  BUSINESS_URL,
  cleanupPlugins,
  createPlugin,
  nextEvent,
  rejection,
  signUp,
  statusLog,
  testConfig,
  token,
} from '../support/plugin.js';

afterEach(cleanupPlugins);

describe('Plugin: UI, mount and events', () => {
  it('openPlugin emits pluginOpened and resolves', async () => {
    const plugin = await createPlugin();
    await signUp(plugin);
    const opened = nextEvent(plugin, 'pluginOpened');
    await plugin.openPlugin();
    await opened;
    expect(plugin.isOpen).to.equal(true);
  });

  it('openPlugin in jwt mode before login rejects with not_authenticated', async () => {
    const plugin = await createPlugin();
    const failed = nextEvent(plugin, 'pluginOpenFailed');
    expect(await rejection(plugin.openPlugin())).to.be.instanceOf(NotAuthenticatedError);
    expect((await failed).code).to.equal('not_authenticated');
    expect(plugin.isOpen).to.equal(false);
  });

  it('mount moves the iframe and keeps the session and subscriptions', async () => {
    const plugin = await createPlugin({ slow: true });
    const accountID = await signUp(plugin);
    const { topicId } = await plugin.startTopicSearch(BUSINESS_URL);
    const log = statusLog((cb) => plugin.subscribeToTopicSearchStatusUpdates(topicId, cb));
    await log.until('PENDING');
    const target = document.createElement('div');
    document.body.append(target);
    await plugin.mount(target);
    expect(plugin.iframe.parentElement).to.equal(target);
    expect(plugin.iframe.style.display).to.equal('block');
    expect((await plugin.getAccountInfo()).id).to.equal(accountID);
    await log.until('PROCESSING');
    target.remove();
  }).timeout(15000);

  it('on returns a remover; off removes by reference; the callbacks option registers', async () => {
    const heard: string[] = [];
    const fromOption = () => heard.push('option');
    // A callback given as undefined (left out by the partner's code) registers nothing: no
    // "not a function" error when the event comes.
    const reported: unknown[] = [];
    const onError = (event: ErrorEvent) => reported.push(event.error);
    window.addEventListener('error', onError);
    const plugin = await createPlugin({ callbacks: { pluginOpened: fromOption } });
    await signUp(plugin);
    const viaOn = () => heard.push('on');
    const removed = () => heard.push('removed');
    plugin.on('pluginOpened', viaOn);
    const remove = plugin.on('pluginOpened', removed);
    remove();
    await plugin.openPlugin();
    expect(heard.sort()).to.deep.equal(['on', 'option']);
    plugin.off('pluginOpened', viaOn);
    plugin.off('pluginOpened', fromOption);
    await plugin.openPlugin();
    expect(heard).to.have.length(2);
    const quiet = await createPlugin({ callbacks: { pluginOpened: undefined } });
    await signUp(quiet);
    await quiet.openPlugin();
    // reportError() dispatches at once; a microtask-reported one would be in by the next task.
    await new Promise((resolve) => setTimeout(resolve));
    window.removeEventListener('error', onError);
    expect(reported).to.deep.equal([]);
  });

  it('two instances on one page stay independent: sessions and events', async () => {
    const a = await createPlugin();
    const b = await createPlugin();
    const accountA = await signUp(a);
    const accountB = await signUp(b);
    expect(accountA).to.not.equal(accountB);
    expect((await a.getAccountInfo()).id).to.equal(accountA);
    expect((await b.getAccountInfo()).id).to.equal(accountB);
    let heardByB = 0;
    b.on('pluginOpened', () => heardByB++);
    await a.openPlugin();
    await b.getVideos();
    expect(heardByB).to.equal(0);
    await a.logoutAccount();
    expect((await b.getAccountInfo()).id).to.equal(accountB);
  });

  it('a page origin the partner does not allow is refused with a clear error, and reaches nothing of the partner', async () => {
    const plugin = await createPlugin({ partnerID: 'strict-partner' });
    const error = await rejection(plugin.getVideos());
    expect(error).to.be.instanceOf(OriginNotAllowedError);
    expect(error.message).to.contain(location.origin).and.contain('strict-partner');
    // Every way in is closed: a genuine token of the partner, reads, the UI, subscriptions.
    const heard: unknown[] = [];
    plugin.on('pluginOpened', (payload) => heard.push(payload));
    plugin.subscribeToTopicSearchStatusUpdates('topic_any', (payload) => heard.push(payload));
    const refused = await Promise.all([
      rejection(plugin.createAccount(await token('create', { partnerID: 'strict-partner' }))),
      rejection(plugin.loginAccount(await token('login', { partnerID: 'strict-partner', externalID: 'x' }))),
      rejection(plugin.getVideoData('vid_any')),
      rejection(plugin.openPlugin()),
    ]);
    for (const each of refused) expect(each).to.be.instanceOf(OriginNotAllowedError);
    expect(plugin.isOpen).to.equal(false);
    expect(heard).to.deep.equal([]);
  });

  it('an authMode the partner did not enable is refused at the handshake, naming the mode and the fix (issue 29)', async () => {
    // jwt-partner allows tokens only: a studio with its own sign-in is never shown for it.
    const plugin = await createPlugin({ partnerID: 'jwt-partner', authMode: 'uncontrolled' });
    const error = await rejection(plugin.getVideos());
    expect(error).to.be.instanceOf(AccountMethodsDisabledError);
    expect(error.code).to.equal('account_methods_disabled');
    expect(error.message)
      .to.contain("does not allow authMode 'uncontrolled'")
      .and.contain("Create the Plugin with authMode 'jwt'");
    expect(error.data).to.deep.include({ partnerID: 'jwt-partner', authMode: 'uncontrolled' });
    const opened = await rejection(plugin.openPlugin());
    expect(opened).to.be.instanceOf(AccountMethodsDisabledError);
    expect(plugin.isOpen).to.equal(false);
    // The same partner in its own mode works.
    const allowed = await createPlugin({ partnerID: 'jwt-partner' });
    const accountID = await allowed.createAccount(await token('create', { partnerID: 'jwt-partner' }));
    expect((await allowed.getAccountInfo()).id).to.equal(accountID);
  });

  it('a burst of topic searches past the account budget rejects with ServiceError rate_limited and retryAfterMs (issue 29)', async () => {
    const plugin = await createPlugin();
    await signUp(plugin);
    // 80 at once: more than the budget (30 at once, docs/service.md "Limits") and its refill.
    const settled = await Promise.allSettled(Array.from({ length: 80 }, () => plugin.startTopicSearch(BUSINESS_URL)));
    const refused = settled.flatMap((each) => (each.status === 'rejected' ? [each.reason] : []));
    expect(refused.length).to.be.greaterThan(0);
    expect(settled.length - refused.length).to.be.at.least(30);
    for (const error of refused) {
      expect(error).to.be.instanceOf(ServiceError);
      expect(error.code).to.equal('rate_limited');
      // The account's budget refuses first when the burst arrives at once; on a slow machine the
      // budget refills while the burst arrives, and the account's cap on waiting jobs (50 PENDING,
      // docs/service.md "Waiting jobs") refuses the rest: both name their limit.
      expect(error.data.limit).to.be.oneOf(['topicSearches.account', 'waitingJobs.account']);
      expect(error.data.retryAfterMs).to.be.within(1, 60_000);
      expect(error.message).to.match(/retry after/i);
    }
  });

  it('without isDebug the library prints nothing', async () => {
    const printed: unknown[] = [];
    const originals = {
      log: console.log,
      debug: console.debug,
      info: console.info,
      warn: console.warn,
      error: console.error,
    };
    for (const key of Object.keys(originals) as (keyof typeof originals)[])
      console[key] = (...args: unknown[]) => printed.push(args);
    try {
      const plugin = await createPlugin();
      await signUp(plugin);
      await plugin.openPlugin();
      await plugin.close();
      await plugin.cleanup();
    } finally {
      Object.assign(console, originals);
    }
    expect(printed).to.deep.equal([]);
  });

  it('isDebug logs traffic and state with one prefix', async () => {
    const printed: unknown[][] = [];
    const original = console.debug;
    console.debug = (...args: unknown[]) => printed.push(args);
    try {
      const plugin = await createPlugin({ isDebug: true });
      await plugin.getVideos();
      await plugin.cleanup();
    } finally {
      console.debug = original;
    }
    expect(printed.length).to.be.greaterThan(2);
    expect(printed.every((line) => String(line[0]).startsWith('[video-plugin]'))).to.equal(true);
    expect(printed.some((line) => JSON.stringify(line).includes('"getVideos"'))).to.equal(true);
  });
});

describe('onIntent: creating a Plugin when the user shows intent', () => {
  it('calls back once, at the first of pointer over, focus in or touch, then stops listening', () => {
    const target = document.createElement('div');
    const button = target.appendChild(document.createElement('button'));
    document.body.append(target);
    try {
      let calls = 0;
      onIntent(target, () => calls++);
      button.focus();
      expect(calls).to.equal(1);
      target.dispatchEvent(new PointerEvent('pointerenter'));
      button.dispatchEvent(new Event('touchstart', { bubbles: true }));
      expect(calls).to.equal(1);
    } finally {
      target.remove();
    }
  });

  for (const type of ['pointerenter', 'focusin', 'touchstart']) {
    it(`counts ${type} as intent`, () => {
      const target = document.createElement('div');
      let calls = 0;
      onIntent(target, () => calls++);
      target.dispatchEvent(new Event(type));
      expect(calls).to.equal(1);
    });
  }

  it('the remover stops it before any intent', () => {
    const target = document.createElement('div');
    let calls = 0;
    onIntent(target, () => calls++)();
    target.dispatchEvent(new PointerEvent('pointerenter'));
    expect(calls).to.equal(0);
  });

  it('the documented pattern: intent creates and connects the Plugin, the click opens it', async () => {
    const { serviceURL } = await testConfig();
    const button = document.body.appendChild(document.createElement('button'));
    let plugin: Plugin | undefined;
    const studio = () => (plugin ??= new Plugin('test-partner', { serviceURL, authMode: 'uncontrolled' }));
    try {
      onIntent(button, studio);
      expect(plugin).to.equal(undefined);
      button.dispatchEvent(new PointerEvent('pointerenter'));
      await plugin!.ready;
      await studio().openPlugin();
      expect(plugin!.isOpen).to.equal(true);
    } finally {
      button.remove();
      await plugin?.cleanup();
    }
  });
});
