/** The second step: the topic found and the video's settings. */
import { html, nothing, type TemplateResult } from 'lit';
import { ASPECT_RATIOS, DURATIONS, LANGUAGES } from 'video-plugin/internal';
import { errorText, formatSeconds, languageName, t } from '../i18n.js';
import { progressBar } from '../progress.js';
import { steps, type View, type ViewActions } from './common.js';

export function promptView(view: Extract<View, { name: 'prompt' }>, actions: ViewActions): TemplateResult {
  const { topic } = view;
  const ready = topic.status === 'COMPLETE';
  return html`${steps(2)}
    <h2 data-topic-status=${topic.status}>
      ${topic.title ?? html`<span class="skeleton" role="img" aria-label=${t('prompt.loadingTitle')}></span>`}
    </h2>
    <p class="muted">${topic.description ?? (ready ? '' : t('search.reading'))}</p>
    ${ready ? nothing : progressBar(topic.progress)}
    <div class="thumbs">${topic.pictures.map((src) => html`<img src=${src} alt="" />`)}</div>
    <form
      @submit=${(event: Event) => {
        event.preventDefault();
        const data = new FormData(event.target as HTMLFormElement);
        const instructions = String(data.get('videoInstructions') ?? '');
        // "The page's language" sends none: the service takes the page's own (`<html lang>`).
        const language = String(data.get('language') ?? '');
        actions.generate({
          topicId: topic.id,
          aspectRatio: String(data.get('aspectRatio')),
          duration: Number(data.get('duration')),
          ...(language ? { language } : {}),
          ...(instructions ? { videoInstructions: instructions } : {}),
        });
      }}
    >
      <label for="aspect-ratio">${t('prompt.aspectRatio')}</label>
      <select id="aspect-ratio" name="aspectRatio">
        ${ASPECT_RATIOS.map((v) => html`<option>${v}</option>`)}
      </select>
      <label for="duration">${t('prompt.duration')}</label>
      <select id="duration" name="duration">
        ${DURATIONS.map((v) => html`<option value=${v} ?selected=${v === 15}>${formatSeconds(v)}</option>`)}
      </select>
      <label for="language">${t('prompt.language')}</label>
      <select id="language" name="language">
        <option value="" selected>${t('prompt.pageLanguage')}</option>
        ${LANGUAGES.map((v) => html`<option value=${v}>${languageName(v)}</option>`)}
      </select>
      <label for="instructions">${t('prompt.instructions')}</label>
      <textarea id="instructions" name="videoInstructions" rows="2"></textarea>
      <div class="row">
        <button type="submit" ?disabled=${!ready}>${t(ready ? 'prompt.generate' : 'prompt.waiting')}</button>
      </div>
    </form>
    ${view.error ? html`<p role="alert" class="error">${errorText(view.error)}</p>` : nothing}`;
}
