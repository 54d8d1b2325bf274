// The accessibility audits that frame-commands.mjs runs inside the studio's frame (a11y.test.ts):
//   frame-axe      {channel, selector, value: tags}: once selector is in the frame, axe-core's
//                  violations of the rules with those tags (axe is loaded into the frame first),
//                  the page's lang and every control's accessible name
//   frame-spacing  {channel}: WCAG 1.4.12's text-spacing overrides, as a style sheet in the frame
//   frame-clip     {channel, selector}: once selector is in the frame, every element whose content
//                  is cut off or that overlaps a sibling
// Each is a function run in the frame (its argument JSON), polled until it answers non-null:
// nothing here waits in the browser longer than one short script, so a WebDriver script limit or
// a busy machine never leaves a half-run audit behind.

import { readFileSync } from 'node:fs';

/* global getComputedStyle, NodeFilter, scrollY, innerHeight -- these run inside the frame */

/** axe-core, as the browser tests load it: evaluated by the automation (the studio's CSP refuses a script tag). */
const AXE_SOURCE = readFileSync(new URL('../../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');

/** Whether the frame has axe (a new document has not). */
const HAS_AXE = () => typeof window.axe?.run === 'function';

/**
 * The rendered controls a person operates (and the images), each with its accessible name as the
 * accessible name computation gives it for this markup (aria-labelledby, aria-label, the label,
 * the content, alt, title), in document order: the same view in two languages lists the same
 * controls in the same order. And the levels of the rendered headings, in order.
 */
const NAMES = () => {
  const text = (element) => element?.textContent.replace(/\s+/g, ' ').trim() ?? '';
  const controls = 'button, a[href], input, select, textarea, summary, progress, video, [role="img"], img';
  const shown = (element) => element.getClientRects().length > 0;
  const headings = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].filter(shown);
  const names = [...document.querySelectorAll(controls)].filter(shown).map((control) => {
    const labelledBy = control.getAttribute('aria-labelledby');
    const name =
      (labelledBy &&
        labelledBy
          .split(/\s+/)
          .map((id) => text(document.getElementById(id)))
          .join(' ')) ||
      control.getAttribute('aria-label') ||
      [...(control.labels ?? [])].map(text).join(' ') ||
      (control.matches('button, a, summary') ? text(control) : '') ||
      control.getAttribute('alt') ||
      control.getAttribute('title') ||
      '';
    const id = control.id ? `#${control.id}` : '';
    const data = [...control.attributes].find((attribute) => attribute.name.startsWith('data-'));
    const shownText = control.matches('button, a, summary') ? text(control) : '';
    return { control: `${control.localName}${id}${data ? `[${data.name}]` : ''}`, name: name.trim(), text: shownText };
  });
  return { names, headings: headings.map((heading) => Number(heading.localName[1])) };
};

/**
 * axe-core's run over the whole document, polled: the first call starts it (keyed by `run`, so
 * that a command given up on never answers for the next one) and each later call answers null
 * until its result is in.
 */
