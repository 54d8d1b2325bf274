/** The studio's words in Spanish. Keys and {placeholders} as in en.ts. */
import type { Messages } from './en.js';
export declare const es: Messages;
//# sourceMappingURL=es.d.ts.map
