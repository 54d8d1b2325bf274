/**
 * What every screen of the studio shares: the view states, the actions, the step list, the video's picture.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { Progress, Video } from 'video-plugin/internal';
import type { EditorBoard, Generation, SceneDraft, Topic } from '../client.js';
import { formatSeconds, t } from '../i18n.js';

export type View =
  | { name: 'blank' }
  | { name: 'signIn'; error?: UserError }
  | { name: 'search'; sourceURL?: string; searching: boolean; error?: UserError; progress?: Progress }
  | { name: 'prompt'; topic: Topic; error?: UserError }
  | { name: 'preview'; generation: Generation; video?: Video }
  | {
      name: 'editor';
      video: Video;
      confirming: boolean;
      board?: EditorBoard;
      error?: UserError;
      /** The error refused the completion: the studio says the video was not completed. */
      notCompleted?: boolean;
    };

/** An error to show the user: shown by its code, in the studio's language. */
export type UserError = { code?: string } | undefined;

export interface ViewActions {
  search(sourceURL: string): void;
  generate(params: {
    topicId: string;
    aspectRatio: string;
    duration: number;
    /** None: the page's own language (the service decides). */
    language?: string;
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

/**
 * Whether the editor's scenes can change: only a video that is not completed, and only one that has
 * scenes (real media). Derived from the video the view shows (its `isCompleted`, kept current by
 * the status socket), never kept as a copy: the editor turns read only in place once the video is
 * completed, while its final render runs and after.
 */
export const scenesEditable = (view: Extract<View, { name: 'editor' }>): boolean =>
  !view.video.isCompleted && (view.board?.scenes.length ?? 0) > 0;

export function steps(current: 1 | 2 | 3): TemplateResult {
  const step = (n: number, label: string) =>
    html`<li aria-current=${n === current ? 'step' : 'false'}>${n}. ${label}</li>`;
  return html`<ol class="steps" aria-label=${t('steps.label')}>
    ${step(1, t('steps.source'))}${step(2, t('steps.prompt'))}${step(3, t('steps.preview'))}
  </ol>`;
}

export function formValue(event: Event, name: string): string {
  const form = event.target as HTMLFormElement;
  return String(new FormData(form).get(name) ?? '');
}

/**
 * The video's picture: with real media, the studio's player (player.ts) of its render (the final
 * one once it exists, the preview before) with captions on and its chapters; with placeholder
 * media, its thumbnail.
 */
export function videoPicture(video: Video, className: string): TemplateResult | typeof nothing {
  if (!video.thumbnailURL) return nothing;
  if (!video.thumbnailURL.endsWith('/thumbnail.jpg')) {
    return html`<div class=${className}>
      <img src=${video.thumbnailURL} alt=${t('video.previewOf', { name: video.name })} />
    </div>`;
  }
  const base = video.thumbnailURL.slice(0, -'thumbnail.jpg'.length);
  const finished = video.renders.find((render) => render.format === 'mp4' && render.status === 'COMPLETE');
  const final = finished !== undefined;
  // The final render's chapters where it lists them (not one made before chapters existed); the
  // preview's where the video has chapters (its storyboard's scenes).
  const chapters = final ? finished.files?.chapters?.url : video.chapters && `${base}preview-chapters.vtt`;
  return html`<div class=${className}>
    <vp-player
      .src=${`${base}${final ? 'render.mp4' : 'preview.mp4'}?v=${encodeURIComponent(video.updatedAt)}`}
      .poster=${video.thumbnailURL}
      .captions=${`${base}${final ? 'captions.vtt' : 'preview.vtt'}`}
      .chapters=${chapters}
      .language=${video.language.slice(0, 2)}
      .label=${t('video.label', { name: video.name, duration: formatSeconds(video.duration) })}
    ></vp-player>
  </div>`;
}
