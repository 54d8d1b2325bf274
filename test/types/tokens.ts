// createAccount and loginAccount take a token or a function of one (a string, or a promise of
// one), on the Plugin, on <video-plugin> and on video-plugin/react's ref, as the published .d.ts
// types them. Compiled against dist/ by test/node/frameworks.test.ts.
import type { Account, Plugin } from 'video-plugin';
import type { VideoPluginElement } from 'video-plugin/react';

declare const plugin: Plugin;
declare const element: VideoPluginElement;
declare const fetchToken: () => Promise<string>;

for (const target of [plugin, element]) {
  void (target.loginAccount('token') satisfies Promise<Account>);
  void (target.loginAccount(fetchToken) satisfies Promise<Account>);
  void (target.loginAccount(() => 'token') satisfies Promise<Account>);
  void (target.createAccount('token') satisfies Promise<string>);
  void (target.createAccount(async () => (await fetch('/token')).text()) satisfies Promise<string>);
  // @ts-expect-error -- a token is a string
  void target.loginAccount(42);
  // @ts-expect-error -- the function resolves to the token itself, not an object holding it
  void target.loginAccount(async () => ({ token: 'token' }));
  // @ts-expect-error -- the function takes no argument: the token says whose account it is
  void target.createAccount((accountID: string) => accountID);
}
