// The partner demo page: every method of <video-plugin> behind a button, every event and status
// update in the log. Tokens come from this site's own server (/api/tokens/...), which signs them
// with video-plugin/server: the partner secret never reaches the browser.
/* global fetch, localStorage, performance, FormData, Option, navigator, getSelection */

const { EVENT_NAMES, LANGUAGES, version } = window.VideoPlugin;
const studio = document.getElementById('studio');
const $ = (id) => document.getElementById(id);
const value = (id) => $(id).value.trim();

// ---- The log ----

/** Adds one line to the log: kind is event, status, call, error or info. */
function log(kind, name, detail, note = '') {
  const item = document.createElement('li');
  item.className = `entry ${kind}`;
  const head = document.createElement('div');
  const time = new Date().toLocaleTimeString(undefined, { hour12: false });
  head.innerHTML = `<time></time> <span class="kind"></span> <strong></strong> <span class="note"></span>`;
  head.querySelector('time').textContent = time;
  head.querySelector('.kind').textContent = kind;
  head.querySelector('strong').textContent = name;
  head.querySelector('.note').textContent = note;
  item.append(head);
  const text = describe(detail);
  if (text !== undefined) {
    const pre = document.createElement('pre');
    pre.textContent = text;
    item.append(pre);
  }
  $('log').prepend(item);
  return item;
}

function describe(detail) {
  if (detail === undefined || detail === null) return undefined;
  if (detail instanceof Error) {
    return `${detail.name} (${detail.code ?? 'no code'}): ${detail.message}`;
  }
  return JSON.stringify(detail, null, 2);
}

$('clear-log').addEventListener('click', () => $('log').replaceChildren());

/** Runs a method of the element, logging its result or its error. */
async function call(name, run) {
  const started = performance.now();
  try {
    const result = await run();
    log('call', name, result, `${Math.round(performance.now() - started)} ms`);
    return result;
  } catch (error) {
    log('error', name, error, `${Math.round(performance.now() - started)} ms`);
    return undefined;
  }
}

async function post(path, body) {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw Object.assign(new Error(json.error?.message ?? response.statusText), json.error);
  return json.token;
}

// ---- Session state shown above the buttons ----

function showSession(text) {
  $('session').textContent = text;
}

function signedIn(accountID) {
  $('account-id').value = accountID;
  localStorage.setItem('video-plugin-demo:accountID', accountID);
  showSession(`Logged in as account ${accountID}.`);
}

// ---- Events: every one of them, straight from the element ----

function onEvent(name, payload) {
  log(name === 'error' || name.endsWith('Failed') ? 'error' : 'event', name, payload);
  if (['videoCreated', 'videoSaved', 'videoCompleted', 'videoRendered'].includes(name)) void listVideos(false);
  if (name === 'editorOpened') $('video-id').value = payload.id;
}

// Two ways to listen, switchable in the log's header: DOM events (payload in event.detail), or the
// element's on()/off() (payload as the argument; off() removes by reference).
const domListeners = EVENT_NAMES.map((name) => [name, (event) => onEvent(name, event.detail)]);
const onListeners = EVENT_NAMES.map((name) => [name, (payload) => onEvent(name, payload)]);

function listenWith(how) {
  for (const [name, listener] of domListeners) studio.removeEventListener(name, listener);
  for (const [name, listener] of onListeners) studio.off(name, listener);
  if (how === 'on') for (const [name, listener] of onListeners) studio.on(name, listener);
  else for (const [name, listener] of domListeners) studio.addEventListener(name, listener);
}

listenWith('dom');
$('listen-with').addEventListener('change', (event) => {
  listenWith(event.target.value);
  log(
    'info',
    'listening',
    undefined,
    event.target.value === 'on' ? 'with on() (off() removed the others)' : 'with addEventListener',
  );
});
document.addEventListener('securitypolicyviolation', (event) =>
  log('error', 'Content-Security-Policy', { blocked: event.blockedURI, directive: event.violatedDirective }),
);

// ---- Configuration: attributes of the element ----

const form = $('config');
const server = await (await fetch('/api/config')).json();

