// StrictMode on, as `npm create vite` makes it: in development it mounts every component twice
// (effects and ref callbacks run, are cleaned up, and run again). The app is written for it: the
// sign-in follows the element's `ready` event, not an effect, and a job's step is started with its
// idempotency key, so a second run of an effect starts nothing twice.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { fetchConfig } from './api.js';
import { App } from './App.js';

// The partner ID and the service's URL come from the back end, which signs the tokens with them.
const config = await fetchConfig();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <App config={config} />
    </BrowserRouter>
  </StrictMode>,
);
