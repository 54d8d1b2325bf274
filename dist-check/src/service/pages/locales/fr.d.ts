/** The studio's words in French. Keys and {placeholders} as in en.ts. */
import type { Messages } from './en.js';
export declare const fr: Messages;
//# sourceMappingURL=fr.d.ts.map