function applyConfig(initial = false) {
  const data = new FormData(form);
  const set = (attribute, text) => (text ? studio.setAttribute(attribute, text) : studio.removeAttribute(attribute));
  studio.setAttribute('partner-id', server.partnerID);
  set('auth-mode', data.get('authMode'));
  set('environment', data.get('environment'));
  set('service-url', String(data.get('serviceURL') ?? '').trim());
  studio.toggleAttribute('debug', data.get('debug') === 'on');
  const attributes = [...studio.attributes]
    .filter((attribute) => attribute.name !== 'id')
    .map((attribute) => (attribute.value === '' ? attribute.name : `${attribute.name}="${attribute.value}"`));
  log('info', initial ? 'configured' : 'reconfigured', undefined, `<video-plugin ${attributes.join(' ')}>`);
  if (!initial) showSession('New configuration: a new session started (not logged in).');
  showEmbedCode(data);
}

// ---- Embed code: the snippets for the configuration above ----

/** The two snippets of README "Embed it in any page", for this configuration and this server. */
function embedSnippets(data) {
  const script = `<script src="${server.cdn.url}" integrity="${server.cdn.integrity}" crossorigin="anonymous" defer></script>`;
  const config = [
    ['partner-id', server.partnerID],
    ['auth-mode', data.get('authMode')],
    ['environment', data.get('environment')],
    ['service-url', String(data.get('serviceURL') ?? '').trim()],
  ].filter(([, text]) => text);
  const debug = data.get('debug') === 'on';
  const attributes = (prefix) =>
    [...config.map(([name, text]) => `${prefix}${name}="${text}"`), ...(debug ? [`${prefix}debug`] : [])].join(' ');
  // Uncontrolled mode signs users in inside the studio, so a launcher is all a page needs; JWT mode
  // needs the page's code to log a user in before the studio opens.
  const jwt = data.get('authMode') !== 'uncontrolled';
  const openOn = jwt ? 'none' : 'click';
  // The markup names no service and no debug output: those are the site-wide <script>'s (a CMS
  // author's markup cannot choose them), on its tag.
  const serviceURL = config.find(([name]) => name === 'service-url')?.[1];
  const siteScript = script.replace(
    ' defer>',
    `${serviceURL ? ` data-service-url="${serviceURL}"` : ''}${debug ? ' data-debug' : ''} defer>`,
  );
  const markupAttributes = config
    .filter(([name]) => name !== 'service-url')
    .map(([name, text]) => `data-${name}="${text}"`)
    .join(' ');
  const markup = `${siteScript}\n\n<div data-video-plugin ${markupAttributes} data-open-on="${openOn}" data-height="640px"></div>`;
  const element = `${script}

<video-plugin id="video-studio" ${attributes('')} style="height: 640px">
  <button type="button" id="video-studio-start">Create a video</button>
</video-plugin>

<script>
  const studio = document.getElementById('video-studio');${
    jwt
      ? `
  // JWT mode: log a user in first, with a token from your server:
  // await studio.loginAccount(await (await fetch('/your/token/endpoint')).text());`
      : ''
  }
  document.getElementById('video-studio-start').addEventListener('click', () => studio.openPlugin());
  studio.addEventListener('videoCreated', (event) => console.log('New video:', event.detail.name));
