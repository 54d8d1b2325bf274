/** What the user does in the studio's views: each action the views call (`ViewActions`). */
import { INTERNAL_EVENTS } from 'video-plugin/internal';
import { emit, reportError } from './events.js';
import {
  followRender,
  openEditor,
  refused,
  show,
  showInEditor,
  showPreview,
  startGeneration,
  startSearch,
} from './navigation.js';
import { endSession, setSession } from './session.js';
import { studio } from './state.js';
import type { UserError, ViewActions } from './views.js';
import { scenesEditable } from './views/common.js';

const { api } = studio;

/** Gives the focus to `selector`, a control that is there after the render that just ran. */
const focusOn = (selector: string): void => document.querySelector<HTMLElement>(selector)?.focus();

export const actions: ViewActions = {
  search: (sourceURL) => void startSearch(sourceURL),
  generate: async (params) => {
    try {
      const started = await startGeneration(params);
      showPreview(await api.generation(started.requestId));
    } catch (error) {
      if (studio.view.name === 'prompt') show({ ...studio.view, error: error as UserError });
    }
  },
  openInEditor: async (videoId) => {
    try {
      emit('editorOpened', await openEditor(videoId));
    } catch (error) {
      reportError(error);
    }
  },
  save: async (name) => {
    const { view } = studio;
    if (view.name !== 'editor') return;
    const { video: editing, board } = view;
    try {
      const scenes = scenesEditable(view) ? board?.scenes : undefined;
      const video = await api.saveVideo(editing.id, { name, ...(scenes ? { scenes } : {}) });
      showInEditor(video.id, { video, error: undefined, notCompleted: false });
      emit('videoSaved', video);
    } catch (error) {
      refused(editing.id, error);
    }
  },
  editScene: (index, patch) => {
    const { view } = studio;
    if (view.name !== 'editor' || !view.board || !scenesEditable(view)) return;
    // Typing changes the scene in place: no re-render, the input already shows it.
    Object.assign(view.board.scenes[index] ?? {}, patch);
    if ('image' in patch) show({ ...view });
  },
  moveScene: (index, by) => {
    const { view } = studio;
    if (view.name !== 'editor' || !view.board || !scenesEditable(view)) return;
    const scenes = [...view.board.scenes];
    const [scene] = scenes.splice(index, 1);
    if (!scene) return;
    scenes.splice(Math.max(0, Math.min(scenes.length, index + by)), 0, scene);
    show({ ...view, board: { ...view.board, scenes } });
    // Keyboard users keep their place: focus follows the moved scene, on the same button, or on the
    // other one when the scene reached the end it was moving to (that button is then disabled).
    const target = Math.max(0, Math.min(scenes.length - 1, index + by));
    const same = document.querySelector<HTMLButtonElement>(`[data-move-${by < 0 ? 'up' : 'down'}="${target}"]`);
    const other = document.querySelector<HTMLButtonElement>(`[data-move-${by < 0 ? 'down' : 'up'}="${target}"]`);
    (same && !same.disabled ? same : other)?.focus();
  },
  removeScene: (index) => {
    const { view } = studio;
    if (view.name !== 'editor' || !view.board || !scenesEditable(view) || view.board.scenes.length <= 1) return;
    const scenes = view.board.scenes.filter((_, i) => i !== index);
    show({ ...view, board: { ...view.board, scenes } });
    document.querySelector<HTMLElement>(`#scene-${Math.min(index, scenes.length - 1)}-heading`)?.focus();
  },
  askComplete: () => {
    const { view } = studio;
    if (view.name !== 'editor') return;
    if (studio.config?.completeVideoConfirmation?.shouldShow) {
      show({ ...view, confirming: true });
      // The dialog takes the focus on its safe choice: Enter at once does not complete the video.
      document.querySelector<HTMLElement>('[role="dialog"] [data-cancel]')?.focus();
    } else void actions.complete();
  },
  cancelComplete: () => {
    if (studio.view.name !== 'editor') return;
    show({ ...studio.view, confirming: false });
    focusOn('[data-action="complete"]');
  },
  complete: async () => {
    const { view } = studio;
    if (view.name !== 'editor') return;
    const { id } = view.video;
    // What the editor shows is what the final render shows: the name and scenes not saved yet go
    // with the completion, saved with it or (refused) neither saved nor completed.
    const name = studio.root.querySelector<HTMLInputElement>('#video-name')?.value;
    const scenes = scenesEditable(view) ? view.board?.scenes : undefined;
    try {
      const video = await api.completeVideo(id, {
        ...(name !== undefined ? { name } : {}),
        ...(scenes ? { scenes } : {}),
      });
      showInEditor(id, { video, confirming: false, error: undefined, notCompleted: false });
      // The button that opened the dialog is disabled now: the focus goes to what became of it.
      focusOn('[data-render-status]');
      followRender(video);
      // The scenes as the service saved them (trimmed, with their sources): what the final render shows.
      void api.storyboard(id).then((board) => showInEditor(id, { board }), reportError);
    } catch (error) {
      // The edits stay on screen, to be put right and completed again.
      refused(id, error, true);
      focusOn('[data-action="complete"]');
    }
  },
  exitEditor: () => {
    show({ name: 'blank' });
    emit('editorExited');
  },
  close: () => {
    show({ name: 'blank' });
    studio.endpoint.emit(INTERNAL_EVENTS.closed);
  },
  signIn: async (emailAddress) => {
    try {
      const result = await api.signInUncontrolled(emailAddress);
      setSession(result.session, result.account.id);
      show({ name: 'search', searching: false });
    } catch (error) {
      show({ name: 'signIn', error: error as UserError });
    }
  },
  signOut: async () => {
    await endSession();
    show({ name: 'signIn' });
  },
};
