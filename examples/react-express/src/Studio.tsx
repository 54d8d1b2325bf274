// The studio's route: <video-plugin> in React 19, the sign-in lifecycle, the job (job.ts) and the
// player.
//
// The sign-in follows the element's `ready` event, every time it fires: the first connection,
// after the end user pressed "Try again" on the failure panel, after a new configuration, and
// after this route mounts the element again. Each of those studios starts with nobody signed in;
// an effect on mount would sign in once and leave the app disabled after a retry.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import 'video-plugin/element'; // registers <video-plugin>
import type { VideoPluginElement } from 'video-plugin/element';
import type {} from 'video-plugin/element/react'; // JSX types of <video-plugin>
import { DestroyedError, type Account, type Progress, type Video } from 'video-plugin';
import { fetchToken, type Config, type User } from './api.js';
import { advance, newJob, type Job } from './job.js';

interface Props {
  config: Config;
  user: User;
  job: Job | undefined;
  setJob: (update: (job: Job | undefined) => Job | undefined) => void;
}

export function Studio({ config, user, job, setJob }: Props) {
  const studio = useRef<VideoPluginElement>(null);
  const [account, setAccount] = useState<Account>();
  const [message, setMessage] = useState('Connecting to the studio…');
  const [progress, setProgress] = useState<{ what: string; progress: Progress | undefined }>();
  const [video, setVideo] = useState<Video>();

  async function signIn() {
    const element = studio.current;
    if (!element) return;
    setAccount(undefined);
    try {
      // Sign in, or sign up on the first visit: the same token and call.
      const signedIn = await element.loginAccount(await fetchToken(user));
      // A newer studio (a retry, a remount) signs itself in.
      if (studio.current !== element) return;
      setAccount(signedIn);
      setMessage(`Signed in to the studio as ${signedIn.firstName || user.userID} (account ${signedIn.id}).`);
    } catch (error) {
      if (studio.current === element) setMessage(`Could not sign in: ${(error as Error).message}`);
    }
  }

  // Follows the job on this studio once it is signed in; unmounting stops following, not the job.
  // Keyed on the job's ID: the IDs it saves along the way do not start it again.
  const jobID = job?.phase === 'searching' || job?.phase === 'generating' ? job.id : undefined;
  useEffect(() => {
    const element = studio.current;
    if (!account || !element || !job || !jobID) return;
    const controller = new AbortController();
    const save = (changes: Partial<Job>) =>
      setJob((current) => (current?.id === jobID ? { ...current, ...changes } : current));
    advance(element, job, save, (what, update) => setProgress({ what, progress: update }), controller.signal).catch(
      (error: unknown) => {
        // This studio went away (the route unmounted it; a retry or a new configuration replaced
        // it): the job goes on at the service and the next studio picks it up. React runs this
        // cleanup after the element has left the page, so its DestroyedError can come first.
        if (controller.signal.aborted || !element.isConnected || error instanceof DestroyedError) return;
        save({ phase: 'failed', error: (error as Error).message });
      },
    );
    return () => controller.abort();
    // Only a new sign-in or a new job starts following; `job` is read as it was then.
  }, [account, jobID]);

  function makeVideo(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const sourceURL = String(new FormData(event.currentTarget).get('sourceURL'));
    setVideo(undefined);
    setProgress(undefined);
    setJob(() => newJob(sourceURL));
  }

  async function edit() {
    if (!job?.videoId) return;
    try {
      await studio.current!.openEditorForVideo(job.videoId);
      setMessage('Editing. "Complete video" in the editor publishes it.');
    } catch (error) {
      setMessage(`Could not open the editor: ${(error as Error).message}`);
    }
  }

  const busy = job?.phase === 'searching' || job?.phase === 'generating';
  const fraction = progress?.progress?.fraction ?? 0;
  const eta =
    progress?.progress?.etaMs === undefined ? '' : `, about ${Math.ceil(progress.progress.etaMs / 1000)} s left`;
  const render = video?.renders.find((candidate) => candidate.status === 'COMPLETE' && candidate.files);

  return (
    <>
      <p role="status">{message}</p>

      <form onSubmit={makeVideo}>
        <label>
          Your website{' '}
          <input
            name="sourceURL"
            type="url"
            required
            defaultValue={new URL('/sample-business.html', location.href).href}
          />
        </label>
        {/* Enabled once signed in: a click before that would find nobody to start the search for. */}
        <button disabled={!account || busy}>Make a video</button>
      </form>

      {busy && (
        <div id="progress">
          <progress max={1} value={fraction} aria-describedby="progress-text" />
          <span id="progress-text">
            {progress
              ? `${progress.what}: ${progress.progress?.stage.replaceAll('_', ' ') ?? 'starting'} ${Math.round(fraction * 100)} %${eta}`
              : 'Starting…'}
          </span>
        </div>
      )}
      {job?.phase === 'failed' && <p className="alert">Could not make the video: {job.error}</p>}
      {job?.phase === 'ready' && !video && (
        <p>
          Your video is ready: edit it, then complete it to publish it.{' '}
          <button type="button" disabled={!account} onClick={edit}>
            Edit
          </button>
        </p>
      )}

      {render?.files && video && (
        <section aria-labelledby="player-title">
          <h2 id="player-title">Your video</h2>
          <video
            controls
            crossOrigin="anonymous"
            playsInline
            src={render.files.video.url}
            poster={render.files.poster.url}
            aria-label={render.altText ?? video.name}
          >
            {render.files.captions && (
              <track
                kind="captions"
                label="Captions"
                srcLang={render.files.captions.language}
                src={render.files.captions.url}
                default
              />
            )}
          </video>
          <p>&ldquo;{video.name}&rdquo; is published.</p>
        </section>
      )}

      {/* The studio: the AI page and the editor, as tall as their content. */}
      <video-plugin
        ref={studio}
        partner-id={config.partnerID}
        service-url={config.serviceURL}
        height="auto"
        // Where the browser gives the studio's frame no storage, a reload of the frame loses the
        // session: the element signs the same user back in with a fresh token.
        getLoginToken={() => fetchToken(user)}
        onready={signIn}
        // A fault: the element shows the end user its own panel (with "Try again" where a retry can
        // help); the developer's message, with the fix, is the event's detail (and in the console).
        onerror={(event) => {
          setAccount(undefined);
          setMessage(`The studio reported a problem: ${event.detail.message}`);
        }}
        onsessionLost={() => {
          setAccount(undefined);
          setMessage('The studio lost its session: reload the page to sign in again.');
        }}
        onvideoCompleted={() => setMessage('Completed: rendering the final video…')}
        onvideoRendered={(event) => {
          setVideo(event.detail);
          setMessage(`"${event.detail.name}" is published.`);
        }}
      />
    </>
  );
}
