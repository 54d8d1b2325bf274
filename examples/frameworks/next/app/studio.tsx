'use client';
// Server-rendered React 19: <VideoPlugin> from video-plugin/react, not a bare <video-plugin>. React
// 19 does not set a custom element's properties nor add its `on<event>` listeners when it
// hydrates server-rendered markup, only at the next render (react#35446): `appearance`, `editor`
// and the handlers would be missing. <VideoPlugin> sets them in an effect, hydrated or not.
// The attributes (`partner-id`, `service-url`) are in the server's HTML.
import { useRef, useState } from 'react';
import { VideoPlugin, type VideoPluginElement } from 'video-plugin/react';

const appearance = { colorPrimary: '#b91c1c', borderRadius: 12 };
const editor = { labels: { completeVideoConfirmation: { shouldShow: true, title: 'Finish this video?' } } };

/** A token from your back end (here it could be a route handler), which checks who is signed in first. */
async function createToken(): Promise<string> {
  const response = await fetch('/api/video-plugin-token', { method: 'POST', body: '{"kind":"create"}' });
  return (await response.json()).token;
}

export function Studio({ partner, service }: { partner: string; service: string }) {
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
      <h1>Next.js</h1>
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
          partner-id={partner}
          service-url={service}
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
