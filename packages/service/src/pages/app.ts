/**
 * The service's iframe page: the AI flow, the editor and (in uncontrolled mode) its own sign-in,
 * serving the host's `Plugin` through the service side of the wire. This module boots the page:
 * it restores the session, fills the state's two slots (the actions, the wire), and answers the
 * handshake. The rest lives one concern a file: state, session, events, navigation, actions,
 * host-methods, look.
 */
import {
  createLogger,
  hostConfigSchema,
  serializeError,
  serveHost,
  type HostInfo,
  type Methods,
} from 'video-plugin/internal';
import { actions } from './actions.js';
import { methods, topics } from './host-methods.js';
import { resolveLocale, t, useLocale } from './i18n.js';
import { applyConfig, checkLook, watchHeight } from './look.js';
import { focusTaken, frameFocused } from './navigation.js';
import { StudioPlayer } from './player.js';
import { accountID, restoreSession } from './session.js';
import { studio } from './state.js';

const { api, partnerID } = studio;

customElements.define('vp-player', StudioPlayer);
restoreSession();
studio.actions = actions;
watchHeight();

studio.endpoint = serveHost<Methods>({
  methods,
  topics,
  // Without a session, why: if the host had one before this page loaded, it was lost on reload.
  info: () =>
    accountID
      ? { accountID }
      : {
          accountID,
          lost: 'on reload: the browser does not let it keep one (third-party storage blocked or cleared)',
        },
  async checkOrigin(origin: string, connect) {
    const host = hostConfigSchema.safeParse(connect.config);
    if (!host.success || host.data.partnerID !== partnerID) {
      return {
        code: 'bad_request',
        message: 'The handshake configuration does not match this page. Update video-plugin.',
      };
    }
    try {
      checkLook(host.data, 'options');
    } catch (error) {
      return serializeError(error);
    }
    try {
      const check = await api.originAllowed(origin, host.data.authMode);
      // Refused with the service's own words (the error diagnose() gives for this origin too).
      return check.allowed ? undefined : check.refusal;
    } catch (error) {
      // An unknown partner (partner_not_found), an authMode the partner did not enable
      // (account_methods_disabled) or a service that cannot answer: refused with why, at once,
      // rather than a host left waiting for its connect limit.
      return serializeError(error);
    }
  },
  onConnect(host: HostInfo) {
    studio.config = hostConfigSchema.parse(host.config);
    studio.log = createLogger(studio.config.isDebug, 'service page');
    applyConfig();
  },
});

// Esc closes the studio like its ✕ button (or, over the completion dialog, cancels that dialog):
// with the focus in this frame, the partner's page never sees the key. The dialog is modal: Tab and
// Shift+Tab go round its buttons, from wherever the focus was.
document.addEventListener('keydown', (event) => {
  const { view } = studio;
  const dialog = view.name === 'editor' && view.confirming;
  if (event.key === 'Tab' && dialog) {
    const buttons = [...document.querySelectorAll<HTMLElement>('[role="dialog"] button')];
    const at = buttons.indexOf(document.activeElement as HTMLElement);
    const next = at < 0 ? 0 : (at + (event.shiftKey ? buttons.length - 1 : 1)) % buttons.length;
    event.preventDefault();
    buttons[next]?.focus();
  }
  if (event.key !== 'Escape' || view.name === 'blank' || !studio.endpoint.host) return;
  if (dialog) actions.cancelComplete();
  else actions.close();
});

window.addEventListener('focus', frameFocused);
document.addEventListener('focusin', focusTaken);

// What takes the focus is shown whole (WCAG 2.4.11): engines scroll a focused control only until a
// part of it shows (Chromium a text field's caret line, Firefox half of the player's video), so the
// rest of a control reached with Tab could sit outside the frame.
document.addEventListener('focusin', (event) => {
  if (!(event.target instanceof Element)) return;
  const box = event.target.getBoundingClientRect();
  const { clientWidth, clientHeight } = document.documentElement;
  if (box.top < 0 || box.left < 0 || box.bottom > clientHeight || box.right > clientWidth) {
    event.target.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }
});

useLocale(resolveLocale(undefined, navigator.languages));
if (!studio.endpoint.channel) studio.root.textContent = t('studio.standalone');
