/** The studio's words in Portuguese. Keys and {placeholders} as in en.ts. */
import type { Messages } from './en.js';
export declare const pt: Messages;
//# sourceMappingURL=pt.d.ts.map
