/**
 * The page's views, rendered with lit-html: plain, accessible, no external assets.
 */
import { html, nothing, render, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { DEFAULT_COMPLETE_VIDEO_CONFIRMATION, type HostConfig, type Video } from '../../wire/api.js';
import type { Generation, Topic } from './client.js';
import { ASPECT_RATIOS, DURATIONS, LANGUAGES } from '../../wire/api.js';

export type View =
  | { name: 'blank' }
  | { name: 'signIn'; error?: string }
  | { name: 'search'; sourceURL?: string; searching: boolean; error?: string }
  | { name: 'prompt'; topic: Topic; error?: string }
  | { name: 'preview'; generation: Generation; video?: Video }
  | { name: 'editor'; video: Video; confirming: boolean; board?: EditorBoard };

/** A scene as the editor edits it; `image` indexes `EditorBoard.images`, or is null. */
export interface SceneDraft {
  heading: string;
  body?: string;
  narration: string;
  image: number | null;
}

/** The storyboard in the editor (real media): the scenes and the topic's images to pick from. */
export interface EditorBoard {
  scenes: SceneDraft[];
  images: string[];
  editable: boolean;
}

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
    color-scheme: light;
    font:
      15px/1.5 system-ui,
      sans-serif;
    color: #0f172a;
    background: #fff;
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
    padding: 12px 20px;
    border-bottom: 1px solid #e2e8f0;
  }
  header h1 {
    font-size: 1rem;
    margin: 0;
  }
  section {
    padding: 20px;
    max-width: 760px;
    margin: 0 auto;
    width: 100%;
    box-sizing: border-box;
  }
  ol.steps {
    display: flex;
    gap: 16px;
    list-style: none;
    padding: 0;
    margin: 0 0 16px;
    color: #64748b;
    font-size: 0.85rem;
  }
  ol.steps li[aria-current='step'] {
    color: #1d4ed8;
    font-weight: 600;
  }
  label {
    display: block;
    margin: 12px 0 4px;
    font-weight: 600;
  }
  input,
  select,
  textarea {
    font: inherit;
    padding: 8px 10px;
    border: 1px solid #94a3b8;
    border-radius: 6px;
    width: 100%;
    box-sizing: border-box;
  }
  button {
    font: inherit;
    padding: 8px 16px;
    border-radius: 6px;
    border: 1px solid #1d4ed8;
    background: #1d4ed8;
    color: #fff;
    cursor: pointer;
  }
  button.secondary {
    background: #fff;
    color: #1d4ed8;
  }
  button:disabled {
    opacity: 0.6;
    cursor: progress;
  }
  .row {
    display: flex;
    gap: 12px;
    align-items: end;
    margin-top: 16px;
    flex-wrap: wrap;
  }
  .error {
    color: #b91c1c;
  }
  .muted {
    color: #64748b;
  }
  .thumbs {
    display: flex;
    gap: 8px;
    flex-wrap: wrap;
  }
  .thumbs img {
    width: 96px;
    height: 64px;
    object-fit: cover;
    border-radius: 4px;
    background: #e2e8f0;
  }
  .preview img {
    max-width: 100%;
    border-radius: 8px;
    border: 1px solid #e2e8f0;
  }
  .scenes {
    border: 1px solid #e2e8f0;
    border-radius: 8px;
    margin: 12px 0;
    padding: 8px 12px;
  }
  .scenes ol {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  .scenes li {
    display: grid;
    grid-template-columns: 96px 1fr auto;
    gap: 12px;
    align-items: start;
    padding: 8px 0;
    border-bottom: 1px solid #e2e8f0;
  }
  .scenes li img,
  .scenes .swatch {
    width: 96px;
    height: 54px;
    object-fit: cover;
    border-radius: 4px;
    background: #1e1b4b;
    display: block;
  }
  .scenes .fields input,
  .scenes .fields textarea,
  .scenes .fields select {
    width: 100%;
    box-sizing: border-box;
  }
  .skeleton {
    background: #e2e8f0;
    border-radius: 4px;
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
    background: #fff;
    border-radius: 10px;
    padding: 24px;
    max-width: 420px;
  }
</style>`;

function steps(current: 1 | 2 | 3): TemplateResult {
  const step = (n: number, label: string) =>
    html`<li aria-current=${n === current ? 'step' : 'false'}>${n}. ${label}</li>`;
  return html`<ol class="steps" aria-label="Steps">
    ${step(1, 'Source')}${step(2, 'Prompt')}${step(3, 'Preview')}
  </ol>`;
}

function formValue(event: Event, name: string): string {
  const form = event.target as HTMLFormElement;
  return String(new FormData(form).get(name) ?? '');
}

function searchView(view: Extract<View, { name: 'search' }>, actions: ViewActions): TemplateResult {
  return html`${steps(1)}
    <h2>Start from a website</h2>
    <form
      @submit=${(event: Event) => {
        event.preventDefault();
        actions.search(formValue(event, 'sourceURL'));
      }}
    >
      <label for="source-url">Website URL</label>
      <input
        id="source-url"
        name="sourceURL"
        type="url"
        required
        placeholder="https://example.com"
        .value=${view.sourceURL ?? ''}
      />
      <div class="row">
        <button type="submit" ?disabled=${view.searching}>${view.searching ? 'Searching…' : 'Search'}</button>
      </div>
    </form>
    ${view.searching ? html`<p role="status" class="muted">Reading the website…</p>` : nothing}
    ${view.error ? html`<p role="alert" class="error">${view.error}</p>` : nothing}`;
}

function promptView(view: Extract<View, { name: 'prompt' }>, actions: ViewActions): TemplateResult {
  const { topic } = view;
  const ready = topic.status === 'COMPLETE';
  return html`${steps(2)}
    <h2 data-topic-status=${topic.status}>
      ${topic.title ?? html`<span class="skeleton" aria-label="Loading the topic name"></span>`}
    </h2>
    <p class="muted">${topic.description ?? (ready ? '' : 'Reading the website…')}</p>
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
      <label for="aspect-ratio">Aspect ratio</label>
      <select id="aspect-ratio" name="aspectRatio">
        ${ASPECT_RATIOS.map((v) => html`<option>${v}</option>`)}
      </select>
      <label for="duration">Duration (seconds)</label>
      <select id="duration" name="duration">
        ${DURATIONS.map((v) => html`<option value=${v} ?selected=${v === 15}>${v}</option>`)}
      </select>
      <label for="language">Language</label>
      <select id="language" name="language">
        ${LANGUAGES.map((v) => html`<option ?selected=${v === 'en-US'}>${v}</option>`)}
      </select>
      <label for="instructions">Instructions (optional)</label>
      <textarea id="instructions" name="videoInstructions" rows="2"></textarea>
      <div class="row">
        <button type="submit" ?disabled=${!ready}>${ready ? 'Generate video' : 'Waiting for the topic…'}</button>
      </div>
    </form>
    ${view.error ? html`<p role="alert" class="error">${view.error}</p>` : nothing}`;
}

/**
 * The video's picture: with real media, a player of its render (the final one once it exists, the
 * preview before) with captions; with placeholder media, its thumbnail.
 */
function videoPicture(video: Video, className: string): TemplateResult | typeof nothing {
  if (!video.thumbnailURL) return nothing;
  if (!video.thumbnailURL.endsWith('/thumbnail.jpg')) {
    return html`<div class=${className}><img src=${video.thumbnailURL} alt=${`Preview of ${video.name}`} /></div>`;
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
      aria-label=${`${video.name}, ${video.duration} seconds`}
    >
      <track
        kind="captions"
        default
        srclang=${video.language.slice(0, 2)}
        label="Captions"
        src=${`${base}${final ? 'captions.vtt' : 'preview.vtt'}`}
      />
    </video>
  </div>`;
}

