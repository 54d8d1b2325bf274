// The Plugin's accounts against the real local service (docs/plugin-api.md, "Methods": accounts,
// and "Token functions"): tokens given as strings, and as functions fetched when needed.
import { expect } from '@open-wc/testing';
import {
  AccountAlreadyExistsError,
  AccountMethodsDisabledError,
  DestroyedError,
  InvalidParameterError,
  InvalidTokenError,
  NotAuthenticatedError,
  NotFoundError,
  TimeoutError,
} from '../../src/errors.js';
import { BUSINESS_URL, cleanupPlugins, createPlugin, rejection, signUp, token } from '../support/plugin.js';

afterEach(cleanupPlugins);

describe('Plugin: accounts and tokens', () => {
  it('updateAccountInfo changes only the given fields', async () => {
    const plugin = await createPlugin();
    await signUp(plugin, { firstName: 'Grace', lastName: 'Hopper', city: 'Arlington' });
    const updated = await plugin.updateAccountInfo({ lastName: 'Murray', emailAddress: 'grace@example.com' });
    expect(updated).to.deep.include({
      firstName: 'Grace',
      lastName: 'Murray',
      city: 'Arlington',
      emailAddress: 'grace@example.com',
    });
  });

  it('rejects a duplicate externalID with account_already_exists', async () => {
    const plugin = await createPlugin();
    const externalID = `ext-${crypto.randomUUID()}`;
    await signUp(plugin, { externalID });
    expect(await rejection(signUp(plugin, { externalID }))).to.be.instanceOf(AccountAlreadyExistsError);
  });

  it('rejects a login for an unknown account with account_not_found', async () => {
    const plugin = await createPlugin();
    const error = await rejection(plugin.loginAccount(await token('login', { accountID: 'acct_nobody' })));
    expect(error).to.be.instanceOf(NotFoundError);
    expect(error.code).to.equal('account_not_found');
  });

  // The service is the one judge of tokens (packages/service/test/auth/tokens.test.ts covers every refusal); the
  // page only checks that a token is a string of sensible length.
  it('the service refuses tokens that are not JWTs, or name another partner, with their codes', async () => {
    const plugin = await createPlugin();
    const malformed = await rejection(plugin.createAccount('not-a-token'));
    expect(malformed).to.be.instanceOf(InvalidTokenError);
    expect(malformed.code).to.equal('token_malformed');
    const foreign = await rejection(plugin.createAccount(await token('create', { partnerID: 'other-partner' })));
    expect(foreign.code).to.equal('token_unknown_issuer');
    expect(foreign.message).to.contain('other-partner').and.contain('test-partner');
    expect((await rejection(plugin.createAccount(42 as never))).data?.field).to.equal('createAccountToken');
  });

  it('the service refuses a token signed with the wrong secret', async () => {
    const plugin = await createPlugin();
    const valid = await token('create');
    const [header, payload] = valid.split('.');
    const error = await rejection(plugin.createAccount(`${header}.${payload}.${'A'.repeat(43)}`));
    expect(error).to.be.instanceOf(InvalidTokenError);
    expect(error.code).to.equal('token_bad_signature');
  });
});

/**
 * A token function as a partner writes it (`() => fetch(...)`), from the test back end: each call
 * mints the next token of `kinds` (`'expired'`: the same kind of token, minted ten minutes ago) and
 * counts. After the list, the last kind again.
 */
function tokenFunction(
  kind: 'create' | 'login' | 'loginOrCreate',
  options: { accountID?: string; externalID?: string; partnerID?: string },
  ...expired: boolean[]
) {
  const asked: unknown[][] = [];
  return {
    asked,
    fn: (...args: unknown[]) => {
      asked.push(args);
      return token(kind, { ...options, expired: expired[asked.length - 1] ?? expired.at(-1) ?? false });
    },
  };
}

