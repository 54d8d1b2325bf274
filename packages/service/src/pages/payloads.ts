/**
 * The shape of the studio's status updates to the host: what the `Plugin`'s status callbacks and
 * iterators receive (VideoGenerationStatusUpdatePayload…). Pure functions of the API's records, in a
 * module of their own (no DOM at import), so that Node tests check them against a real service.
 */
import type { Metadata, Video } from 'video-plugin/internal';
import type { Topic } from './client.js';

/**
 * A status update for the host: the status, the error of a FAILED one, the progress, and (a
 * generation's, a render's) the partner's metadata as given.
 */
export const statusPayload = ({
  status,
  error,
  progress,
  metadata,
}: Pick<Topic, 'status' | 'error' | 'progress'> & { metadata?: Metadata | undefined }) => ({
  status,
  ...(error ? { error } : {}),
  ...(progress ? { progress } : {}),
  ...(metadata ? { metadata } : {}),
});

/**
 * A video's status updates are its final render's: PENDING until the video is completed, then the
 * render's own status and progress (a video has one render; the service moves every render together).
 */
export const renderPayload = ({ renders: [render], metadata }: Video) =>
  statusPayload({ ...(render ?? { status: 'PENDING' }), metadata });
