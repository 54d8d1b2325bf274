// React 18 sets every prop of a custom element as a string attribute and has no custom-event
// props: video-plugin/react's <VideoPlugin> (made with @lit/react) sets the element's properties
// as properties (`appearance`, `editor`), listens for the events (`on<Event>` props), and passes
// other props on as attributes (`partner-id` here; `partnerID` would set the property).
import { useRef, useState } from 'react';
import { VideoPlugin, type VideoPluginElement } from 'video-plugin/react';

const params = new URLSearchParams(location.search);
const appearance = { colorPrimary: '#b91c1c', borderRadius: 12 };
const editor = { labels: { completeVideoConfirmation: { shouldShow: true, title: 'Finish this video?' } } };

/** A token from your back end, which checks who is signed in to your app first. */
async function createToken(): Promise<string> {
  const response = await fetch('/api/video-plugin-token', { method: 'POST', body: '{"kind":"create"}' });
  return (await response.json()).token;
}

export function App() {
  const studio = useRef<VideoPluginElement>(null);
  const [theme, setTheme] = useState<'light' | 'dark'>('light');
  const [locale, setLocale] = useState('en');
  const [shown, setShown] = useState(true);
  const [status, setStatus] = useState('Not signed up.');
  const [ready, setReady] = useState(0);
  const [opened, setOpened] = useState(0);

  async function signUp() {
    const accountID = await studio.current!.createAccount(await createToken());
    const videos = await studio.current!.getVideos();
    setStatus(`Signed up as ${accountID} with ${videos.length} videos.`);
  }

  return (
    <main>
      <h1>React 18</h1>
      <button onClick={signUp}>Sign up</button>
      <button onClick={() => studio.current!.openPlugin()}>Open studio</button>
      <button onClick={() => setTheme(theme === 'light' ? 'dark' : 'light')}>Toggle theme</button>
      <button onClick={() => setLocale('de')}>Deutsch</button>
      <button onClick={() => setShown(!shown)}>{shown ? 'Remove studio' : 'Insert studio'}</button>
      <p role="status">{status}</p>
      <p id="events">
        ready {ready} · opened {opened}
      </p>
      {shown && (
        <VideoPlugin
          ref={studio}
          partner-id={params.get('partner') ?? ''}
          service-url={params.get('service') ?? ''}
          theme={theme}
          locale={locale}
          appearance={appearance}
          editor={editor}
          onReady={() => setReady((count) => count + 1)}
          onPluginOpened={() => setOpened((count) => count + 1)}
          style={{ height: 480 }}
        />
      )}
    </main>
  );
}
