/**
 * The studio's stylesheet: the light and dark palettes as custom properties on the root (the
 * partner's `appearance` replaces them there, theme.ts), the layout of every screen, and the auto
 * height (`data-fit` on the root, look.ts). views.ts renders it as a `<style>` above each screen.
 */
import { html } from 'lit';

/** The stylesheet, as a template that views.ts renders above each screen. */
export const STYLE = html`<style>
  :root {
    --vp-bg: #fff;
    --vp-text: #0f172a;
    --vp-muted: #475569;
    --vp-primary: #1d4ed8;
    --vp-on-primary: #fff;
    --vp-danger: #b91c1c;
    --vp-font: system-ui, sans-serif;
    --vp-radius: 6px;
    --vp-space: 4px;
    --vp-border: color-mix(in srgb, var(--vp-text) 18%, var(--vp-bg));
    --vp-field: color-mix(in srgb, var(--vp-text) 55%, var(--vp-bg));
    --vp-surface: color-mix(in srgb, var(--vp-text) 10%, var(--vp-bg));
    color-scheme: light;
    font-size: 15px;
    line-height: 1.5;
    font-family: var(--vp-font);
    color: var(--vp-text);
    background: var(--vp-bg);
  }
  :root[data-scheme='dark'] {
    --vp-bg: #0f172a;
    --vp-text: #e2e8f0;
    --vp-muted: #a3b1c6;
    --vp-primary: #60a5fa;
    --vp-on-primary: #0f172a;
    --vp-danger: #fca5a5;
    color-scheme: dark;
  }
  @media (prefers-color-scheme: dark) {
    :root[data-scheme='auto'] {
      --vp-bg: #0f172a;
      --vp-text: #e2e8f0;
      --vp-muted: #a3b1c6;
      --vp-primary: #60a5fa;
      --vp-on-primary: #0f172a;
      --vp-danger: #fca5a5;
      color-scheme: dark;
    }
  }
  body {
    margin: 0;
  }
  .shell {
    display: flex;
    flex-direction: column;
    min-height: 100vh;
  }
  header {
    display: flex;
    align-items: center;
    justify-content: space-between;
    padding: calc(var(--vp-space) * 3) calc(var(--vp-space) * 5);
    border-bottom: 1px solid var(--vp-border);
  }
  header h1 {
    font-size: 1rem;
    margin: 0;
  }
  section {
    padding: calc(var(--vp-space) * 5);
    max-width: 760px;
    margin: 0 auto;
    width: 100%;
    box-sizing: border-box;
  }
  ol.steps {
    display: flex;
    gap: calc(var(--vp-space) * 4);
    list-style: none;
    padding: 0;
    margin: 0 0 calc(var(--vp-space) * 4);
    color: var(--vp-muted);
    font-size: 0.85rem;
  }
  ol.steps li[aria-current='step'] {
    color: var(--vp-text);
    font-weight: 600;
    text-decoration: underline 2px var(--vp-primary);
    text-underline-offset: 4px;
  }
  label {
    display: block;
    margin: calc(var(--vp-space) * 3) 0 var(--vp-space);
    font-weight: 600;
  }
  input,
  select,
  textarea {
    font: inherit;
    color: inherit;
    background: var(--vp-bg);
    padding: calc(var(--vp-space) * 2) calc(var(--vp-space) * 2.5);
    border: 1px solid var(--vp-field);
    border-radius: var(--vp-radius);
    width: 100%;
    box-sizing: border-box;
  }
  button {
    font: inherit;
    padding: calc(var(--vp-space) * 2) calc(var(--vp-space) * 4);
    border-radius: var(--vp-radius);
    border: 1px solid var(--vp-primary);
    background: var(--vp-primary);
    color: var(--vp-on-primary);
    cursor: pointer;
  }
  button.secondary {
    background: var(--vp-bg);
    color: var(--vp-text);
  }
  button:disabled {
    opacity: 0.6;
    cursor: progress;
  }
  a {
    color: inherit;
  }
  .row {
    display: flex;
    gap: calc(var(--vp-space) * 3);
    align-items: end;
    margin-top: calc(var(--vp-space) * 4);
    flex-wrap: wrap;
  }
  .error {
    color: var(--vp-danger);
  }
  .muted {
    color: var(--vp-muted);
  }
  .thumbs {
    display: flex;
    gap: calc(var(--vp-space) * 2);
    flex-wrap: wrap;
  }
  .thumbs img {
    width: 96px;
    height: 64px;
    object-fit: cover;
    border-radius: var(--vp-radius);
    background: var(--vp-surface);
  }
  .preview img {
    max-width: 100%;
    border-radius: var(--vp-radius);
    border: 1px solid var(--vp-border);
  }
  .scenes {
    border: 1px solid var(--vp-border);
    border-radius: var(--vp-radius);
    margin: calc(var(--vp-space) * 3) 0;
    padding: calc(var(--vp-space) * 2) calc(var(--vp-space) * 3);
  }
  .scenes ol {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  .scenes li {
    display: grid;
    grid-template-columns: 96px 1fr auto;
    gap: calc(var(--vp-space) * 3);
    align-items: start;
    padding: calc(var(--vp-space) * 2) 0;
    border-bottom: 1px solid var(--vp-border);
  }
  .scenes li img,
  .scenes .swatch {
    width: 96px;
    height: 54px;
    object-fit: cover;
    border-radius: var(--vp-radius);
    background: #1e1b4b;
    display: block;
  }
  /* Where a scene came from: long URLs and excerpts wrap anywhere rather than widen the frame. */
  .sources {
    overflow-wrap: anywhere;
    font-size: 0.875em;
    color: var(--vp-muted);
  }
  .sources p {
    margin: var(--vp-space) 0 0;
  }
  /* A disclosure's summary is a control too: as tall a target as the buttons. */
  .sources summary {
    box-sizing: border-box;
    min-height: 44px;
    padding: calc(var(--vp-space) * 2.5) 0;
    cursor: pointer;
  }
  .skeleton {
    display: inline-block;
    background: var(--vp-surface);
    border-radius: var(--vp-radius);
    height: 1.2em;
    width: 60%;
  }
  [role='dialog'] {
    position: fixed;
    inset: 0;
    background: rgba(15, 23, 42, 0.5);
    display: grid;
    place-items: center;
  }
  [role='dialog'] > div {
    background: var(--vp-bg);
    border-radius: var(--vp-radius);
    padding: calc(var(--vp-space) * 6);
    max-width: 420px;
  }
  /* Narrow screens (360 px and up): nothing wider than the frame, touch targets of 44 px or more. */
  body {
    overflow-wrap: break-word;
  }
  button,
  input,
  select,
  a[href] {
    box-sizing: border-box;
    min-height: 44px;
  }
  button,
  a[href] {
    min-width: 44px;
  }
  a[href] {
    display: inline-flex;
    align-items: center;
    justify-content: center;
  }
  ol.steps {
    flex-wrap: wrap;
  }
  .scenes li {
    grid-template-columns: 96px minmax(0, 1fr) auto;
  }
  [role='dialog'] > div {
    box-sizing: border-box;
    max-width: min(420px, 100vw - 32px);
  }
  /* A dialog taller than a short frame (zoomed, a small modal) scrolls, its top within reach:
     centred by its margins, which shrink to nothing before it would overflow upwards. */
  [role='dialog'] {
    place-items: normal;
    overflow: auto;
    padding: calc(var(--vp-space) * 4);
  }
  [role='dialog'] > div {
    margin: auto;
  }
  @media (max-width: 600px) {
    /* One column: the picture, the fields, then the buttons. */
    .scenes li {
      grid-template-columns: minmax(0, 1fr);
    }
    .scenes li > .row {
      margin-top: 0;
    }
    /* Narrower margins: a zoomed or small frame keeps its width for the text. */
    header,
    section {
      padding-inline: calc(var(--vp-space) * 3);
    }
    .scenes {
      padding-inline: calc(var(--vp-space) * 2);
    }
  }
  /* The narrowest frames (400 % zoom: 320 px inline, the element's modal 288 px): a closed select
     shows its option on one line, cut off where it is longer, so selects are a step smaller, with
     less padding, and the margins narrower; then the longest option ("anglais (Nouvelle-Zélande)",
     251 px at 1rem with WCAG's text spacing) fits beside the arrow in every engine (reflow.test.ts
     measures every option). */
  @media (max-width: 400px) {
    header,
    section {
      padding-inline: calc(var(--vp-space) * 2);
    }
    select {
      font-size: 0.875rem;
      padding-inline: var(--vp-space);
    }
  }
  /* Auto height (the host's height: 'auto'): the page lays out at its natural height, and nothing
     in it depends on the frame's own height (which follows it), so the height cannot feed back. */
  :root[data-fit] .shell {
    min-height: 0;
  }
  :root[data-fit] video {
    max-height: 480px !important;
  }
  /* Focus appearance (WCAG 2.2, 2.4.11 and 2.4.13): a 3 px ring in the text colour, which a
     partner's appearance must keep at 4.5:1 or more on the background (checkContrast), 2 px outside the control
     so that it lies on the background and no fill or border hides it. */
  :focus-visible {
    outline: 3px solid var(--vp-text);
    outline-offset: 2px;
  }
  /* The live region (announce.ts): read by screen readers, not shown. */
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  /* The player's own controls (player.ts). */
  .player {
    display: flex;
    flex-wrap: wrap;
    gap: calc(var(--vp-space) * 2);
    align-items: center;
    margin-top: calc(var(--vp-space) * 2);
  }
  .player input[type='range'] {
    /* At least a 44 px target (WCAG 2.5.8): in a narrow studio the controls wrap instead. */
    flex: 1 1 6em;
    min-width: 44px;
    padding: 0;
    border: 0;
  }
  .player button[aria-pressed='false'] {
    text-decoration: line-through;
  }
  /* Motion: a running job's bar and the loading title pulse, except for a user who asked the system
     for less motion; then nothing in the studio moves by itself (no animation, no transition; the
     player never autoplays). */
  .skeleton,
  .progress progress {
    animation: vp-pulse 1.2s ease-in-out infinite alternate;
  }
  @keyframes vp-pulse {
    to {
      opacity: 0.45;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    *,
    ::before,
    ::after {
      animation: none !important;
      transition: none !important;
      scroll-behavior: auto !important;
    }
  }
</style>`;
