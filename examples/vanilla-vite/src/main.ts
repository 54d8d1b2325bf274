// The partner's page: signs the user in to the studio (or up, on their first visit), makes a video
// from their website with a progress bar, opens it in the editor, and plays the finished video with
// its captions and transcript.
import 'video-plugin/element';
import type { VideoPluginElement } from 'video-plugin/element';
import type { Progress, Video } from 'video-plugin';

const $ = <T extends HTMLElement>(selector: string): T => document.querySelector<T>(selector)!;
const studio = $<VideoPluginElement>('#studio');
const status = $<HTMLParagraphElement>('#status');
const signIn = $<HTMLFormElement>('#sign-in');
const create = $<HTMLFormElement>('#create');
const sourceURL = $<HTMLInputElement>('#create input[name="sourceURL"]');
const progress = $<HTMLDivElement>('#progress');
const bar = $<HTMLProgressElement>('#progress-bar');
const progressText = $<HTMLSpanElement>('#progress-text');
const edit = $<HTMLButtonElement>('#edit');
const player = $<HTMLElement>('#player');

// The partner ID and the service's URL come from the back end, which signs the tokens with them.
const config = (await (await fetch('/api/config')).json()) as { partnerID: string; serviceURL: string };
studio.setAttribute('partner-id', config.partnerID);
studio.setAttribute('service-url', config.serviceURL);

/** A "sign in or sign up" token for the user, from our back end. */
async function token(user: Record<string, string>): Promise<string> {
  const response = await fetch('/api/video-plugin-token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  });
  if (!response.ok) throw new Error(`The token endpoint answered ${response.status}.`);
  return ((await response.json()) as { token: string }).token;
}

/** Shows a job's progress: the bar is the share of the whole job, the text its stage and ETA. */
function show(what: string, update: Progress | undefined): void {
  progress.hidden = false;
  bar.value = update?.fraction ?? 0;
  const eta = update?.etaMs === undefined ? '' : `, about ${Math.ceil(update.etaMs / 1000)} s left`;
  progressText.textContent = `${what}: ${update?.stage.replaceAll('_', ' ') ?? 'starting'} ${Math.round(bar.value * 100)} %${eta}`;
}

signIn.addEventListener('submit', async (event) => {
  event.preventDefault();
  const user = Object.fromEntries(new FormData(signIn)) as Record<string, string>;
  try {
    // The same call on the first visit (the account is created) and on every later one.
    const account = await studio.loginAccount(await token(user));
    // Where the browser gives the studio's frame no storage, a reload of the frame loses the
    // session: the element signs the same user back in with a fresh token.
    studio.getLoginToken = () => token(user);
    status.textContent = `Signed in to the studio as ${account.firstName || user.userID} (account ${account.id}).`;
    create.hidden = false;
  } catch (error) {
    status.textContent = `Could not sign in: ${(error as Error).message}`;
  }
});

let videoID: string | undefined;
// A sample website to start from (yours would be the user's own).
sourceURL.value ||= new URL('/sample-business.html', location.href).href;
create.addEventListener('submit', async (event) => {
  event.preventDefault();
  const button = create.querySelector('button')!;
  button.disabled = true;
  edit.hidden = true;
  try {
    const { topicId } = await studio.startTopicSearch(sourceURL.value);
    status.textContent = 'Reading your website…';
    for await (const update of studio.topicSearchStatus(topicId)) {
      show('Reading your website', update.progress);
      if (update.status === 'FAILED') throw new Error(update.error?.message ?? 'the search failed');
    }
    const started = await studio.startVideoGeneration({ topicId, aspectRatio: '16:9', duration: 5 });
    status.textContent = 'Making your video…';
    for await (const update of studio.videoGenerationStatus(started.requestId)) {
      show('Making your video', update.progress);
      if (update.status === 'FAILED') throw new Error(update.error?.message ?? 'the generation failed');
    }
    videoID = started.videoId;
    status.textContent = 'Your video is ready: edit it, then complete it to publish it.';
    edit.hidden = false;
  } catch (error) {
    status.textContent = `Could not make the video: ${(error as Error).message}`;
  } finally {
    button.disabled = false;
  }
});

edit.addEventListener('click', async () => {
  if (!videoID) return;
  try {
    await studio.openEditorForVideo(videoID);
    status.textContent = 'Editing. "Complete video" in the editor publishes it.';
  } catch (error) {
    status.textContent = `Could not open the editor: ${(error as Error).message}`;
  }
});

studio.addEventListener('videoCompleted', () => {
  status.textContent = 'Completed: rendering the final video…';
});

// The finished video: everything the player needs is in the event's payload.
studio.addEventListener('videoRendered', (event) => {
  const video: Video = event.detail;
  const render = video.renders.find((candidate) => candidate.status === 'COMPLETE' && candidate.files);
  if (!render?.files) return;
  const { files } = render;
  const element = player.querySelector('video')!;
  element.src = files.video.url;
  element.poster = files.poster.url;
  element.setAttribute('aria-label', render.altText ?? video.name);
  element.querySelector('track')?.remove();
  if (files.captions) {
    const track = Object.assign(document.createElement('track'), {
      kind: 'captions',
      label: 'Captions',
      srclang: files.captions.language,
      src: files.captions.url,
      default: true,
    });
    element.append(track);
  }
  const transcript = player.querySelector('#transcript')!;
  transcript.textContent = '';
  if (files.transcript) {
    fetch(files.transcript.url)
      .then((response) => response.text())
      .then((text) => (transcript.textContent = text))
      .catch(() => (transcript.textContent = 'The transcript could not be loaded.'));
  }
  player.hidden = false;
  status.textContent = `"${video.name}" is published.`;
});
