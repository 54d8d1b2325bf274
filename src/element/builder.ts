/**
 * When `<video-plugin>` builds its `Plugin`, rebuilds it and ends it. After each update of the
 * element (Lit batches the attribute changes of one task into one), the builder compares the
 * configuration with the one it last built from: the same configuration builds nothing, and a
 * changed appearance or locale goes to the running studio through `Plugin#update` (no new
 * session); any other change builds a new `Plugin` and ends the previous one. `preload` decides
 * when the first build happens (at once, at the user's intent, or at the first click or call).
 * An invalid configuration builds nothing and fires the element's `error` event. The element
 * calls it from its lifecycle callbacks; the builder holds no DOM of its own.
 */
import type { ReactiveElement } from '@lit/reactive-element';
import { ConnectionError, InvalidParameterError, TimeoutError } from '../errors.js';
import { report } from '../events.js';
import { onIntent } from '../intent.js';
import type { GetLoginToken } from '../options.js';
import { Plugin } from '../plugin.js';
import {
  configOf,
  forElement,
  given,
  lookOf,
  same,
  type ElementConfig,
  type ElementProperties,
  type Look,
} from './attributes.js';
import { dispatchPluginEvent } from './events.js';
import type { PluginSlot } from './plugin-slot.js';
import type { Stage } from './stage.js';

/** The element a builder serves: the properties its configuration is made of, and Lit's update. */
export interface BuilderElement extends ElementProperties, HTMLElement, Pick<ReactiveElement, 'requestUpdate'> {
  callbacks: unknown;
  getLoginToken: GetLoginToken | undefined;
}

export class Builder {
  readonly #element: BuilderElement;
  readonly #slot: PluginSlot;
  /** The appearance and locale the current `Plugin` has. */
  #look: Look = {};
  /** The configuration of the last build attempt (successful or not). */
  #built: ElementConfig | undefined;
  /** Whether the studio is wanted now (always with `preload="auto"`): intent, a click or a call. */
  #wanted = false;
  /** Stops waiting for intent (`preload="intent"`, while nothing is built). */
  #disarm: (() => void) | undefined;
  /**
   * Always the same function (so the configuration stays the same), reading the property when the
   * `Plugin` needs a token: setting `getLoginToken` never restarts the session.
   */
  readonly #getLoginToken = (accountID: string): Promise<string> | string => {
    const element = this.#element;
    if (typeof element.getLoginToken !== 'function') {
      throw new InvalidParameterError(
        '<video-plugin>: the property getLoginToken is not a function: set it to fetch a login token from your server.',
        { field: 'getLoginToken' },
      );
    }
    return element.getLoginToken(accountID);
  };

  constructor(element: BuilderElement, slot: PluginSlot) {
    this.#element = element;
    this.#slot = slot;
  }

  /** After an update of the connected element: build, rebuild, restyle or wait (`preload`). */
  update(stage: Stage): void {
    const element = this.#element;
    const config = this.#config();
    if (!config) return;
    if (this.#built && same(config, this.#built)) {
      this.#restyle();
      return;
    }
    const preload = given(element.preload) ?? 'auto';
    if (preload !== 'intent') this.#stopWaitingForIntent();
    if (!this.#wanted && preload !== 'auto') {
      if (preload === 'intent') this.#disarm ??= onIntent(element, () => this.want());
      return;
    }
    this.#built = config;
    stage.place(config.display);
    this.#build(config, stage);
  }

  /** The failure panel's retry: the next update builds again, with the same configuration. */
  retry(): void {
    this.#built = undefined;
    this.#element.requestUpdate();
  }

  /** The user or the partner's code needs the studio: create it if `preload` put that off. */
  want(): void {
    this.#stopWaitingForIntent();
    if (this.#wanted) return;
    this.#wanted = true;
    this.#element.requestUpdate();
  }

  /** The element left the document: its `Plugin` ends, and the next insertion starts over. */
  end(): void {
    this.#built = undefined;
    this.#wanted = false;
    this.#stopWaitingForIntent();
    this.#slot.empty()?.cleanup().catch(report);
  }

  /** The configuration to build with, or `undefined` (and an `error` event) when it is invalid. */
  #config(): ElementConfig | undefined {
    const config = configOf(this.#element, this.#getLoginToken);
    if (!(config instanceof InvalidParameterError)) return config;
    this.#slot.emit('error', config);
    return undefined;
  }

  /** Sends a changed appearance or locale to the running studio: live, no new session. */
  #restyle(): void {
    const plugin = this.#slot.plugin;
    const look = lookOf(this.#element);
    if (!plugin || plugin.isDestroyed || same(look, this.#look)) return;
    this.#look = look;
    // Removing them goes back to the defaults.
    plugin
      .update({ appearance: look.appearance ?? {}, ...(look.locale ? { locale: look.locale } : {}) })
      .catch((error: unknown) => this.#slot.emit('error', forElement(error)));
  }

  /**
   * Creates the `Plugin` for `config`. An invalid configuration keeps the current `Plugin` (if
   * any) and reports an `error` event; a valid one replaces it, ending its session.
   */
  #build(config: ElementConfig, stage: Stage): void {
    const element = this.#element;
    const slot = this.#slot;
    let plugin: Plugin;
    const look = lookOf(element);
    try {
      plugin = new Plugin(config.partnerID as string, { ...config.options, ...look, domElement: stage.frame });
    } catch (error) {
      const failure = forElement(error);
      slot.fail(failure);
      slot.emit('error', failure);
      return;
    }
    const previous = slot.fill(plugin);
    this.#look = look;
    stage.show('loading');
    plugin.ready.then(
      () => {
        if (slot.plugin !== plugin) return;
        stage.show('');
        dispatchPluginEvent(element, 'ready', null);
      },
      (error: unknown) => {
        if (slot.plugin !== plugin || plugin.isDestroyed) return;
        const failure = forElement(error);
        // The end user reads a kind message; the developer's (the fix) is in the console and the event.
        stage.show('failed', failure instanceof ConnectionError || failure instanceof TimeoutError, element.locale);
        slot.emit('error', failure);
      },
    );
    previous?.cleanup().catch(report);
  }

  #stopWaitingForIntent(): void {
    this.#disarm?.();
    this.#disarm = undefined;
  }
}
