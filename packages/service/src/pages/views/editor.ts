/** The editor: the video's name, its scenes (real media), completing it. */
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { HostConfig } from 'video-plugin/internal';
import type { EditorBoard, SceneDraft } from '../client.js';
import { errorText, formatDate, t } from '../i18n.js';
import { progressBar } from '../progress.js';
import { formValue, scenesEditable, videoPicture, type View, type ViewActions } from './common.js';

/**
 * Where a scene came from: its page, the page's words its title, text and voiceover were taken
 * from, and its picture's address. A text without an excerpt was written by the service or the
 * user; it is not listed.
 */
function sourcesOf(scene: SceneDraft, index: number): TemplateResult | typeof nothing {
  const sources = scene.sources;
  if (!sources) return nothing;
  const quoted = (key: 'editor.sourceHeading' | 'editor.sourceText' | 'editor.sourceVoiceover', excerpt?: string) =>
    excerpt ? html`<p>${t(key)} <q>${excerpt}</q></p>` : nothing;
  const link = (url: string) => html`<a href=${url} target="_blank" rel="noopener noreferrer">${url}</a>`;
  return html`<details class="sources" data-sources=${index}>
    <summary>${t('editor.sources', { n: index + 1 })}</summary>
    <p>${t('editor.sourcePage')} ${link(sources.pageURL)}</p>
    ${quoted('editor.sourceHeading', sources.heading)} ${quoted('editor.sourceText', sources.text)}
    ${quoted('editor.sourceVoiceover', sources.voiceover)}
    ${sources.pictureURL ? html`<p>${t('editor.sourcePicture')} ${link(sources.pictureURL)}</p>` : nothing}
  </details>`;
}

/** The scene list of the editor: each scene's picture, text, voiceover line, order. */
function scenesEditor(board: EditorBoard, editable: boolean, actions: ViewActions): TemplateResult {
  const count = board.scenes.length;
  const disabled = !editable;
  return html`<fieldset class="scenes" ?disabled=${disabled}>
    <legend>${t(disabled ? 'editor.scenesReadOnly' : 'editor.scenes')}</legend>
    <ol>
      ${board.scenes.map((scene, index) => {
        const id = `scene-${index}`;
        const picture = scene.image === null ? undefined : board.images[scene.image];
        const n = { n: index + 1 };
        return html`<li data-scene=${index}>
          ${
            picture
              ? html`<img src=${picture} alt=${t('editor.scenePicture', n)} width="96" height="54" />`
              : html`<span class="swatch" aria-hidden="true"></span>`
          }
          <div class="fields">
            <label for=${`${id}-heading`}>${t('editor.sceneTitle', n)}</label>
            <input
              id=${`${id}-heading`}
              name="heading"
              maxlength="120"
              required
              .value=${live(scene.heading)}
              @input=${(event: Event) => actions.editScene(index, { heading: (event.target as HTMLInputElement).value })}
            />
            <label for=${`${id}-body`}>${t('editor.sceneText', n)}</label>
            <input
              id=${`${id}-body`}
              name="body"
              maxlength="300"
              .value=${live(scene.body ?? '')}
              @input=${(event: Event) => actions.editScene(index, { body: (event.target as HTMLInputElement).value })}
            />
            <label for=${`${id}-narration`}>${t('editor.sceneVoiceover', n)}</label>
            <textarea
              id=${`${id}-narration`}
              name="narration"
              rows="2"
              maxlength="400"
              required
              .value=${live(scene.narration)}
              @input=${(event: Event) =>
                actions.editScene(index, { narration: (event.target as HTMLTextAreaElement).value })}
            ></textarea>
            <label for=${`${id}-image`}>${t('editor.scenePicture', n)}</label>
            <select
              id=${`${id}-image`}
              name="image"
              @change=${(event: Event) => {
                const value = (event.target as HTMLSelectElement).value;
                actions.editScene(index, { image: value === '' ? null : Number(value) });
              }}
            >
              <option value="" ?selected=${scene.image === null}>${t('editor.noPicture')}</option>
              ${board.images.map(
                (_url, image) =>
                  html`<option value=${image} ?selected=${scene.image === image}>
                    ${t('editor.pictureN', { n: image + 1 })}
                  </option>`,
              )}
            </select>
            ${sourcesOf(scene, index)}
          </div>
          <div class="row">
            <button
              type="button"
              class="secondary"
              data-move-up=${index}
              aria-label=${t('editor.moveUp', n)}
              ?disabled=${index === 0}
              @click=${() => actions.moveScene(index, -1)}
            >
              ↑
            </button>
            <button
              type="button"
              class="secondary"
              data-move-down=${index}
              aria-label=${t('editor.moveDown', n)}
              ?disabled=${index === count - 1}
              @click=${() => actions.moveScene(index, 1)}
            >
              ↓
            </button>
            <button
              type="button"
              class="secondary"
              data-remove=${index}
              aria-label=${t('editor.removeScene', n)}
              ?disabled=${count === 1}
              @click=${() => actions.removeScene(index)}
            >
              ${t('editor.remove')}
            </button>
          </div>
        </li>`;
      })}
    </ol>
  </fieldset>`;
}

