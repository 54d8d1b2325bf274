/**
 * The element's style sheet: its box, the stage (the iframe's container, the loading skeleton, the
 * failure panel) and the modal and drawer dialogs. Adopted by the shadow root (no `<style>` text:
 * fine under a strict `style-src`). The build squeezes the literal (scripts/build.mjs).
 */
import { unsafeCSS } from '@lit/reactive-element';

/**
 * Lit's css tag for a literal without interpolations: `unsafeCSS` of its one string. Lit's own tag
 * adds a check of interpolated values (with a long message) that this sheet never needs, in every
 * partner's page (BENCHMARKS.md, "Sizes"). The text is this file's constant, never input. (No
 * backtick after the tag's name in this comment: the build squeezes every such literal.)
 */
const css = (sheet: TemplateStringsArray) => unsafeCSS(sheet[0]);

export const styles = css`
  :host {
    display: block;
    position: relative;
    height: var(--video-plugin-height, 600px);
    box-sizing: border-box;
  }
  /* height="auto" (inline): the height of what shows. The open studio's content height, between
     the min and the max (the iframe's own min-height and max-height, set by the Plugin from the
     same custom properties); the skeleton's or the failure panel's content; else the
     placeholder, or nothing. The placeholder and the stage share one grid cell, so the stage
     takes part in the height, and so do the iframe's container and the two panels, which share
     the stage's one cell: the taller makes it, the others stretch over it. ":host(…) > x" is a
     top-level node of the shadow root: the stage of modal and drawer display, in the dialog, is
     not one. */
  :host([height='auto']),
  :host([height='auto']) > .stage {
    display: grid;
    height: auto;
  }
  /* Modal and drawer display ignore height="auto": the element is a block, as tall as its content. */
  :host([display='modal']),
  :host([display='drawer']) {
    display: block;
    height: auto;
  }
  /* Last of the host's display rules, which have its specificity: hidden wins. */
  :host([hidden]) {
    display: none;
  }
  :host([height='auto']) > slot {
    display: block;
  }
  :host([height='auto']) > :is(slot, .stage),
  :host([height='auto']) > .stage > * {
    grid-area: 1 / 1;
    position: relative;
  }
  /* Above the slotted placeholder; lets clicks through to it while the iframe is hidden. */
  .stage,
  .frame {
    position: absolute;
    inset: 0;
    pointer-events: none;
  }
  .frame > iframe,
  .stage > [part] {
    pointer-events: auto;
  }
  [part='loading'],
  [part='failed'] {
    display: none;
    position: absolute;
    inset: 0;
    box-sizing: border-box;
    /* A fixed height smaller than the panel's content: the panel scrolls, nothing is cut off. */
    overflow: auto;
    padding: 24px;
    gap: 12px;
    align-content: start;
    background: Canvas;
    color: CanvasText;
    font:
      15px/1.5 system-ui,
      sans-serif;
  }
  [data-show='loading'] [part='loading'],
  [data-show='failed'] [part='failed'] {
    display: grid;
  }
  /* Grid items of the skeleton (their slot has no box): blocks without saying so. */
  [part='loading'] i {
    height: 14px;
    border-radius: 4px;
    background: color-mix(in srgb, CanvasText 12%, Canvas);
    animation: pulse 1.2s ease-in-out infinite alternate;
  }
  @keyframes pulse {
    to {
      opacity: 0.4;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    [part='loading'] i {
      animation: none;
    }
  }
  dialog {
    padding: 0;
    border: 0;
    overflow: hidden;
    width: min(var(--video-plugin-dialog-width, 960px), 100vw - 32px);
    height: min(var(--video-plugin-dialog-height, 720px), 100vh - 32px);
    max-width: none;
    max-height: none;
    border-radius: 8px;
  }
  dialog.drawer {
    margin: 0 0 0 auto;
    width: min(var(--video-plugin-drawer-width, 480px), 100vw);
    height: 100vh;
    border-radius: 0;
  }
  dialog::backdrop {
    background: rgb(15 23 42 / 0.55);
  }
`;