describe('Plugin: tokens fetched when needed (createAccount and loginAccount with a function)', () => {
  it('the function is called once, given nothing, and its token signs in: loginAccount and createAccount', async () => {
    const plugin = await createPlugin();
    const create = tokenFunction('create', {});
    const accountID = await plugin.createAccount(create.fn);
    expect(create.asked).to.deep.equal([[undefined]]);
    const login = tokenFunction('login', { accountID });
    expect((await plugin.loginAccount(login.fn)).id).to.equal(accountID);
    expect(login.asked.length).to.equal(1);
    // A function that gives a token at once (no promise) is taken as well.
    const minted = await token('login', { accountID });
    expect((await plugin.loginAccount(() => minted)).id).to.equal(accountID);
    expect((await plugin.getAccountInfo()).id).to.equal(accountID);
  });

  it('the function is asked once the frame is connected, not when the call is made: its token is fresh', async () => {
    const plugin = await createPlugin();
    let connected = false;
    void plugin.ready.then(() => (connected = true));
    const calledWhen: boolean[] = [];
    // Called at once, before the frame has even loaded: the call waits for the frame, then asks.
    const accountID = await plugin.createAccount(() => {
      calledWhen.push(connected);
      return token('create');
    });
    expect(accountID).to.be.a('string');
    expect(calledWhen).to.deep.equal([true]);
  });

  it('a token that expired between its fetch and its use: the function is asked again, once, and the second signs in', async () => {
    const plugin = await createPlugin();
    const create = tokenFunction('create', {}, true, false);
    const accountID = await plugin.createAccount(create.fn);
    expect(create.asked.length).to.equal(2);
    const login = tokenFunction('login', { accountID }, true, false);
    expect((await plugin.loginAccount(login.fn)).id).to.equal(accountID);
    expect(login.asked.length).to.equal(2);
    // Signed in for the start methods, as with a string token.
    expect((await plugin.startTopicSearch(BUSINESS_URL)).topicId).to.be.a('string');
  });

  it("a second expired token: the service's token_expired error, after two calls of the function (never a loop)", async () => {
    const plugin = await createPlugin();
    const accountID = await signUp(plugin);
    await plugin.logoutAccount();
    const login = tokenFunction('login', { accountID }, true);
    const error = await rejection(plugin.loginAccount(login.fn));
    expect(error).to.be.instanceOf(InvalidTokenError);
    expect(error.code).to.equal('token_expired');
    expect(error.message).to.contain('Mint a new token just before each call');
    expect(login.asked.length).to.equal(2);
    const create = tokenFunction('create', {}, true);
    expect((await rejection(plugin.createAccount(create.fn))).code).to.equal('token_expired');
    expect(create.asked.length).to.equal(2);
    expect(await rejection(plugin.getAccountInfo())).to.be.instanceOf(NotAuthenticatedError);
  });

  it('an expired string token is refused as before: only a function can be asked again', async () => {
    const plugin = await createPlugin();
    const accountID = await signUp(plugin);
    const error = await rejection(plugin.loginAccount(await token('login', { accountID, expired: true })));
    expect(error.code).to.equal('token_expired');
  });

  it("another refusal of the function's token is not retried: one call, the service's error", async () => {
    const plugin = await createPlugin();
    const foreign = tokenFunction('create', { partnerID: 'other-partner' });
    expect((await rejection(plugin.createAccount(foreign.fn))).code).to.equal('token_unknown_issuer');
    expect(foreign.asked.length).to.equal(1);
    const nobody = tokenFunction('login', { accountID: 'acct_nobody' });
    expect((await rejection(plugin.loginAccount(nobody.fn))).code).to.equal('account_not_found');
    expect(nobody.asked.length).to.equal(1);
  });

  it('a function that throws or rejects: the call rejects with its error, as thrown, and nothing is sent', async () => {
    const plugin = await createPlugin();
    const down = new Error('the partner back end is down');
    expect(
      await rejection(
        plugin.loginAccount(() => {
          throw down;
        }),
      ),
    ).to.equal(down);
    expect(await rejection(plugin.createAccount(() => Promise.reject(down)))).to.equal(down);
    expect(await rejection(plugin.getAccountInfo())).to.be.instanceOf(NotAuthenticatedError);
  });

  it("a function that gives no token: an InvalidParameterError naming the argument's result", async () => {
    const plugin = await createPlugin();
    for (const result of [undefined, 42, '', { token: 'a.b.c' }]) {
      const error = await rejection(plugin.loginAccount(async () => result as string));
      expect(error).to.be.instanceOf(InvalidParameterError);
      expect(error.message).to.match(/^loginAccountToken's result must be a string of 1 to 8192 characters, got /);
      expect(error.data?.field).to.equal("loginAccountToken's result");
    }
    // Neither a string nor a function: named as the argument.
    const error = await rejection(plugin.createAccount(42 as never));
    expect(error.message).to.match(/^createAccountToken must be a string of 1 to 8192 characters, got 42\.$/);
  });

  it('a function that never settles: a TimeoutError naming it at callTimeout', async () => {
    const plugin = await createPlugin({ callTimeout: 1000 });
    await plugin.ready;
    const error = await rejection(plugin.loginAccount(() => new Promise<string>(() => {})));
    expect(error).to.be.instanceOf(TimeoutError);
    expect(error.message).to.equal(
      'loginAccountToken gave no token within 1000 ms: make it answer sooner, or pass a larger callTimeout.',
    );
  });

  it('after cleanup() the function is never called; a cleanup() while it runs rejects the call with DestroyedError', async () => {
    const ended = await createPlugin();
    await ended.cleanup();
    const asked: unknown[] = [];
    const error = await rejection(ended.loginAccount(() => (asked.push(1), 'a.b.c')));
    expect(error).to.be.instanceOf(DestroyedError);
    expect(error.message).to.equal('loginAccount was called after cleanup(): create a new Plugin.');
    expect(asked).to.deep.equal([]);

    const plugin = await createPlugin();
    await plugin.ready;
    let called!: () => void;
    const calling = new Promise<void>((resolve) => (called = resolve));
    const pending = rejection(
      plugin.createAccount(() => {
        called();
        return new Promise<string>(() => {});
      }),
    );
    await calling;
    await plugin.cleanup();
    expect(await pending).to.be.instanceOf(DestroyedError);
  });

  it('uncontrolled mode: AccountMethodsDisabledError, and the function is never called', async () => {
    const plugin = await createPlugin({ authMode: 'uncontrolled' });
    const asked: unknown[] = [];
    const error = await rejection(plugin.loginAccount(() => (asked.push(1), 'a.b.c')));
    expect(error).to.be.instanceOf(AccountMethodsDisabledError);
    expect(asked).to.deep.equal([]);
  });
});
