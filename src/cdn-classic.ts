/**
 * Entry of the classic CDN script (`dist/cdn/video-plugin.min.js`, an IIFE): everything `cdn.ts`
 * does when it runs, without the module's exports, so a plain `<script src>` can load it. A classic
 * script's tag is `document.currentScript` while it runs (with `defer` and `async` too).
 */
import { register } from './cdn-register.js';

register((document) => document.currentScript);
