/**
 * The page's views, rendered with lit-html: plain, accessible, no external assets.
 */
import { html, nothing, render, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { ASPECT_RATIOS, DURATIONS, LANGUAGES, type HostConfig, type Progress, type Video } from 'video-plugin/internal';
import type { EditorBoard, Generation, SceneDraft, Topic } from './client.js';
import { errorText, formatDate, formatSeconds, languageName, t } from './i18n.js';
import { progressBar } from './progress.js';

export type View =
  | { name: 'blank' }
  | { name: 'signIn'; error?: UserError }
  | { name: 'search'; sourceURL?: string; searching: boolean; error?: UserError; progress?: Progress }
  | { name: 'prompt'; topic: Topic; error?: UserError }
  | { name: 'preview'; generation: Generation; video?: Video }
  | { name: 'editor'; video: Video; confirming: boolean; board?: EditorBoard };

/** An error to show the user: shown by its code, in the studio's language. */
export type UserError = { code?: string } | undefined;

export interface ViewActions {
  search(sourceURL: string): void;
  generate(params: {
    topicId: string;
    aspectRatio: string;
    duration: number;
    language: string;
    videoInstructions?: string;
  }): void;
  openInEditor(videoId: string): void;
  /** Saves the name and (real media) the scenes being edited. */
  save(name: string): void;
  editScene(index: number, patch: Partial<SceneDraft>): void;
  moveScene(index: number, by: -1 | 1): void;
  removeScene(index: number): void;
  askComplete(): void;
  cancelComplete(): void;
  complete(): void;
  exitEditor(): void;
  close(): void;
  signIn(emailAddress: string): void;
  signOut(): void;
}

const STYLE = html`<style>
  :root {
    --vp-bg: #fff;
    --vp-text: #0f172a;
    --vp-muted: #475569;
    --vp-primary: #1d4ed8;
    --vp-on-primary: #fff;
    --vp-danger: #b91c1c;
    --vp-font: system-ui, sans-serif;
    --vp-radius: 6px;
    --vp-space: 4px;
    --vp-border: color-mix(in srgb, var(--vp-text) 18%, var(--vp-bg));
    --vp-field: color-mix(in srgb, var(--vp-text) 55%, var(--vp-bg));
    --vp-surface: color-mix(in srgb, var(--vp-text) 10%, var(--vp-bg));
    color-scheme: light;
    font-size: 15px;
    line-height: 1.5;
    font-family: var(--vp-font);
    color: var(--vp-text);
    background: var(--vp-bg);
  }
  :root[data-scheme='dark'] {
    --vp-bg: #0f172a;
    --vp-text: #e2e8f0;
    --vp-muted: #a3b1c6;
    --vp-primary: #60a5fa;
    --vp-on-primary: #0f172a;
    --vp-danger: #fca5a5;
    color-scheme: dark;
  }
  @media (prefers-color-scheme: dark) {
    :root[data-scheme='auto'] {
      --vp-bg: #0f172a;
      --vp-text: #e2e8f0;
      --vp-muted: #a3b1c6;
      --vp-primary: #60a5fa;
      --vp-on-primary: #0f172a;
      --vp-danger: #fca5a5;
      color-scheme: dark;
    }
  }
  body {
    margin: 0;
  }
  .shell {
    display: flex;
    flex-direction: column;
    min-height: 100vh;
  }
  header {
    display: flex;
    align-items: center;
    justify-content: space-between;
    padding: calc(var(--vp-space) * 3) calc(var(--vp-space) * 5);
    border-bottom: 1px solid var(--vp-border);
  }
  header h1 {
    font-size: 1rem;
    margin: 0;
  }
  section {
    padding: calc(var(--vp-space) * 5);
    max-width: 760px;
    margin: 0 auto;
    width: 100%;
    box-sizing: border-box;
  }
  ol.steps {
    display: flex;
    gap: calc(var(--vp-space) * 4);
    list-style: none;
    padding: 0;
    margin: 0 0 calc(var(--vp-space) * 4);
    color: var(--vp-muted);
    font-size: 0.85rem;
  }
  ol.steps li[aria-current='step'] {
    color: var(--vp-text);
    font-weight: 600;
    text-decoration: underline 2px var(--vp-primary);
    text-underline-offset: 4px;
  }
  label {
    display: block;
    margin: calc(var(--vp-space) * 3) 0 var(--vp-space);
    font-weight: 600;
  }
  input,
  select,
  textarea {
    font: inherit;
    color: inherit;
    background: var(--vp-bg);
    padding: calc(var(--vp-space) * 2) calc(var(--vp-space) * 2.5);
    border: 1px solid var(--vp-field);
    border-radius: var(--vp-radius);
    width: 100%;
    box-sizing: border-box;
  }
  button {
    font: inherit;
    padding: calc(var(--vp-space) * 2) calc(var(--vp-space) * 4);
    border-radius: var(--vp-radius);
    border: 1px solid var(--vp-primary);
    background: var(--vp-primary);
    color: var(--vp-on-primary);
    cursor: pointer;
  }
  button.secondary {
    background: var(--vp-bg);
    color: var(--vp-text);
  }
  button:disabled {
    opacity: 0.6;
    cursor: progress;
  }
  a {
    color: inherit;
  }
  .row {
    display: flex;
    gap: calc(var(--vp-space) * 3);
    align-items: end;
    margin-top: calc(var(--vp-space) * 4);
    flex-wrap: wrap;
  }
  .error {
    color: var(--vp-danger);
  }
  .muted {
    color: var(--vp-muted);
  }
  .thumbs {
    display: flex;
    gap: calc(var(--vp-space) * 2);
    flex-wrap: wrap;
  }
  .thumbs img {
    width: 96px;
    height: 64px;
    object-fit: cover;
    border-radius: var(--vp-radius);
    background: var(--vp-surface);
  }
  .preview img {
    max-width: 100%;
    border-radius: var(--vp-radius);
    border: 1px solid var(--vp-border);
  }
  .scenes {
    border: 1px solid var(--vp-border);
    border-radius: var(--vp-radius);
    margin: calc(var(--vp-space) * 3) 0;
    padding: calc(var(--vp-space) * 2) calc(var(--vp-space) * 3);
  }
  .scenes ol {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  .scenes li {
    display: grid;
    grid-template-columns: 96px 1fr auto;
    gap: calc(var(--vp-space) * 3);
    align-items: start;
    padding: calc(var(--vp-space) * 2) 0;
    border-bottom: 1px solid var(--vp-border);
  }
  .scenes li img,
  .scenes .swatch {
    width: 96px;
    height: 54px;
    object-fit: cover;
    border-radius: var(--vp-radius);
    background: #1e1b4b;
    display: block;
  }
  .skeleton {
    display: inline-block;
    background: var(--vp-surface);
    border-radius: var(--vp-radius);
    height: 1.2em;
    width: 60%;
  }
  [role='dialog'] {
    position: fixed;
    inset: 0;
    background: rgba(15, 23, 42, 0.5);
    display: grid;
    place-items: center;
  }
  [role='dialog'] > div {
    background: var(--vp-bg);
    border-radius: var(--vp-radius);
    padding: calc(var(--vp-space) * 6);
    max-width: 420px;
  }
  /* Narrow screens (360 px and up): nothing wider than the frame, touch targets of 44 px or more. */
  body {
    overflow-wrap: break-word;
  }
  button,
  input,
  select,
  a[href] {
    box-sizing: border-box;
    min-height: 44px;
  }
  button,
  a[href] {
    min-width: 44px;
  }
  a[href] {
    display: inline-flex;
    align-items: center;
    justify-content: center;
  }
  ol.steps {
    flex-wrap: wrap;
  }
  .scenes li {
    grid-template-columns: 96px minmax(0, 1fr) auto;
  }
  [role='dialog'] > div {
    box-sizing: border-box;
    max-width: min(420px, 100vw - 32px);
  }
  @media (max-width: 600px) {
    /* One column: the picture, the fields, then the buttons. */
    .scenes li {
      grid-template-columns: minmax(0, 1fr);
    }
    .scenes li > .row {
      margin-top: 0;
    }
  }
  /* Auto height (the host's height: 'auto'): the page lays out at its natural height, and nothing
     in it depends on the frame's own height (which follows it), so the height cannot feed back. */
  :root[data-fit] .shell {
    min-height: 0;
  }
  :root[data-fit] video {
    max-height: 480px !important;
  }
</style>`;

function steps(current: 1 | 2 | 3): TemplateResult {
  const step = (n: number, label: string) =>
    html`<li aria-current=${n === current ? 'step' : 'false'}>${n}. ${label}</li>`;
  return html`<ol class="steps" aria-label=${t('steps.label')}>
    ${step(1, t('steps.source'))}${step(2, t('steps.prompt'))}${step(3, t('steps.preview'))}
  </ol>`;
}

function formValue(event: Event, name: string): string {
  const form = event.target as HTMLFormElement;
  return String(new FormData(form).get(name) ?? '');
}

function searchView(view: Extract<View, { name: 'search' }>, actions: ViewActions): TemplateResult {
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
        ? html`<p role="status" class="muted">${t('search.reading')}</p>
            ${progressBar(view.progress)}`
        : nothing
    }
    ${view.error ? html`<p role="alert" class="error">${errorText(view.error)}</p>` : nothing}`;
}

function promptView(view: Extract<View, { name: 'prompt' }>, actions: ViewActions): TemplateResult {
  const { topic } = view;
  const ready = topic.status === 'COMPLETE';
  return html`${steps(2)}
    <h2 data-topic-status=${topic.status}>
      ${topic.title ?? html`<span class="skeleton" role="img" aria-label=${t('prompt.loadingTitle')}></span>`}
    </h2>
    <p class="muted">${topic.description ?? (ready ? '' : t('search.reading'))}</p>
    ${ready ? nothing : progressBar(topic.progress)}
    <div class="thumbs">${topic.images.map((src) => html`<img src=${src} alt="" />`)}</div>
    <form
      @submit=${(event: Event) => {
        event.preventDefault();
        const data = new FormData(event.target as HTMLFormElement);
        const instructions = String(data.get('videoInstructions') ?? '');
        actions.generate({
          topicId: topic.id,
          aspectRatio: String(data.get('aspectRatio')),
          duration: Number(data.get('duration')),
          language: String(data.get('language')),
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
        ${LANGUAGES.map((v) => html`<option value=${v} ?selected=${v === 'en-US'}>${languageName(v)}</option>`)}
      </select>
      <label for="instructions">${t('prompt.instructions')}</label>
      <textarea id="instructions" name="videoInstructions" rows="2"></textarea>
      <div class="row">
        <button type="submit" ?disabled=${!ready}>${t(ready ? 'prompt.generate' : 'prompt.waiting')}</button>
      </div>
    </form>
    ${view.error ? html`<p role="alert" class="error">${errorText(view.error)}</p>` : nothing}`;
}

/**
 * The video's picture: with real media, a player of its render (the final one once it exists, the
 * preview before) with captions; with placeholder media, its thumbnail.
 */
function videoPicture(video: Video, className: string): TemplateResult | typeof nothing {
  if (!video.thumbnailURL) return nothing;
  if (!video.thumbnailURL.endsWith('/thumbnail.jpg')) {
    return html`<div class=${className}>
      <img src=${video.thumbnailURL} alt=${t('video.previewOf', { name: video.name })} />
    </div>`;
  }
  const base = video.thumbnailURL.slice(0, -'thumbnail.jpg'.length);
  const final = video.renders.some((render) => render.format === 'mp4' && render.status === 'COMPLETE');
  return html`<div class=${className}>
    <video
      controls
      preload="metadata"
      playsinline
      style="display:block;width:100%;height:auto;max-height:60vh;background:#000"
      poster=${video.thumbnailURL}
      src=${`${base}${final ? 'render.mp4' : 'preview.mp4'}?v=${encodeURIComponent(video.updatedAt)}`}
      aria-label=${t('video.label', { name: video.name, duration: formatSeconds(video.duration) })}
    >
      <track
        kind="captions"
        default
        srclang=${video.language.slice(0, 2)}
        label=${t('video.captions')}
        src=${`${base}${final ? 'captions.vtt' : 'preview.vtt'}`}
      />
    </video>
  </div>`;
}

function previewView(view: Extract<View, { name: 'preview' }>, actions: ViewActions): TemplateResult {
  const { generation, video } = view;
  const body =
    generation.status === 'FAILED'
      ? html`<p role="alert" class="error">${errorText(generation.error ?? { code: 'generation_failed' })}</p>`
      : generation.status !== 'COMPLETE' || !video
        ? html`<p role="status" data-loading>${t('preview.generating')}</p>
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

/** The scene list of the editor: each scene's picture, text, voiceover line, order. */
function scenesEditor(board: EditorBoard, actions: ViewActions): TemplateResult {
  const count = board.scenes.length;
  const disabled = !board.editable;
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

function editorView(
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
      ${view.board && view.board.scenes.length > 0 ? scenesEditor(view.board, actions) : nothing}
      <div class="row">
        <button type="submit" class="secondary" data-action="save">
          ${t(view.board?.editable ? 'editor.saveAndPreview' : 'editor.save')}
        </button>
        <button type="button" data-action="complete" ?disabled=${video.isCompleted} @click=${actions.askComplete}>
          ${t('editor.complete')}
        </button>
        <button type="button" class="secondary" data-action="exit" @click=${actions.exitEditor}>
          ${t('editor.exit')}
        </button>
      </div>
    </form>
    ${
      video.isCompleted
        ? html`<p role="status" data-render-status=${render?.status ?? 'NONE'}>
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

function signInView(view: Extract<View, { name: 'signIn' }>, actions: ViewActions): TemplateResult {
  return html`<h2>${t('signIn.heading')}</h2>
    <form
      @submit=${(event: Event) => {
        event.preventDefault();
        actions.signIn(formValue(event, 'emailAddress'));
      }}
    >
      <label for="email">${t('signIn.email')}</label>
      <input id="email" name="emailAddress" type="email" required autocomplete="email" />
      <div class="row"><button type="submit">${t('signIn.submit')}</button></div>
    </form>
    ${view.error ? html`<p role="alert" class="error">${errorText(view.error)}</p>` : nothing}`;
}

/** Renders `view` into `root`. */
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
      </div>`,
    root,
  );
}
