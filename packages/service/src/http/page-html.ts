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
export function pluginPageHtml(options: PluginPageOptions = {}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Video plugin</title>
${options.stylesheet ? '<link rel="stylesheet" href="/assets/app.css">\n' : ''}<script type="module" src="/assets/app.js"></script>
</head>
<body>
<main id="app"></main>
</body>
</html>
`;
}
