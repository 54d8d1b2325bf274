/** What the studio tells the host: its events, its errors, and the shape of its status updates. */
import { serializeError, type PluginEventName, type Video } from 'video-plugin/internal';
import type { Topic } from './client.js';
import { studio } from './state.js';

export function emit(name: PluginEventName, payload?: unknown): void {
  studio.log(`event ${name}`, payload);
  studio.endpoint.emit(name, payload);
}

export function reportError(error: unknown): void {
  emit('error', serializeError(error));
}

/** A status update for the host: the status, the error of a FAILED one, and the progress. */
export const statusPayload = ({ status, error, progress }: Pick<Topic, 'status' | 'error' | 'progress'>) => ({
  status,
  ...(error ? { error } : {}),
  ...(progress ? { progress } : {}),
});

/**
 * A video's status updates are its final render's: PENDING until the video is completed, then the
 * render's own status and progress (a video has one render; the service moves every render together).
 */
export const renderPayload = ({ renders: [render] }: Video) => statusPayload(render ?? { status: 'PENDING' });
