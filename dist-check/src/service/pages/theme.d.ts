/**
 * Applies the partner's `appearance` to the page: the colour scheme as `data-scheme` on the root
 * (the stylesheet in views.ts holds the light and dark palettes) and each given value as a CSS
 * custom property on the root's style, which wins over the stylesheet. Colours the partner left
 * out are chosen to stay readable on the ones it gave.
 */
import { type CheckedAppearance as Appearance } from '../../appearance.js';
/** Black or white, whichever reads better on `hex` (at least 4.5:1 for any colour). */
export declare const onColor: (hex: string) => string;
export declare function applyAppearance(appearance: Appearance, root?: HTMLElement): void;
//# sourceMappingURL=theme.d.ts.map
