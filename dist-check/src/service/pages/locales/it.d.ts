/** The studio's words in Italian. Keys and {placeholders} as in en.ts. */
import type { Messages } from './en.js';
export declare const it: Messages;
//# sourceMappingURL=it.d.ts.map