const AXE = ({ selector, tags, run }) => {
  if (!document.querySelector(selector) || !getComputedStyle(document.documentElement).backgroundColor) return null;
  const runs = (window.__videoPluginAxe ??= {});
  if (!(run in runs)) {
    runs[run] = null;
    window.axe
      .run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })
      .then(
        (result) =>
          result.violations.map((violation) => ({
            id: violation.id,
            help: violation.help,
            nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary}`),
          })),
        (error) => [{ id: 'axe-error', help: String(error?.stack ?? error), nodes: [] }],
      )
      .then((violations) => (runs[run] = violations));
    return null;
  }
  const violations = runs[run];
  if (!violations) return null;
  delete runs[run];
  return { violations, lang: document.documentElement.lang, title: document.title };
};

/** WCAG 1.4.12's minimums, each as an override the page must survive (the W3C's bookmarklet's rules). */
const SPACING = () => {
  if (!document.getElementById('wcag-text-spacing')) {
    const sheet = document.createElement('style');
    sheet.id = 'wcag-text-spacing';
    sheet.textContent = `
      * { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; }
      p { margin-bottom: 2em !important; }`;
    document.head.append(sheet);
  }
  return true;
};

/**
 * What is cut off or overlaps once `selector` is in the frame (every `<details>` opened first, so
 * that what they hide is checked too), as sentences naming the element:
 * - an element wider than the frame or beyond its left or right edge;
 * - an element that hides its overflow (hidden, clip) and has more content than its box;
 * - text outside its box (the nearest ancestor that is not inline);
 * - two in-flow siblings (not inline, not positioned out of flow) whose boxes intersect;
 * - an element above the page's top, or beyond the frame's top or bottom in a fixed layer (the
 *   confirmation dialog) with no scrolling box to reach it;
 * - apart (`truncated`): a select with an option whose text is wider than the room beside its
 *   arrow (closed, engines draw the chosen option on one line, cut off; the open list shows it whole).
 * Text fields (input, textarea) scroll their own text by design and are left out of the overflow
 * checks, not of the others.
 */
const CLIPPED = (selector) => {
  const root = document.documentElement;
  if (!document.querySelector(selector) || !getComputedStyle(root).backgroundColor) return null;
  for (const details of document.querySelectorAll('details')) details.open = true;
  const width = root.clientWidth;
  const problems = [];
  const truncated = [];
  const px = (n) => n.toFixed(1);
  const nameOf = (element) => {
    const data = [...element.attributes].find((attribute) => attribute.name.startsWith('data-'));
    return `${element.localName}${element.id ? `#${element.id}` : ''}${[...element.classList].map((c) => `.${c}`).join('')}${
      data ? `[${data.name}=${JSON.stringify(data.value)}]` : ''
    } "${element.textContent.replace(/\s+/g, ' ').trim().slice(0, 30)}"`;
  };
  // What is drawn: not the page's head or a style sheet, nor the inside of a control the engine
  // draws itself (a select's options, a video's fallback), nor what has no box.
  const shown = (element) => {
    if (element.matches('style, script, template') || element.parentElement?.closest('select, video, textarea')) {
      return false;
    }
    const style = getComputedStyle(element);
    if (style.display === 'none' || style.visibility === 'hidden') return false;
    // Text for screen readers only (the live region): clipped to nothing on purpose.
    if (element.closest('.visually-hidden')) return false;
    const box = element.getBoundingClientRect();
    return box.width > 0 || box.height > 0;
  };
  const field = (element) => element.matches('input, textarea, select');
  const inFlow = (element) => {
    const style = getComputedStyle(element);
    return !['inline', 'contents'].includes(style.display) && ['static', 'relative', 'sticky'].includes(style.position);
  };
  // A fixed layer's element is within reach when a scrolling box between them lets it be scrolled to.
  const scrollable = (element) => {
    for (let box = element.parentElement; box; box = box.parentElement) {
      if (/auto|scroll/.test(getComputedStyle(box).overflowY) && box.scrollHeight > box.clientHeight) return true;
      if (box.matches('[role="dialog"]')) return false;
    }
    return false;
  };
  // The drop-down arrow beside a select's text: about 20 px in every engine.
  const ARROW = 20;
  const measure = (control, text) => {
    const style = getComputedStyle(control);
    const probe = document.createElement('span');
    probe.textContent = text;
    for (const property of [
      'font-family',
      'font-size',
      'font-weight',
      'font-style',
      'letter-spacing',
      'word-spacing',
    ]) {
      probe.style.setProperty(property, style.getPropertyValue(property));
    }
    probe.style.setProperty('position', 'absolute');
    probe.style.setProperty('white-space', 'pre');
    probe.style.setProperty('visibility', 'hidden');
    document.body.append(probe);
    const measured = probe.getBoundingClientRect().width;
    probe.remove();
    return measured;
  };
  const elements = [...document.body.querySelectorAll('*')].filter(shown);
  for (const element of elements) {
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    if (box.left < -1 || box.right > width + 1) {
      problems.push(`${nameOf(element)} spans ${px(box.left)}–${px(box.right)} px of a ${width} px frame`);
    }
    // Above the page's top, or (in a fixed layer, which does not scroll with the page) beyond the
    // frame's top or bottom: nobody can scroll to it.
    const fixed =
      element.closest('[role="dialog"]') && getComputedStyle(element.closest('[role="dialog"]')).position === 'fixed';
    if (box.top + scrollY < -1 || (fixed && (box.top < -1 || box.bottom > innerHeight + 1) && !scrollable(element))) {
      problems.push(
        `${nameOf(element)} spans ${px(box.top)}–${px(box.bottom)} px of a ${innerHeight} px high frame, out of reach`,
      );
    }
    // A closed select shows its chosen option on one line: whichever the user chooses, its text
    // must fit beside the arrow.
    if (element.localName === 'select' && element.options.length > 0) {
      const room = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - ARROW;
      for (const option of element.options) {
        const text = measure(element, option.textContent.trim());
        if (text > room) {
          truncated.push(
            `select#${element.id} shows "${option.textContent.trim()}" in ${px(text)} px of ${px(room)} px`,
          );
        }
      }
    }
    if (!field(element)) {
      const clipsX = /hidden|clip/.test(style.overflowX) || style.textOverflow === 'ellipsis';
      const clipsY = /hidden|clip/.test(style.overflowY);
      if (clipsX && element.scrollWidth > element.clientWidth + 1) {
        problems.push(
          `${nameOf(element)} cuts off ${element.scrollWidth - element.clientWidth} px of its content's width`,
        );
      }
      if (clipsY && element.scrollHeight > element.clientHeight + 1) {
        problems.push(
          `${nameOf(element)} cuts off ${element.scrollHeight - element.clientHeight} px of its content's height`,
        );
      }
    }
    const siblings = [...element.children].filter((child) => shown(child) && inFlow(child));
    for (let i = 0; i < siblings.length; i++) {
      const a = siblings[i].getBoundingClientRect();
      for (let j = i + 1; j < siblings.length; j++) {
        const b = siblings[j].getBoundingClientRect();
        const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (x > 1 && y > 1) {
          problems.push(`${nameOf(siblings[i])} and ${nameOf(siblings[j])} overlap by ${px(x)} × ${px(y)} px`);
        }
      }
    }
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.data.trim() || !node.parentElement || !shown(node.parentElement)) continue;
    let block = node.parentElement;
    while (block.parentElement && ['inline', 'contents'].includes(getComputedStyle(block).display)) {
      block = block.parentElement;
    }
    const box = block.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const line of range.getClientRects()) {
      if (!line.width) continue;
      const out =
        line.left < box.left - 1 ||
        line.right > box.right + 1 ||
        line.top < box.top - 1 ||
        line.bottom > box.bottom + 1;
      if (out) {
        problems.push(
          `text "${node.data.trim().slice(0, 30)}" (${px(line.left)}–${px(line.right)} × ${px(line.top)}–${px(line.bottom)}) outside ${nameOf(block)} (${px(box.left)}–${px(box.right)} × ${px(box.top)}–${px(box.bottom)})`,
        );
        break;
      }
    }
  }
  return { problems: [...new Set(problems)], truncated };
};

