// The studio with the keyboard alone, with a screen reader's ears and with reduced motion: the
// whole journey by key presses only (the frame's focus read after every step), the one live region
// and the `announce` event, the player's own controls and captions, and prefers-reduced-motion.
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { Plugin } from '../../src/plugin.js';
import type { Announcement } from '../../src/wire/api.js';
import {
  BUSINESS_URL,
  channelOf,
  cleanupPlugins,
  createPlugin,
  generatedVideo,
  inFrame,
  signUp,
  statusLog,
  until,
} from '../support/plugin.js';

afterEach(cleanupPlugins);

/** What `keys(plugin).focus()` reads in the frame (test/harness/wtr/frame-commands.mjs, FOCUSED). */
interface Focused {
  /** The frame's document has no focus, or its body has it. */
  lost: boolean;
  /** The frame's document has the focus (`document.hasFocus()`). */
  hasFocus: boolean;
  focused: string;
  /** Why the focused element is not in view (out of the frame's viewport, or covered at its centre); null when it is. */
  obscured: string | null;
  value?: string;
  pressed: string | null;
  ring: { style: string; width: string; color: string; offset: string };
  pageBackground: string;
  dialog: boolean;
  liveRegions: number;
  announced: string | null;
  alert: string | null;
  video: { paused: boolean; autoplay: boolean; controls: boolean; captions: string[] } | null;
  reducedMotion: boolean;
  progressBars: number;
  animations: string[];
}

/** The keyboard in the Plugin's frame: keys pressed where the focus is, never a click. */
function keys(plugin: Plugin) {
  const channel = channelOf(plugin);
  const command = <T = unknown>(name: string, args: Record<string, unknown>) =>
    executeServerCommand<T, Record<string, unknown>>(name, { channel, ...args });
  return {
    press: (key: string) => command('frame-press', { value: key }),
    /** A key on the partner's page, outside the frame. */
    pressInPage: (key: string) => command('frame-press', { value: key, page: true }),
    type: (text: string) => command('frame-press', { text }),
    /**
     * Tab (or Shift+Tab) until the focus is on `selector`; the stops on the way. It fails when a
     * stop is out of the frame's viewport or covered (WCAG 2.4.11, frame-commands.mjs).
     */
    tabTo: (selector: string, key = 'Tab') => command<string[]>('frame-tab', { selector, value: key }),
    /** Once the focus is on `selector`: what has it, and what the frame says and shows. */
    focus: (selector?: string) => command<Focused>('frame-focus', { selector }),
    emulate: (reducedMotion: 'reduce' | 'no-preference') => command<boolean>('frame-emulate', { value: reducedMotion }),
  };
}

/** What `tree(plugin).read()` gives: the frame's accessibility tree summed up (test/harness/wtr/frame-tree.mjs). */
interface Tree {
  /** The root's name: the page title. */
  title: string;
  /** Every control (operated role, or focusable) as `role "name"`. */
  controls: string[];
  /** The roles of the controls without a name. */
  unnamed: string[];
  /** Each live region: its role, politeness and text. */
  liveRegions: { role: string; live: string; text: string }[];
}

/**
 * The frame's accessibility tree, as Chromium hands it to screen readers (its DevTools protocol,
 * `Accessibility.getFullAXTree`); `false` in Firefox and WebKit, whose automation offers no tree.
 */
function tree(plugin: Plugin) {
  const channel = channelOf(plugin);
  return {
    /** Once `selector` is in the frame. */
    read: (selector: string) =>
      executeServerCommand<Tree | false, Record<string, unknown>>('frame-tree', { channel, selector }),
  };
}

/** Every `announce` of `plugin`, and a wait for one whose message matches. */
function announcements(plugin: Plugin) {
  const heard: Announcement[] = [];
  plugin.on('announce', (announcement) => heard.push(announcement));
  return {
    heard,
    until: (message: RegExp, timeout = 60_000) =>
      until(
        `an announcement ${message} (heard: ${heard.map((a) => a.message).join(' | ')})`,
        () => heard.some((a) => message.test(a.message)),
        timeout,
      ),
  };
}

