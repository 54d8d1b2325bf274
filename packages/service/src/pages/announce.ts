/**
 * What the studio says to screen readers, and to the host for a page that mirrors it outside the
 * frame: the stage of the job on screen through the page's one polite live region (stage names, not
 * every percent: the text changes only when the stage does), and the error on screen through its
 * alert. Both are derived from the view, so a re-render that changes neither says nothing again.
 */
import type { Announcement } from 'video-plugin/internal';
import { errorText, t } from './i18n.js';
import type { View } from './views/common.js';

/** The stage of what the user waits for in `view`, in words; empty when nothing runs or is new. */
export function announcement(view: View): string {
  const stage = (progress: { stage: string } | undefined, fallback: string) =>
    progress ? t(`progress.${progress.stage}` as Parameters<typeof t>[0]) : fallback;
  switch (view.name) {
    case 'search':
      return view.searching ? stage(view.progress, t('search.reading')) : '';
    case 'prompt':
      return view.topic.status === 'COMPLETE'
        ? t('announce.topicReady', { title: view.topic.title ?? '' })
        : stage(view.topic.progress, t('search.reading'));
    case 'preview': {
      const { generation, video } = view;
      if (generation.status === 'FAILED') return '';
      return generation.status === 'COMPLETE' && video
        ? t('announce.videoReady')
        : stage(generation.progress, t('preview.generating'));
    }
    case 'editor': {
      const render = view.video.renders[0];
      if (!view.video.isCompleted || !render) return '';
      if (render.status === 'COMPLETE') return t('announce.rendered');
      return render.status === 'FAILED' ? '' : stage(render.progress, t('editor.rendering'));
    }
    default:
      return '';
  }
}

/** The error `view` shows in its alert, in words; empty when it shows none. */
export function alertOf(view: View): string {
  if (view.name === 'preview' && view.generation.status === 'FAILED') {
    return errorText(view.generation.error ?? { code: 'generation_failed' });
  }
  return 'error' in view && view.error ? errorText(view.error) : '';
}

let said: Record<Announcement['politeness'], string> = { polite: '', assertive: '' };

/**
 * Hands the host what `view` newly says (`announce`), once per change: the stage through the live
 * region (polite), an error through the alert (assertive).
 */
export function announceChanges(view: View, emit: (announcement: Announcement) => void): void {
  const now = { polite: announcement(view), assertive: alertOf(view) };
  for (const politeness of ['polite', 'assertive'] as const) {
    if (now[politeness] && now[politeness] !== said[politeness]) emit({ message: now[politeness], politeness });
  }
  said = now;
}
