/**
 * The HTML shell of the plugin page (`GET /plugin`): the iframe's document. The page's code and
 * styles come from the built bundle in `/assets/`; this file only gives them a root to render into.
 */
/** What the shell links to. */
export interface PluginPageOptions {
  /** Whether `/assets/app.css` exists and should be linked. */
  stylesheet?: boolean;
}
/** The plugin page's HTML: loads `/assets/app.js` as a module into `<main id="app">`. */
export declare function pluginPageHtml(options?: PluginPageOptions): string;
//# sourceMappingURL=page-html.d.ts.map