</script>`;
  return { markup, element };
}

function showEmbedCode(data) {
  const { markup, element } = embedSnippets(data);
  $('embed-markup').textContent = markup;
  $('embed-element').textContent = element;
}

for (const button of document.querySelectorAll('#embed-code .copy')) {
  button.addEventListener('click', async () => {
    const text = $(button.dataset.copy).textContent;
    try {
      await navigator.clipboard.writeText(text);
      $('copy-status').textContent = 'Copied.';
    } catch {
      // No clipboard access (permissions, an old browser): select the text for Ctrl+C instead.
      getSelection().selectAllChildren($(button.dataset.copy));
      $('copy-status').textContent = 'Selected: press Ctrl+C (or ⌘C) to copy.';
    }
  });
}

form.elements.serviceURL.value = server.serviceURL;
form.addEventListener('submit', (event) => {
  event.preventDefault();
  applyConfig();
});
applyConfig(true);
$('sdk-version').textContent = `v${version}`;

// ---- Integration check: video-plugin/diagnose, loaded on the first click ----

$('run-diagnose').addEventListener('click', async () => {
  $('run-diagnose').disabled = true;
  $('diagnose-status').textContent = 'checking…';
  delete $('diagnose-status').dataset.status;
  try {
    const { diagnose } = await import('/vendor/video-plugin-diagnose.module.min.js');
    // The element gives its partner ID, service and auth mode; print: the console table too.
    const report = await diagnose(studio, { print: true });
    const rows = report.checks.map((check) => {
      const row = document.createElement('tr');
      row.dataset.check = check.id;
      const id = document.createElement('td');
      id.textContent = check.id;
      const status = document.createElement('td');
      status.textContent = check.status;
      status.dataset.status = check.status;
      const message = document.createElement('td');
      message.textContent = check.message;
      if (check.fix) {
        const fix = document.createElement('code');
        fix.textContent = check.fix;
        message.append(fix);
      }
      row.append(id, status, message);
      return row;
    });
    $('diagnosis').tBodies[0].replaceChildren(...rows);
    $('diagnosis').hidden = false;
    const count = (status) => report.checks.filter((check) => check.status === status).length;
    const summary = `${report.status}: ${count('error')} error(s), ${count('warning')} warning(s), ${report.ms} ms`;
    $('diagnose-status').textContent = summary;
    $('diagnose-status').dataset.status = report.status;
    log(report.status === 'error' ? 'error' : 'info', 'diagnose', undefined, summary);
  } catch (error) {
    $('diagnose-status').textContent = '';
    log('error', 'diagnose', error);
  } finally {
    $('run-diagnose').disabled = false;
  }
});

// ---- Accounts ----

$('external-id').value = `acme-user-${Math.random().toString(36).slice(2, 8)}`;
$('account-id').value = localStorage.getItem('video-plugin-demo:accountID') ?? '';

$('create-account').addEventListener('click', async () => {
  const account = {
    externalID: value('external-id'),
    firstName: value('first-name'),
    lastName: value('last-name'),
    emailAddress: value('email'),
  };
  const accountID = await call('createAccount', async () =>
    studio.createAccount(await post('/api/tokens/create', { account })),
  );
  if (accountID) signedIn(accountID);
});

$('login-external').addEventListener('click', async () => {
  const token = () => post('/api/tokens/login', { externalID: value('external-id') });
  const account = await call('loginAccount', async () => studio.loginAccount(await token()));
  if (account) signedIn(account.id);
});

$('login-account').addEventListener('click', async () => {
  const token = () => post('/api/tokens/login', { accountID: value('account-id') });
  const account = await call('loginAccount', async () => studio.loginAccount(await token()));
  if (account) signedIn(account.id);
});

$('logout').addEventListener('click', async () => {
  await call('logoutAccount', () => studio.logoutAccount());
  showSession('Not logged in.');
});

$('account-info').addEventListener('click', () => call('getAccountInfo', () => studio.getAccountInfo()));

$('update-account').addEventListener('click', () =>
  call('updateAccountInfo', () =>
    studio.updateAccountInfo({
      firstName: value('first-name'),
      lastName: value('last-name'),
      emailAddress: value('email'),
    }),
  ),
);

// ---- Background actions, followed live ----

$('source-url').value = server.sampleSourceURL;
$('sample-link').href = server.sampleSourceURL;
for (const language of LANGUAGES) $('language').append(new Option(language, language, false, language === 'en-US'));

/**
 * Subscribes to a status stream, showing each update in `statusId` and in the log, and its
 * progress (`{ stage, fraction, etaMs? }`) in the `<progress>` and text beside it.
 */
function follow(kind, id, subscribe, statusId) {
  const bar = $(statusId.replace('status', 'progress'));
  const text = $(statusId.replace('status', 'progress-text'));
  const unsubscribe = subscribe(id, (payload) => {
    $(statusId).textContent = payload.status;
    $(statusId).dataset.status = payload.status;
    const { progress } = payload;
    bar.hidden = !progress;
    if (progress) {
      const eta = progress.etaMs === undefined ? '' : ` · about ${Math.ceil(progress.etaMs / 1000)} s left`;
      bar.value = progress.fraction;
      text.textContent = `${progress.stage} · ${Math.round(progress.fraction * 100)} %${eta}`;
      bar.setAttribute('aria-valuetext', text.textContent);
      bar.dataset.stage = progress.stage;
    }
    log(payload.status === 'FAILED' ? 'error' : 'status', `${kind} ${id}`, payload);
    if (payload.status === 'COMPLETE' || payload.status === 'FAILED') unsubscribe();
  });
}

$('start-search').addEventListener('click', async () => {
  const started = await call('startTopicSearch', () => studio.startTopicSearch(value('source-url')));
  if (!started) return;
  $('topic-id').value = started.topicId;
  follow(
    'topic search',
    started.topicId,
    (id, cb) => studio.subscribeToTopicSearchStatusUpdates(id, cb),
    'search-status',
  );
});

$('start-generation').addEventListener('click', async () => {
  const params = {
    topicId: value('topic-id'),
    aspectRatio: value('aspect-ratio'),
    duration: Number(value('duration')),
    language: value('language'),
    ...(value('instructions') ? { videoInstructions: value('instructions') } : {}),
  };
  const started = await call('startVideoGeneration', () => studio.startVideoGeneration(params));
  if (!started) return;
  $('request-id').value = started.requestId;
  $('video-id').value = started.videoId;
  follow(
    'generation',
    started.requestId,
    (id, cb) => studio.subscribeToVideoGenerationStatusUpdates(id, cb),
    'generation-status',
  );
});

// ---- UI ----

$('open-plugin').addEventListener('click', () => call('openPlugin', () => studio.openPlugin()));
$('open-with-source').addEventListener('click', () =>
  call('openPlugin', () => studio.openPlugin({ sourceURL: value('source-url') })),
);
$('open-with-topic').addEventListener('click', () =>
  call('openPlugin', () => studio.openPlugin({ topicId: value('topic-id') })),
);
$('open-with-request').addEventListener('click', () =>
  call('openPlugin', () => studio.openPlugin({ generationRequestId: value('request-id') })),
);
$('open-editor').addEventListener('click', () =>
  call('openEditorForVideo', () => studio.openEditorForVideo(value('video-id'))),
);
$('close').addEventListener('click', () => call('close', () => studio.close()));
$('cleanup').addEventListener('click', async () => {
  await call('cleanup', () => studio.cleanup());
  showSession('Cleaned up: press Apply to start a new session.');
});

// ---- Placement ----

$('mount-dock').addEventListener('click', () => call('mount', () => studio.mount($('dock'))));

$('move-element').addEventListener('click', () => {
  const target = studio.parentElement === $('dock') ? $('stage-slot') : $('dock');
  // moveBefore keeps the iframe's document alive (Chrome/Edge 133+); elsewhere a move reloads it.
  if (typeof target.moveBefore === 'function') target.moveBefore(studio, null);
  else target.append(studio);
  log(
    'info',
    'moved',
    undefined,
    `<video-plugin> into #${target.id} with ${target.moveBefore ? 'moveBefore' : 'append'}`,
  );
});

// ---- Videos ----

async function listVideos(logCall = true) {
  const videos = logCall
    ? await call('getVideos', () => studio.getVideos())
    : await studio.getVideos().catch(() => undefined);
  if (!videos) return;
  const list = $('videos');
  list.replaceChildren();
  for (const video of videos) {
    const item = document.createElement('li');
    if (video.thumbnailURL) {
      const image = document.createElement('img');
      image.src = video.thumbnailURL;
      image.alt = '';
      item.append(image);
    }
    const text = document.createElement('span');
    text.textContent = `${video.name} · ${video.aspectRatio} · ${video.duration}s · ${video.isCompleted ? 'completed' : 'draft'}`;
    const edit = document.createElement('button');
    edit.type = 'button';
    edit.textContent = 'Edit';
    edit.addEventListener('click', () => call('openEditorForVideo', () => studio.openEditorForVideo(video.id)));
    item.append(text, edit);
    list.append(item);
  }
  if (videos.length === 0) list.innerHTML = '<li class="empty">No videos yet.</li>';
}

$('get-videos').addEventListener('click', () => listVideos());
$('get-video').addEventListener('click', () => call('getVideoData', () => studio.getVideoData(value('video-id'))));

document.body.dataset.ready = 'true';
