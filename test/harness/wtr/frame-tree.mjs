// frame-tree (frame-commands.mjs): the studio frame's accessibility tree as the browser gives it to
// screen readers, read over Chromium's DevTools protocol (`Accessibility.getFullAXTree` in the
// frame's own target: with --site-per-process the cross-site frame is an out-of-process iframe),
// and summed up for a11y.test.ts: the controls and their names, and the live regions and their text.
//
// Chromium only. Firefox under Puppeteer speaks WebDriver BiDi, which has no accessibility tree
// (only `browsingContext.locateNodes` by role and name, a search, not a reading of every node), and
// Puppeteer's `page.accessibility` needs CDP. WebKit's WebDriver (classic) has the computed role and
// label of one element (`/element/{id}/computedrole`, `computedlabel`), no tree and no live regions.

/**
 * The roles a person operates: a node with one of these, or any focusable node, must have a name.
 * Chromium's own role names are listed beside ARIA's (a closed select's options are
 * `MenuListOption`, a `<summary>` is `DisclosureTriangle`).
 */
const OPERATED = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'combobox',
  'listbox',
  'option',
  'MenuListOption',
  'checkbox',
  'radio',
  'switch',
  'slider',
  'spinbutton',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'DisclosureTriangle',
  'ToggleButton',
  'PopUpButton',
]);

/** The regions a screen reader announces changes of: by role, or by their `live` property. */
const LIVE_ROLES = new Set(['status', 'alert', 'log', 'marquee', 'timer']);

const property = (node, name) => node.properties?.find((p) => p.name === name)?.value?.value;

/**
 * The tree's summary: its root's name (the page title), every operated node (role "name"), those
 * without a name, and each live region (the outermost node of one) with its politeness and text
 * (its static text, in order).
 */
export function summarize(nodes) {
  const byId = new Map(nodes.map((node) => [node.nodeId, node]));
  const role = (node) => node.role?.value ?? '';
  const name = (node) => String(node.name?.value ?? '').trim();
  const text = (node) => {
    if (role(node) === 'StaticText') return name(node);
    return (node.childIds ?? [])
      .map((id) => byId.get(id))
      .filter(Boolean)
      .map(text)
      .filter(Boolean)
      .join(' ');
  };
  const live = (node) => LIVE_ROLES.has(role(node)) || (property(node, 'live') ?? 'off') !== 'off';
  const parents = new Map();
  for (const node of nodes) for (const child of node.childIds ?? []) parents.set(child, node);
  const inLive = (node) => {
    for (let up = parents.get(node.nodeId); up; up = parents.get(up.nodeId)) if (live(up)) return true;
    return false;
  };
  const shown = nodes.filter((node) => !node.ignored);
  const controls = shown
    .filter((node) => OPERATED.has(role(node)) || (property(node, 'focusable') && role(node) !== 'RootWebArea'))
    .map((node) => ({ role: role(node), name: name(node) }));
  return {
    title: name(shown.find((node) => role(node) === 'RootWebArea') ?? {}),
    controls: controls.map((control) => `${control.role} "${control.name}"`),
    unnamed: controls.filter((control) => !control.name).map((control) => control.role),
    liveRegions: shown
      .filter((node) => live(node) && !inLive(node))
      .map((node) => ({
        role: role(node),
        live: property(node, 'live') ?? (role(node) === 'alert' ? 'assertive' : 'polite'),
        text: text(node),
      })),
  };
}

/**
 * Reads the frame's tree once `selector` is in its document (null before, so that
 * frame-commands.mjs's `until` polls it), summed up. `open` gives a CDP session of the frame's own
 * target (out of process); `frameId` is then left out.
 */
export async function readTree(open, selector, frameId) {
  const cdp = await open();
  try {
    const { result } = await cdp.send('Runtime.evaluate', {
      expression: `Boolean(document.querySelector(${JSON.stringify(selector ?? 'body')}))`,
      returnByValue: true,
    });
    if (!result.value) return null;
    const { nodes } = await cdp.send('Accessibility.getFullAXTree', frameId ? { frameId } : {});
    return summarize(nodes);
  } finally {
    if (!frameId) await cdp.detach().catch(() => {});
  }
}