/** The in-frame scripts, each with its argument from the command's payload. */
const SCRIPTS = {
  'frame-axe': ({ selector, value, run }) => [AXE, { selector, tags: value, run }],
  'frame-spacing': () => [SPACING, null],
  'frame-clip': ({ selector }) => [CLIPPED, selector],
};

/** Whether `command` is one of these audits. */
export const isAudit = (command) => Object.hasOwn(SCRIPTS, command);

let runs = 0;

/**
 * Runs the audit `command` in a frame: `evaluate(script, argument)` runs a function there,
 * `inject(source)` a script's text; `until` and `shown` are frame-commands.mjs's.
 */
async function audit(command, args, { evaluate, inject }, until, shown) {
  if (command === 'frame-axe' && !(await evaluate(HAS_AXE, null))) await inject(AXE_SOURCE);
  const [script, argument] = SCRIPTS[command]({ ...args, run: `run-${++runs}` });
  const result = await until(
    `no ${args.selector ?? 'answer'} in the frame`,
    args.timeout,
    () => evaluate(script, argument),
    shown,
  );
  // The names as the page stands once axe is done (the same render: nothing happens in between).
  return command === 'frame-axe' ? { ...result, ...(await evaluate(NAMES, null)) } : result;
}

/** An audit in a Puppeteer frame (Chromium over CDP, Firefox over WebDriver BiDi). */
export function puppeteerAudit(frame, command, args, until, shown) {
  const run = {
    evaluate: (script, argument) => frame.evaluate(script, argument),
    inject: (source) => frame.evaluate(source),
  };
  return audit(command, args, run, until, shown);
}

/** An audit in the frame WebDriver (WebKit) has switched to. */
export function webdriverAudit(webdriver, command, args, until, shown) {
  const run = {
    evaluate: (script, argument) =>
      webdriver('POST', '/execute/sync', { script: `return (${script})(arguments[0]);`, args: [argument] }),
    inject: (source) => webdriver('POST', '/execute/sync', { script: `${source}\n;return true;`, args: [] }),
  };
  return audit(command, args, run, until, shown);
}
