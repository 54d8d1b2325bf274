/**
 * The page's views, rendered with lit-html: plain, accessible, no external assets. One file per screen
 * under `views/`, their shared stylesheet in styles.ts; this module picks the screen to render.
 */
import { html, nothing, render, type TemplateResult } from 'lit';
import type { HostConfig } from 'video-plugin/internal';
import { announcement } from './announce.js';
import { t } from './i18n.js';
import { STYLE } from './styles.js';
import type { View, ViewActions } from './views/common.js';
import { editorView } from './views/editor.js';
import { previewView } from './views/preview.js';
import { promptView } from './views/prompt.js';
import { searchView } from './views/search.js';
import { signInView } from './views/sign-in.js';

export type { UserError, View, ViewActions } from './views/common.js';

/**
 * Renders `view` into `root`. The shell is the same nodes on every screen, its live region (the
 * page's only one, announce.ts) included: a region must be in the page before its text changes for
 * a screen reader to say the change.
 */
export function renderView(root: HTMLElement, view: View, actions: ViewActions, config: HostConfig | undefined): void {
  let body: TemplateResult | typeof nothing = nothing;
  switch (view.name) {
    case 'signIn':
      body = signInView(view, actions);
      break;
    case 'search':
      body = searchView(view, actions);
      break;
    case 'prompt':
      body = promptView(view, actions);
      break;
    case 'preview':
      body = previewView(view, actions);
      break;
    case 'editor':
      body = editorView(view, actions, config);
      break;
  }
  render(
    html`${STYLE}
      <div class="shell" data-view=${view.name}>
        <header>
          <h1>${t('studio.title')}</h1>
          <div class="row" style="margin:0">
            ${
              config?.authMode === 'uncontrolled' && view.name !== 'signIn'
                ? html`<button type="button" class="secondary" @click=${actions.signOut}>
                    ${t('studio.signOut')}
                  </button>`
                : nothing
            }
            <button type="button" class="secondary" aria-label=${t('studio.close')} @click=${actions.close}>✕</button>
          </div>
        </header>
        <section>${body}</section>
        <p role="status" class="visually-hidden" data-announce>${announcement(view)}</p>
      </div>`,
    root,
  );
}
