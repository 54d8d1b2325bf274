/**
 * Which view the studio shows, and the work that moves it from one to the next: a search, a
 * generation, the editor, a render followed to its end. Each view's watchers stop when it goes.
 */
import type { Video } from 'video-plugin/internal';
import { announceChanges } from './announce.js';
import type { EditorBoard, Generation, Topic } from './client.js';
import { emit, reportError } from './events.js';
import { renderPayload } from './payloads.js';
import { studio } from './state.js';
import { renderView, type UserError, type View } from './views.js';

const { api, hub } = studio;

export function show(next: View): void {
  const screen = next.name !== studio.view.name || viewKey(next) !== viewKey(studio.view);
  if (screen) {
    for (const stop of studio.stopViewWatchers) stop();
    studio.stopViewWatchers = [];
  }
  studio.view = next;
  renderView(studio.root, studio.view, studio.actions, studio.config);
  announceChanges(next, (announcement) => emit('announce', announcement));
  keepFocus(screen);
}

/**
 * Keyboard and screen reader users keep their place: on a new screen the focus moves to its
 * heading (read first, then Tab goes on from the top of the screen), and so it does on the same
 * screen when the control that had it went away or was disabled (a search's button while it runs,
 * a dialog's button once it closed). Only while the frame has the focus: a screen the host's call
 * shows does not take the focus from the partner's page.
 */
function keepFocus(screen: boolean): void {
  if (!document.hasFocus()) {
    // Shown without the focus: the frame's focus, when it comes, goes to this screen's heading.
    if (screen) headingWaits = true;
    return;
  }
  const active = document.activeElement;
  const lost = !active || active === document.body || !active.isConnected || active.matches(':disabled');
  if (screen) focusHeading();
  else if (lost) {
    // A completed video's editor: what became of the completion (its render's status), which the
    // dialog's buttons gave way to, rather than the heading.
    const status =
      studio.view.name === 'editor' ? studio.root.querySelector<HTMLElement>('[data-render-status]') : null;
    if (status) status.focus();
    else focusHeading();
  }
}

/** A screen was shown while the frame had no focus, and nothing in it has had the focus since. */
let headingWaits = false;

/**
 * The frame got the focus (window `focus`): the host's overlay gives it as it opens, which can come
 * after the first screen rendered (WebKit always; Chromium at times), and the focus would stay on
 * the body. It goes to the waiting screen's heading instead, without scrolling (a click into the
 * frame fires this first, and a scroll would move the page under the pointer; the click then
 * focuses what it hit). app.ts listens.
 */
export function frameFocused(): void {
  if (headingWaits && document.activeElement === document.body) focusHeading({ preventScroll: true });
  headingWaits = false;
}

/** Something in the page took the focus (`focusin`): no heading waits for it any more. */
export function focusTaken(event: FocusEvent): void {
  if (event.target !== document.body) headingWaits = false;
}

/** Gives the focus to the screen's heading, if it shows one. */
function focusHeading(options?: FocusOptions): void {
  headingWaits = false;
  const heading = studio.view.name === 'blank' ? null : studio.root.querySelector<HTMLElement>('section h2');
  if (!heading) return;
  heading.tabIndex = -1;
  heading.focus(options);
}

function viewKey(v: View): string {
  switch (v.name) {
    case 'prompt':
      return v.topic.id;
    case 'preview':
      return v.generation.requestId;
    case 'editor':
      return v.video.id;
    default:
      return '';
  }
}

/** Emits `videoCompleted` now and `videoRendered` once the video's render has finished. */
export function followRender(video: Video): void {
  emit('videoCompleted', video);
  const stop = hub.watch('video', video.id, (latest) => {
    if (renderPayload(latest).status === 'COMPLETE') {
      stop();
      emit('videoRendered', latest);
      const { view } = studio;
      if (view.name === 'editor' && view.video.id === latest.id) show({ ...view, video: latest });
    }
  });
}

export function showPrompt(topic: Topic): void {
  show({ name: 'prompt', topic });
  studio.stopViewWatchers.push(
    hub.watch('topic', topic.id, (latest) => {
      const { view } = studio;
      if (view.name === 'prompt' && view.topic.id === latest.id) show({ ...view, topic: latest });
    }),
  );
}

export function showPreview(generation: Generation): void {
  show({ name: 'preview', generation });
  const update = (patch: Partial<Extract<View, { name: 'preview' }>>): void => {
    const { view } = studio;
    if (view.name === 'preview' && view.generation.requestId === generation.requestId) show({ ...view, ...patch });
  };
  studio.stopViewWatchers.push(
    hub.watch('generation', generation.requestId, (latest) => {
      update({ generation: latest });
      if (latest.status === 'COMPLETE') void api.video(latest.videoId).then((video) => update({ video }), reportError);
    }),
  );
}

/**
 * Opens the editor on a video with its scenes: the one way in, whether the user clicked "Open in
 * editor" in the AI page or the partner called `openEditorForVideo` (a partner's Edit button).
 */
export async function openEditor(videoId: string): Promise<Video> {
  const [video, board] = await Promise.all([api.video(videoId), api.storyboard(videoId)]);
  showEditor(video, board);
  return video;
}

function showEditor(video: Video, board?: EditorBoard): void {
  show({ name: 'editor', video, confirming: false, ...(board ? { board } : {}) });
  // The video changes under the editor (a preview made again after a save, a render): show it.
  studio.stopViewWatchers.push(
    hub.watch('video', video.id, (latest) => {
      const { view } = studio;
      if (view.name === 'editor' && view.video.id === latest.id) show({ ...view, video: latest });
    }),
  );
}

/** Shows `patch` in the editor, if it still shows the video `videoId`. */
export function showInEditor(videoId: string, patch: Partial<Extract<View, { name: 'editor' }>>): void {
  const { view } = studio;
  if (view.name === 'editor' && view.video.id === videoId) show({ ...view, ...patch });
}

/**
 * An editor action the service refused: shown in the studio in its language (by the error's code),
 * and sent to the page as `error` with the technical message. `notCompleted`: the action was the
 * completion, which the studio says was not done.
 */
export function refused(videoId: string, error: unknown, notCompleted = false): void {
  showInEditor(videoId, { error: error as UserError, notCompleted, confirming: false });
  reportError(error);
}

export async function startSearch(sourceURL: string): Promise<void> {
  show({ name: 'search', sourceURL, searching: true });
  try {
    const { topicId } = await api.startTopicSearch(sourceURL);
    const stop = hub.watch('topic', topicId, (topic) => {
      const { view } = studio;
      if (view.name !== 'search' || view.sourceURL !== sourceURL) return stop();
      if (topic.status === 'FAILED') {
        stop();
        show({ name: 'search', sourceURL, searching: false, error: topic.error ?? {} });
      } else if (topic.status === 'PROCESSING' || topic.status === 'COMPLETE') {
        stop();
        showPrompt(topic);
      } else {
        show({ name: 'search', sourceURL, searching: true, ...(topic.progress ? { progress: topic.progress } : {}) });
      }
    });
    studio.stopViewWatchers.push(stop);
  } catch (error) {
    show({ name: 'search', sourceURL, searching: false, error: error as UserError });
  }
}

export async function startGeneration(
  params: unknown,
  idempotencyKey?: string,
): Promise<{ requestId: string; videoId: string; topicId: string }> {
  const { replayed, ...started } = await api.startGeneration(params, idempotencyKey);
  // A repeated idempotency key answers the generation it started before: its video is not new.
  if (!replayed) void api.video(started.videoId).then((video) => emit('videoCreated', video), reportError);
  return started;
}