function previewView(view: Extract<View, { name: 'preview' }>, actions: ViewActions): TemplateResult {
  const { generation, video } = view;
  const body =
    generation.status === 'FAILED'
      ? html`<p role="alert" class="error">${generation.error?.message ?? 'The generation failed.'}</p>`
      : generation.status !== 'COMPLETE' || !video
        ? html`<p role="status" data-loading>Generating your video…</p>`
        : html`<figure class="preview">
              ${videoPicture(video, 'media')}
              <figcaption>${video.name} · ${video.duration} s · ${video.aspectRatio}</figcaption>
            </figure>
            <div class="row">
              <button type="button" data-action="open-editor" @click=${() => actions.openInEditor(video.id)}>
                Open in editor
              </button>
            </div>`;
  return html`${steps(3)}
    <h2 data-generation-status=${generation.status}>Your video</h2>
    ${body}`;
}

/** The scene list of the editor: each scene's picture, text, voiceover line, order. */
function scenesEditor(board: EditorBoard, actions: ViewActions): TemplateResult {
  const count = board.scenes.length;
  const disabled = !board.editable;
  return html`<fieldset class="scenes" ?disabled=${disabled}>
    <legend>Scenes${disabled ? ' (completed: read only)' : ''}</legend>
    <ol>
      ${board.scenes.map((scene, index) => {
        const id = `scene-${index}`;
        const picture = scene.image === null ? undefined : board.images[scene.image];
        return html`<li data-scene=${index}>
          ${
            picture
              ? html`<img src=${picture} alt=${`Scene ${index + 1} picture`} width="96" height="54" />`
              : html`<span class="swatch" aria-hidden="true"></span>`
          }
          <div class="fields">
            <label for=${`${id}-heading`}>Scene ${index + 1} title</label>
            <input
              id=${`${id}-heading`}
              name="heading"
              maxlength="120"
              required
              .value=${live(scene.heading)}
              @input=${(event: Event) => actions.editScene(index, { heading: (event.target as HTMLInputElement).value })}
            />
            <label for=${`${id}-body`}>Scene ${index + 1} text</label>
            <input
              id=${`${id}-body`}
              name="body"
              maxlength="300"
              .value=${live(scene.body ?? '')}
              @input=${(event: Event) => actions.editScene(index, { body: (event.target as HTMLInputElement).value })}
            />
            <label for=${`${id}-narration`}>Scene ${index + 1} voiceover</label>
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
            <label for=${`${id}-image`}>Scene ${index + 1} picture</label>
            <select
              id=${`${id}-image`}
              name="image"
              @change=${(event: Event) => {
                const value = (event.target as HTMLSelectElement).value;
                actions.editScene(index, { image: value === '' ? null : Number(value) });
              }}
            >
              <option value="" ?selected=${scene.image === null}>No picture (text on colour)</option>
              ${board.images.map(
                (_url, image) =>
                  html`<option value=${image} ?selected=${scene.image === image}>Picture ${image + 1}</option>`,
              )}
            </select>
          </div>
          <div class="row">
            <button
              type="button"
              class="secondary"
              data-move-up=${index}
              aria-label=${`Move scene ${index + 1} up`}
              ?disabled=${index === 0}
              @click=${() => actions.moveScene(index, -1)}
            >
              ↑
            </button>
            <button
              type="button"
              class="secondary"
              data-move-down=${index}
              aria-label=${`Move scene ${index + 1} down`}
              ?disabled=${index === count - 1}
              @click=${() => actions.moveScene(index, 1)}
            >
              ↓
            </button>
            <button
              type="button"
              class="secondary"
              data-remove=${index}
              aria-label=${`Remove scene ${index + 1}`}
              ?disabled=${count === 1}
              @click=${() => actions.removeScene(index)}
            >
              Remove
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
  const labels = { ...DEFAULT_COMPLETE_VIDEO_CONFIRMATION, ...Object.fromEntries(given) };
  const render = video.renders[0];
  return html`<h2>Editor</h2>
    ${videoPicture(video, 'preview')}
    <form
      @submit=${(event: Event) => {
        event.preventDefault();
        actions.save(formValue(event, 'name'));
      }}
    >
      <label for="video-name">Video name</label>
      <input id="video-name" name="name" required maxlength="200" .value=${video.name} />
      ${view.board && view.board.scenes.length > 0 ? scenesEditor(view.board, actions) : nothing}
      <div class="row">
        <button type="submit" class="secondary" data-action="save">
          ${view.board?.editable ? 'Save and preview' : 'Save'}
        </button>
        <button type="button" data-action="complete" ?disabled=${video.isCompleted} @click=${actions.askComplete}>
          Complete video
        </button>
        <button type="button" class="secondary" data-action="exit" @click=${actions.exitEditor}>Exit editor</button>
      </div>
    </form>
    ${
      video.isCompleted
        ? html`<p role="status" data-render-status=${render?.status ?? 'NONE'}>
            ${render?.status === 'COMPLETE' ? html`Rendered: <a href=${render.url ?? '#'} target="_blank" rel="noopener">${render.format}</a>` : 'Rendering…'}
          </p>`
        : nothing
    }
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
  return html`<h2>Sign in</h2>
    <form
      @submit=${(event: Event) => {
        event.preventDefault();
        actions.signIn(formValue(event, 'emailAddress'));
      }}
    >
      <label for="email">Email address</label>
      <input id="email" name="emailAddress" type="email" required autocomplete="email" />
      <div class="row"><button type="submit">Sign in</button></div>
    </form>
    ${view.error ? html`<p role="alert" class="error">${view.error}</p>` : nothing}`;
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
          <h1>AI video studio</h1>
          <div class="row" style="margin:0">
            ${
              config?.authMode === 'uncontrolled' && view.name !== 'signIn'
                ? html`<button type="button" class="secondary" @click=${actions.signOut}>Sign out</button>`
                : nothing
            }
            <button type="button" class="secondary" aria-label="Close" @click=${actions.close}>✕</button>
          </div>
        </header>
        <section>${body}</section>
      </div>`,
    root,
  );
}
