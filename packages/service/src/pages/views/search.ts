/** The first step: the source URL to search for a topic. */
import { html, nothing, type TemplateResult } from 'lit';
import { errorText, t } from '../i18n.js';
import { progressBar } from '../progress.js';
import { formValue, steps, type View, type ViewActions } from './common.js';

export function searchView(view: Extract<View, { name: 'search' }>, actions: ViewActions): TemplateResult {
  return html`${steps(1)}
    <h2>${t('search.heading')}</h2>
    <form
      @submit=${(event: Event) => {
        event.preventDefault();
        actions.search(formValue(event, 'sourceURL'));
      }}
    >
      <label for="source-url">${t('search.url')}</label>
      <input
        id="source-url"
        name="sourceURL"
        type="url"
        required
        placeholder="https://example.com"
        .value=${view.sourceURL ?? ''}
      />
      <div class="row">
        <button type="submit" ?disabled=${view.searching}>
          ${t(view.searching ? 'search.searching' : 'search.submit')}
        </button>
      </div>
    </form>
    ${
      view.searching
        ? html`<p class="muted">${t('search.reading')}</p>
            ${progressBar(view.progress)}`
        : nothing
    }
    ${view.error ? html`<p role="alert" class="error">${errorText(view.error)}</p>` : nothing}`;
}
