// React 19 drives <video-plugin> directly: it sets the element's known properties as properties
// (objects included) and turns `on<event>` props into listeners, case kept.
import { useRef, useState } from 'react';
import 'video-plugin/element'; // registers <video-plugin>
import type { VideoPluginElement } from 'video-plugin/element';
import type {} from 'video-plugin/element/react'; // JSX types of <video-plugin>

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
      <h1>React 19</h1>
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
        <video-plugin
          ref={studio}
          partner-id={params.get('partner') ?? ''}
          service-url={params.get('service') ?? ''}
          theme={theme}
          locale={locale}
          appearance={appearance}
          editor={editor}
          onready={() => setReady((count) => count + 1)}
          onpluginOpened={() => setOpened((count) => count + 1)}
          style={{ height: 480 }}
        />
      )}
    </main>
  );
}
