/** The studio's words in German. Keys and {placeholders} as in en.ts. */
import type { Messages } from './en.js';
export declare const de: Messages;
//# sourceMappingURL=de.d.ts.map
