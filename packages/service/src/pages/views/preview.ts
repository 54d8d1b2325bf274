/** The third step: the generation's progress and the video it made. */
import { html, type TemplateResult } from 'lit';
import { errorText, formatDate, formatSeconds, t } from '../i18n.js';
import { progressBar } from '../progress.js';
import { steps, videoPicture, type View, type ViewActions } from './common.js';

export function previewView(view: Extract<View, { name: 'preview' }>, actions: ViewActions): TemplateResult {
  const { generation, video } = view;
  const body =
    generation.status === 'FAILED'
      ? html`<p role="alert" class="error">${errorText(generation.error ?? { code: 'generation_failed' })}</p>`
      : generation.status !== 'COMPLETE' || !video
        ? html`<p data-loading>${t('preview.generating')}</p>
            ${progressBar(generation.progress)}`
        : html`<figure class="preview">
              ${videoPicture(video, 'media')}
              <figcaption>
                ${t('preview.caption', {
                  name: video.name,
                  duration: formatSeconds(video.duration),
                  aspectRatio: video.aspectRatio,
                  date: formatDate(video.createdAt),
                })}
              </figcaption>
            </figure>
            <div class="row">
              <button type="button" data-action="open-editor" @click=${() => actions.openInEditor(video.id)}>
                ${t('preview.openEditor')}
              </button>
            </div>`;
  return html`${steps(3)}
    <h2 data-generation-status=${generation.status}>${t('preview.heading')}</h2>
    ${body}`;
}
