/**
 * Entry of the classic CDN script (`dist/cdn/video-plugin.min.js`, an IIFE): everything `cdn.ts`
 * does when it runs, without the module's exports, so a plain `<script src>` can load it.
 */
import './cdn.js';
//# sourceMappingURL=cdn-classic.js.map
