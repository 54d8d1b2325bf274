/**
 * A job's progress in the studio: the stage in words and the share done, as a `<progress>` bar
 * (role progressbar; its value is the percentage, its accessible name the stage, its value text
 * the stage, the percentage and the time left when the service can estimate it).
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { Progress } from 'video-plugin/internal';
import { t } from './i18n.js';

/** The bar and its text, or nothing for a record without progress (a service before it). */
export function progressBar(progress: Progress | undefined): TemplateResult | typeof nothing {
  if (!progress) return nothing;
  const percent = Math.round(progress.fraction * 100);
  const stage = t(`progress.${progress.stage}`);
  const text =
    progress.etaMs === undefined
      ? t('progress.value', { stage, percent })
      : t('progress.eta', { stage, percent, seconds: Math.max(1, Math.round(progress.etaMs / 1000)) });
  return html`<div class="progress" data-progress-stage=${progress.stage}>
    <progress
      max="100"
      value=${percent}
      aria-label=${stage}
      aria-valuetext=${text}
      style="display:block;width:100%"
    ></progress>
    <p class="muted" aria-hidden="true">${text}</p>
  </div>`;
}
