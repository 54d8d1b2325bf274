/**
 * The accessibility audits of the studio, run inside its cross-origin frame by the frame commands
 * (test/harness/wtr/frame-audit.mjs): axe-core with the WCAG 2.2 AA rules, the controls' names and
 * the headings, WCAG 1.4.12's text-spacing overrides, and what is cut off or overlaps.
 */
import { executeServerCommand } from '@web/test-runner-commands';

/** axe-core's tags for WCAG 2.0, 2.1 and 2.2 at levels A and AA: the rules a conformance claim at AA runs. */
export const WCAG_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export interface Audit {
  /** axe-core's violations: the rule, its help text, and each failing node with its summary. */
  violations: { id: string; help: string; nodes: string[] }[];
  /** The page's `<html lang>`. */
  lang: string;
  /** The page's title. */
  title: string;
  /** Every control (and image) in document order, with its accessible name and (buttons, links) its text. */
  names: { control: string; name: string; text: string }[];
  /** The levels of the rendered headings, in document order. */
  headings: number[];
}

const channelOf = (iframe: HTMLIFrameElement) => new URLSearchParams(new URL(iframe.src).hash.slice(1)).get('channel')!;

/** Once `selector` is in the frame: axe-core's WCAG 2.2 AA run over the page, its lang, names and headings. */
export function axe(iframe: HTMLIFrameElement, selector: string): Promise<Audit> {
  return executeServerCommand<Audit, Record<string, unknown>>('frame-axe', {
    channel: channelOf(iframe),
    selector,
    value: WCAG_AA_TAGS,
  });
}

/** Adds WCAG 1.4.12's text-spacing overrides to the frame's page (they stay until it reloads). */
export function textSpacing(iframe: HTMLIFrameElement): Promise<boolean> {
  return executeServerCommand<boolean, Record<string, unknown>>('frame-spacing', { channel: channelOf(iframe) });
}

/**
 * Once `selector` is in the frame: every element cut off or overlapping a sibling, in words
 * (`problems`), and apart the selects whose chosen option is cut off (`truncated`).
 */
export function clipped(
  iframe: HTMLIFrameElement,
  selector: string,
): Promise<{ problems: string[]; truncated: string[] }> {
  return executeServerCommand<{ problems: string[]; truncated: string[] }, Record<string, unknown>>('frame-clip', {
    channel: channelOf(iframe),
    selector,
  });
}

/** A PNG of the frame as the page shows it, in .test-results/screenshots/ (kept out of git). */
export function screenshot(iframe: HTMLIFrameElement, name: string): Promise<string> {
  return executeServerCommand<string, Record<string, unknown>>('frame-screenshot', {
    channel: channelOf(iframe),
    value: name,
  });
}

/**
 * What is wrong with a heading outline: it must start at the one h1 and never skip a level on
 * the way down (h2 then h4).
 */
export function outlineFaults(levels: number[]): string[] {
  const faults: string[] = [];
  if (levels.filter((level) => level === 1).length !== 1) faults.push(`${levels.filter((l) => l === 1).length} h1`);
  if (levels[0] !== 1) faults.push(`starts at h${levels[0]}`);
  levels.forEach((level, i) => {
    if (i > 0 && level > levels[i - 1]! + 1) faults.push(`h${levels[i - 1]} then h${level}`);
  });
  return faults;
}