/** The relative luminance of a CSS `rgb()`/`rgba()` colour (WCAG 2.2's formula). */
function luminance(color: string): number {
  const [r, g, b] = color
    .match(/[\d.]+/g)!
    .slice(0, 3)
    .map(Number) as [number, number, number];
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

const contrast = (a: string, b: string): number => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

/** WCAG 2.2's focus appearance: a solid ring of 2 CSS px or more, off the control, at 3:1 on the page. */
function expectFocusRing(state: Focused): void {
  expect(state.ring.style, `${state.focused}: its ring`).to.equal('solid');
  expect(parseFloat(state.ring.width), `${state.focused}: the ring's width`).to.be.at.least(2);
  expect(parseFloat(state.ring.offset), `${state.focused}: the ring's offset`).to.be.at.least(1);
  expect(contrast(state.ring.color, state.pageBackground), `${state.focused}: the ring's contrast`).to.be.at.least(3);
}

/** Once the focus is on `selector`: it is in the frame's viewport and nothing covers it (WCAG 2.4.11). */
async function inView(kb: ReturnType<typeof keys>, selector: string): Promise<Focused> {
  const state = await kb.focus(selector);
  expect(state.obscured, `${state.focused}: out of view or covered`).to.equal(null);
  return state;
}

/** WebKit (WebKitGTK's MiniBrowser under WebDriver), where the frame's focus cannot be read. */
const WEBKIT = /AppleWebKit/.test(navigator.userAgent) && !/Chrome|Firefox/.test(navigator.userAgent);

const STAGES =
  /^(Waiting to start|Reading the website|Collecting images|Writing the storyboard|Waiting for the renderer|Recording the voiceover|Composing the scenes|Rendering the video|Finishing|Reading the website…|Generating your video…|Rendering…|Topic found: .+|Your video is ready|The video is rendered)$/;

describe('the studio with the keyboard alone', () => {
  it('sign in → search → generate → play → editor → edit, reorder, remove → complete through the dialog → play → close, focus where expected after every key', async function () {
    // WebKit: WebDriver's switch into the frame, which every frame command makes, moves the focus
    // there (the frame's focus event fires and its active element reads the body), so where the
    // keys left the focus cannot be read. The studio's focus code is the same in every engine.
    // Staying in the frame between commands (one switch, tried) does not help: that one switch
    // already takes the focus off the sign-in screen's heading, to the frame's body.
    if (WEBKIT) this.skip();
    const plugin = await createPlugin({
      real: true,
      authMode: 'uncontrolled',
      editor: { labels: { completeVideoConfirmation: { shouldShow: true } } },
    });
    const said = announcements(plugin);
    // The partner's button: focused, as after Tab, and pressed with Enter.
    const opener = document.body.appendChild(document.createElement('button'));
    opener.textContent = 'Create a video';
    opener.addEventListener('click', () => void plugin.openPlugin());
    opener.focus();
    const kb = keys(plugin);
    await kb.pressInPage('Enter');

    // The overlay took the focus into the frame, onto the screen's heading (also when the host's
    // focus came after the screen showed: navigation.ts, frameFocused): sign in.
    await until('the focus in the frame', async () => (await kb.focus()).hasFocus);
    // On the sign-in screen's heading: a Tab sent before the screen rendered (a busy machine) found
    // nothing to go to in the frame and left it.
    await kb.focus('[data-view="signIn"] h2');
    await kb.tabTo('#email');
    await kb.type(`keys-${crypto.randomUUID()}@example.com`);
    await kb.press('Enter');
    // A new screen: the focus on its heading, then Tab goes on from the top of the screen.
    expectFocusRing(await kb.focus('[data-view="search"] h2'));
    await kb.tabTo('#source-url');
    expectFocusRing(await kb.focus('#source-url'));
    await kb.type(BUSINESS_URL);
    await kb.press('Enter');
    await said.until(/^Topic found: Sunny Bakery$/);
    await kb.focus('[data-view="prompt"] h2');
    await kb.tabTo('#duration');
    // The shortest video, for time.
    await kb.type('5');
    expect((await kb.focus('#duration')).value).to.equal('5');
    const generate = await kb.tabTo('[data-view="prompt"] button[type="submit"]');
    expect(generate.at(-2)).to.match(/^textarea#instructions/);
    expectFocusRing(await kb.focus('[data-view="prompt"] button[type="submit"]'));
    await kb.press('Enter');
    await kb.focus('[data-view="preview"] h2');
    await said.until(/^Your video is ready$/, 120_000);

    // The preview's player: its own controls, named, in order; captions on until turned off.
    const stops = await kb.tabTo('[data-player="captions"]');
    expect(stops.slice(-4)).to.deep.equal([
      'button[data-player="play"] "Play"',
      'input[data-player="position"] "Position"',
      'button[data-player="mute"] "Mute"',
      'button[data-player="captions"] "Captions"',
    ]);
    let state = await kb.focus('[data-player="captions"]');
    // The chapters track is listed too (the preview has chapters), and left to the player's use.
    expect([state.pressed, state.video!.captions, state.video!.autoplay]).to.deep.equal([
      'true',
      ['captions:showing', 'chapters:disabled'],
      false,
    ]);
    await kb.press('Enter');
    state = await kb.focus('[data-player="captions"][aria-pressed="false"]');
    expect(state.video!.captions).to.deep.equal(['captions:hidden', 'chapters:disabled']);
    await kb.press(' ');
    state = await kb.focus('[data-player="captions"][aria-pressed="true"]');
    expect(state.video!.captions).to.deep.equal(['captions:showing', 'chapters:disabled']);
    await kb.tabTo('[data-player="play"]', 'Shift+Tab');
    await kb.press('Enter');
    expect((await kb.focus('[data-player="play"][aria-label="Pause"]')).video!.paused).to.equal(false);
    await kb.press('Enter');
    expect((await kb.focus('[data-player="play"][aria-label="Play"]')).video!.paused).to.equal(true);

    // The editor: a scene's text, its order, one removed; the focus stays with what moved.
    await kb.tabTo('[data-action="open-editor"]');
    await kb.press('Enter');
    await kb.focus('[data-view="editor"] h2');
    await kb.tabTo('#scene-0-body');
    await kb.type('Fresh bread, every morning');
    expect((await kb.focus('#scene-0-body')).value).to.equal('Fresh bread, every morning');
    await kb.tabTo('[data-move-down="0"]');
    await kb.press('Enter');
    // The focus moves with the scene (now the second): on its ↓, or on its ↑ once it is the last.
    const moved = await inView(kb, '[data-move-down="1"], [data-move-up="1"]');
    expect(moved.focused).to.match(/^button\[data-move-(down|up)="1"\] "Move scene 2 (down|up)"$/);
    await kb.tabTo('#scene-1-body', 'Shift+Tab');
    expect((await kb.focus('#scene-1-body')).value).to.equal('Fresh bread, every morning');
    await kb.tabTo('[data-remove="0"]', 'Shift+Tab');
    await kb.press('Enter');
    // The removed scene's place: the focus on the title of the scene now there, the edited one.
    await inView(kb, '#scene-0-heading');
    await kb.tabTo('#scene-0-body');
    expect((await kb.focus('#scene-0-body')).value).to.equal('Fresh bread, every morning');
    const saved = new Promise((resolve) => plugin.on('videoSaved', resolve));
    await kb.tabTo('[data-action="save"]');
    await kb.press('Enter');
    await saved;

    // The dialog: the focus in it on its safe choice, kept in it, Esc gives it back to its button.
    await kb.tabTo('[data-action="complete"]');
    await kb.press('Enter');
    expect((await kb.focus('[role="dialog"] [data-cancel]')).dialog).to.equal(true);
    // Cancel is its last button: Tab goes round to the first, Shift+Tab back round to the last,
    // each in view and on top (WCAG 2.4.11; frame-tab checks the same at every other stop).
    await kb.press('Tab');
    expectFocusRing(await inView(kb, '[role="dialog"] [data-confirm]'));
    await kb.press('Tab');
    await inView(kb, '[role="dialog"] [data-cancel]');
    await kb.press('Shift+Tab');
    await inView(kb, '[role="dialog"] [data-confirm]');
    await kb.press('Shift+Tab');
    await inView(kb, '[role="dialog"] [data-cancel]');
    await kb.press('Escape');
    expect((await kb.focus('[data-action="complete"]')).dialog).to.equal(false);
    expect(plugin.isOpen).to.equal(true);
    await kb.press('Enter');
    await inView(kb, '[role="dialog"] [data-cancel]');
    await kb.press('Tab');
    await inView(kb, '[role="dialog"] [data-confirm]');
    const completed = new Promise((resolve) => plugin.on('videoCompleted', resolve));
    await kb.press('Enter');
    await completed;
    // The dialog's button is disabled now: the focus on what became of it, the render's status.
    expect((await kb.focus('[data-render-status]')).dialog).to.equal(false);
    await said.until(/^The video is rendered$/, 120_000);

    // The final video plays, then the ✕ closes the studio: the focus back on the partner's button.
    await kb.tabTo('[data-player="play"]', 'Shift+Tab');
    await kb.press(' ');
    expect((await kb.focus('[data-player="play"][aria-label="Pause"]')).video!.paused).to.equal(false);
    await kb.tabTo('header button[aria-label="Close"]', 'Shift+Tab');
    await kb.press('Enter');
    await until('the studio closed', () => !plugin.isOpen);
    expect(document.activeElement).to.equal(opener);
    opener.remove();
  }).timeout(300_000);
});

describe('what the studio announces', () => {
  it('says each stage once through one polite live region, never a percentage, and mirrors it as announce', async () => {
    const plugin = await createPlugin();
    const said = announcements(plugin);
    await signUp(plugin);
    await plugin.openPlugin();
    const frame = inFrame(plugin);
    const kb = keys(plugin);
    await frame.fill('#source-url', BUSINESS_URL);
    await frame.click('[data-view="search"] button[type="submit"]');
    await said.until(/^Topic found: Sunny Bakery$/);
    await frame.click('[data-view="prompt"] button[type="submit"]:enabled');
    await said.until(/^Your video is ready$/);

    const polite = said.heard.filter((a) => a.politeness === 'polite').map((a) => a.message);
    for (const message of polite) expect(message).to.match(STAGES);
    // Once per stage: a message is never said twice in a row (the percentages changed meanwhile).
    expect(polite.filter((message, i) => message === polite[i - 1])).to.deep.equal([]);
    expect(polite.indexOf('Topic found: Sunny Bakery')).to.be.below(polite.indexOf('Your video is ready'));
    expect(said.heard.filter((a) => a.politeness === 'assertive')).to.deep.equal([]);
    // The page's one live region says what the event said last.
    const state = await kb.focus();
    expect([state.liveRegions, state.announced]).to.deep.equal([1, 'Your video is ready']);
  }).timeout(60_000);

  it('says an error through the alert, once, and mirrors it as an assertive announce', async () => {
    const plugin = await createPlugin();
    const said = announcements(plugin);
    await signUp(plugin);
    await plugin.openPlugin();
    const frame = inFrame(plugin);
    await frame.fill('#source-url', BUSINESS_URL);
    await frame.click('[data-view="search"] button[type="submit"]');
    await said.until(/^Topic found: Sunny Bakery$/);
    await frame.fill('#instructions', 'please [fail]');
    await frame.click('[data-view="prompt"] button[type="submit"]:enabled');
    const alert = await frame.text('[data-view="preview"] [role="alert"]');
    await until('the assertive announce', () => said.heard.some((a) => a.politeness === 'assertive'));
    expect(said.heard.filter((a) => a.politeness === 'assertive')).to.deep.equal([
      { message: alert, politeness: 'assertive' },
    ]);
    expect(alert).to.equal('The video could not be generated. Try again.');
  }).timeout(60_000);
});

/**
 * The stages of `plugin`'s studio read from its accessibility tree: `stage(name, selector, says)`
 * waits until `selector` is in the frame and the tree's polite live region says `says`, then checks
 * that every control has a name, that there is one polite live region and no alert, and that the
 * region changed once since the last stage: its text is new, and the studio's `announce` (its
 * mirror) said each text once, the last one being what the tree says. `false` outside Chromium.
 */
async function treeStages(plugin: Plugin, first: string) {
  const ax = tree(plugin);
  const said = announcements(plugin);
  if ((await ax.read(first)) === false) return false;
  let before = 0;
  let previous = '';
  return async (name: string, selector: string, says: RegExp) => {
    let read: Tree | false = false;
    await until(
      `${name}: the tree's live region to say ${says} (it says ${JSON.stringify(read && (read as Tree).liveRegions)})`,
      async () => {
        read = await ax.read(selector);
        const polite = read && read.liveRegions.filter((region) => region.live === 'polite');
        if (!polite || polite.length !== 1 || !says.test(polite[0]!.text)) return false;
        // The mirror travels to the page after the frame's region changed: wait for it too.
        const text = polite[0]!.text;
        return !text || said.heard.filter((a) => a.politeness === 'polite').at(-1)?.message === text;
      },
      30_000,
    );
    const now = read as unknown as Tree;
    expect(now.title, `${name}: the tree's root`).to.equal('AI video studio');
    expect(now.controls, `${name}: the controls in the tree`).to.not.deep.equal([]);
    expect(now.unnamed, `${name}: controls without a name (${now.controls.join(', ')})`).to.deep.equal([]);
    expect(
      now.liveRegions.filter((region) => region.live !== 'polite' && region.text),
      `${name}: alerts`,
    ).to.deep.equal([]);
    const text = now.liveRegions.find((region) => region.live === 'polite')!.text;
    const heard = said.heard.filter((a) => a.politeness === 'polite').map((a) => a.message);
    const since = heard.slice(before);
    expect(
      since.filter((message, i) => message === (i === 0 ? heard[before - 1] : since[i - 1])),
      `${name}: said twice in a row`,
    ).to.deep.equal([]);
    if (text) {
      expect(text, `${name}: the live region changed since the last stage`).to.not.equal(previous);
      expect(since.at(-1), `${name}: the last announce`).to.equal(text);
    } else expect(since, `${name}: said with nothing running`).to.deep.equal([]);
    before = heard.length;
    previous = text;
    return now;
  };
}

// Chromium only: Firefox (Puppeteer over WebDriver BiDi) and WebKit (WebDriver) give no
// accessibility tree (test/harness/wtr/frame-tree.mjs); axe.test.ts checks the names there.
describe('the accessibility tree at each stage (Chromium)', () => {
  it('sign-in, search, a running search, the prompt, a running generation: every control named, each stage said once', async function () {
    const plugin = await createPlugin({ slow: true, authMode: 'uncontrolled' });
    const frame = inFrame(plugin);
    await plugin.openPlugin();
    const stage = await treeStages(plugin, '[data-view="signIn"]');
    if (!stage) this.skip();
    await stage('sign-in', '[data-view="signIn"]', /^$/);
    await frame.fill('#email', `tree-${crypto.randomUUID()}@example.com`);
    await frame.click('[data-view="signIn"] button[type="submit"]');
    await stage('search', '[data-view="search"] #source-url', /^$/);
    await frame.fill('#source-url', BUSINESS_URL);
    await frame.click('[data-view="search"] button[type="submit"]');
    await stage('search running', '.progress progress', STAGES);
    const prompt = await stage(
      'prompt',
      '[data-view="prompt"] h2[data-topic-status="COMPLETE"]',
      /^Topic found: Sunny Bakery$/,
    );
    expect(prompt.controls).to.include.members(['combobox "Duration"', 'textbox "Instructions (optional)"']);
    await frame.click('[data-view="prompt"] button[type="submit"]:enabled');
    await stage('generation running', '[data-view="preview"] [data-loading]', STAGES);
  }).timeout(60_000);

  it('the preview with its player, the editor with its scenes, the confirmation dialog, the render: every control named, each stage said once', async function () {
    const plugin = await createPlugin({
      real: true,
      editor: { labels: { completeVideoConfirmation: { shouldShow: true } } },
    });
    const frame = inFrame(plugin);
    await signUp(plugin);
    const { topicId } = await plugin.startTopicSearch(BUSINESS_URL);
    await statusLog((cb) => plugin.subscribeToTopicSearchStatusUpdates(topicId, cb)).until('COMPLETE');
    const { requestId } = await plugin.startVideoGeneration({ topicId, aspectRatio: '16:9', duration: 5 });
    await statusLog((cb) => plugin.subscribeToVideoGenerationStatusUpdates(requestId, cb)).until('COMPLETE');
    await plugin.openPlugin({ generationRequestId: requestId });
    const stage = await treeStages(plugin, '[data-view="preview"]');
    if (!stage) this.skip();
    const preview = await stage('preview', '[data-view="preview"] [data-player="play"]', /^Your video is ready$/);
    expect(preview.controls).to.include.members([
      'button "Play"',
      'slider "Position"',
      'button "Mute"',
      'button "Captions"',
      'button "Open in editor"',
    ]);
    await frame.click('[data-action="open-editor"]');
    const editor = await stage('editor', '[data-view="editor"] .scenes li', /^$/);
    expect(editor.controls).to.include.members(['textbox "Scene 1 title"', 'button "Remove scene 1"']);
    await frame.click('[data-action="complete"]');
    await stage('confirmation dialog', '[data-view="editor"] [role="dialog"]', /^$/);
    await frame.click('[data-confirm]');
    await stage('completed', '[data-view="editor"] [data-render-status="COMPLETE"]', /^The video is rendered$/);
  }).timeout(120_000);
});

describe('the studio with reduced motion', () => {
  it('runs no animation when the user asks for reduced motion', async function () {
    const plugin = await createPlugin({ slow: true });
    await signUp(plugin);
    await plugin.openPlugin();
    const frame = inFrame(plugin);
    const kb = keys(plugin);
    if (!(await kb.emulate('no-preference'))) this.skip();
    try {
      await frame.fill('#source-url', BUSINESS_URL);
      await frame.click('[data-view="search"] button[type="submit"]');
      // The search runs for seconds: its bar pulses, unless the user asked for reduced motion.
      await frame.text('.progress progress');
      const moving = await kb.focus();
      expect(moving.progressBars).to.equal(1);
      expect(moving.animations).to.include('vp-pulse');
      await kb.emulate('reduce');
      const reduced = await kb.focus();
      expect([reduced.reducedMotion, reduced.progressBars, reduced.animations]).to.deep.equal([true, 1, []]);
    } finally {
      await kb.emulate('no-preference');
    }
  }).timeout(60_000);

  it('the player is paused with captions on, and nothing moves, under reduced motion', async function () {
    const plugin = await createPlugin({ real: true });
    const videoId = await generatedVideo(plugin);
    await plugin.openEditorForVideo(videoId);
    const kb = keys(plugin);
    if (!(await kb.emulate('reduce'))) this.skip();
    try {
      await inFrame(plugin).text('[data-player="play"]');
      const state = await kb.focus();
      expect(state.reducedMotion).to.equal(true);
      expect(state.video).to.deep.equal({
        paused: true,
        autoplay: false,
        controls: false,
        captions: ['captions:showing', 'chapters:disabled'],
      });
      expect(state.animations).to.deep.equal([]);
    } finally {
      await kb.emulate('no-preference');
    }
  }).timeout(120_000);
});