export function editorView(
  view: Extract<View, { name: 'editor' }>,
  actions: ViewActions,
  config: HostConfig | undefined,
): TemplateResult {
  const { video } = view;
  // The partner's labels over the defaults; a label passed as `undefined` keeps its default.
  const given = Object.entries(config?.completeVideoConfirmation ?? {}).filter(([, value]) => value !== undefined);
  const labels = {
    title: t('confirm.title'),
    body: t('confirm.body'),
    confirmButton: t('confirm.confirm'),
    cancelButton: t('confirm.cancel'),
    ...Object.fromEntries(given),
  };
  const render = video.renders[0];
  const editable = scenesEditable(view);
  const refusal = `${view.notCompleted ? `${t('editor.notCompleted')} ` : ''}${errorText(view.error)}`;
  return html`<h2>${t('editor.heading')}</h2>
    ${videoPicture(video, 'preview')}
    <form
      @submit=${(event: Event) => {
        event.preventDefault();
        actions.save(formValue(event, 'name'));
      }}
    >
      <label for="video-name">${t('editor.name')}</label>
      <input id="video-name" name="name" required maxlength="200" .value=${video.name} />
      ${view.board && view.board.scenes.length > 0 ? scenesEditor(view.board, editable, actions) : nothing}
      <div class="row">
        <button type="submit" class="secondary" data-action="save">
          ${t(editable ? 'editor.saveAndPreview' : 'editor.save')}
        </button>
        <button type="button" data-action="complete" ?disabled=${video.isCompleted} @click=${actions.askComplete}>
          ${t('editor.complete')}
        </button>
        <button type="button" class="secondary" data-action="exit" @click=${actions.exitEditor}>
          ${t('editor.exit')}
        </button>
      </div>
    </form>
    ${view.error ? html`<p role="alert" class="error" data-error=${view.error.code ?? ''}>${refusal}</p>` : nothing}
    ${
      video.isCompleted
        ? html`<p tabindex="-1" data-render-status=${render?.status ?? 'NONE'}>
            ${
              render?.status === 'COMPLETE'
                ? html`${t('editor.rendered', { date: formatDate(render.renderedAt ?? video.updatedAt) })}
                    <a href=${render.url ?? '#'} target="_blank" rel="noopener">${render.format}</a>`
                : t('editor.rendering')
            }
          </p>`
        : nothing
    }
    ${video.isCompleted && render?.status === 'PROCESSING' ? progressBar(render.progress) : nothing}
    ${
      view.confirming && labels
        ? html`<div role="dialog" aria-modal="true" aria-labelledby="confirm-title">
            <div>
              <h3 id="confirm-title">${labels.title}</h3>
              <p>${labels.body}</p>
              <div class="row">
                <button type="button" data-confirm @click=${actions.complete}>${labels.confirmButton}</button>
                <button type="button" class="secondary" data-cancel @click=${actions.cancelComplete}>
                  ${labels.cancelButton}
                </button>
              </div>
            </div>
          </div>`
        : nothing
    }`;
}
