// Scenes that read well: pages with long titles and descriptions (German, French, Portuguese, one
// very long compound word) are rendered at both aspect ratios, and the decoded frames prove that
// no text reaches the frame's edge and that the text is there.
//
// The renderer keeps its text 6 % of the frame's width and height away from the edges. The strip
// checked here is the outer 5 %: H.264 may smear a sharp text edge over a few pixels, never over
// a whole block.
//
// VP_LAYOUT_FRAMES=DIR writes each checked frame into DIR as a 640 px wide PNG, to look at them.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import sharp from 'sharp';
import type { Language } from 'video-plugin/internal';
import { drawText, fitText, layoutText, safeArea } from '../../src/media/layout.js';
import { renderVideo } from '../../src/media/render.js';
import {
  buildStoryboard,
  RESOLUTIONS,
  type Storyboard,
  type StoryboardParams,
  type StoryboardSource,
} from '../../src/media/storyboard.js';
import { framesAt } from '../support/media-helpers.js';

const work = mkdtempSync(join(tmpdir(), 'video-plugin-layout-'));
after(() => rmSync(work, { recursive: true, force: true }));
const saveTo = process.env.VP_LAYOUT_FRAMES;
if (saveTo) mkdirSync(saveTo, { recursive: true });

const COMPOUND = 'Donaudampfschifffahrtselektrizitätenhauptbetriebswerkbauunterbeamtengesellschaft';

/** Pages whose text is long, in several languages. */
const PAGES: { name: string; language: Language; duration: 5 | 15; source: Omit<StoryboardSource, 'images'> }[] = [
  {
    name: 'german',
    language: 'de',
    duration: 15,
    source: {
      sourceURL: 'https://www.baeckerei-sonnenschein-freiburg.de/',
      title: 'Handwerksbäckerei Sonnenschein Freiburg im Breisgau',
      description:
        'Handwerksbäckerei in Freiburg: Sauerteigbrot, Brezeln und Kuchen seit 1962. Jeden Morgen frisch aus dem Steinofen.',
      headings: ['Unsere Sauerteigbrote aus regionalem Dinkelvollkornmehl', 'Öffnungszeiten und Vorbestellungen'],
      sentences: [
        'Qualitätssicherungsmaßnahmen und Lebensmittelüberwachungsvorschriften bestimmen unseren Arbeitsalltag in der Backstube.',
        'Unsere Brezeln werden nach überlieferter schwäbischer Tradition von Hand geschlungen und mit grobem Salz bestreut.',
      ],
    },
  },
  {
    name: 'french',
    language: 'fr',
    duration: 5,
    source: {
      sourceURL: 'https://www.patisserie-artisanale-aix.fr/',
      title: 'Pâtisserie Artisanale Éclairs & Macarons d’Aix-en-Provence',
      description:
        'Pâtisserie artisanale à Aix-en-Provence : éclairs, macarons, tartes aux fruits de saison et créations personnalisées pour vos événements.',
    },
  },
  {
    name: 'portuguese',
    language: 'pt',
    duration: 5,
    source: {
      sourceURL: 'https://www.padaria-sao-joao.pt/',
      title: 'Padaria e Confeitaria Tradicional São João da Conceição',
      description:
        'Pães artesanais, pastéis de nata, bolos de aniversário e café acabado de moer, servidos todos os dias desde 1958 no coração de Lisboa.',
    },
  },
  {
    name: 'compound',
    language: 'de',
    duration: 15,
    source: {
      sourceURL: 'https://www.dampfschiff.de/',
      title: COMPOUND,
      description: `${COMPOUND}sjahresabschlussberichtsveröffentlichungsverordnung.`,
      headings: [`${COMPOUND}smitglieder`],
      sentences: [`Die ${COMPOUND} lädt ein.`],
    },
  },
];

const ASPECTS = Object.keys(RESOLUTIONS) as StoryboardParams['aspectRatio'][];

/** `0xRRGGBB` → [r, g, b]. */
const rgbOf = (hex: string) => [1, 3, 5].map((at) => parseInt(hex.slice(2).slice(at - 1, at + 1), 16));
const near = (a: number[], b: number[], tolerance: number) =>
  a.every((value, i) => Math.abs(value - b[i]!) <= tolerance);
const isText = (rgb: number[]) => rgb.every((value) => value >= 200);

/** What a decoded frame shows in its border strip and inside it. */
function inspect(frame: Buffer, board: Storyboard, background?: number[]) {
  const { width: w, height: h } = board;
  const strip = { x: Math.round(w * 0.05), y: Math.round(h * 0.05) };
  let offBackground = 0;
  let textInStrip = 0;
  let textInside = 0;
  const where = new Set<string>();
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const at = (y * w + x) * 3;
      const rgb = [frame[at]!, frame[at + 1]!, frame[at + 2]!];
      const inStrip = x < strip.x || x >= w - strip.x || y < strip.y || y >= h - strip.y;
      if (!inStrip) {
        if (isText(rgb)) textInside++;
        continue;
      }
      const side = x < strip.x ? 'left' : x >= w - strip.x ? 'right' : y < strip.y ? 'top' : 'bottom';
      if (isText(rgb)) {
        textInStrip++;
        where.add(side);
      }
      if (background && !near(rgb, background, 24)) {
        offBackground++;
        where.add(side);
      }
    }
  }
  return { offBackground, textInStrip, textInside, where: [...where] };
}

async function renderAndCheck(
  page: (typeof PAGES)[number],
  aspectRatio: StoryboardParams['aspectRatio'],
  images: string[],
): Promise<void> {
  const board = buildStoryboard(
    { ...page.source, images },
    { aspectRatio, duration: page.duration, language: page.language },
  );
  const name = `${page.name}-${aspectRatio.replace(':', 'x')}${images.length ? '-image' : ''}`;
  const files = await renderVideo(board, join(work, 'renders'), name);
  // The middle of each scene: past its fade-in, before its fade-out.
  const times = board.scenes.map((scene) => scene.start + scene.duration / 2);
  const frames = framesAt(files.video, times, board.width, board.height);
  const problems: string[] = [];
  for (const [index, frame] of frames.entries()) {
    assert.equal(frame.byteLength, board.width * board.height * 3);
    const scene = board.scenes[index]!;
    // Text scenes are drawn on the palette's colour: their strip is that colour and nothing else.
    // Scenes with a picture show it in the strip: there, no pixel may have the text's colour.
    const found = inspect(frame, board, scene.image ? undefined : rgbOf(board.palette.background));
    if (saveTo) {
      await sharp(frame, { raw: { width: board.width, height: board.height, channels: 3 } })
        .resize({ width: 640 })
        .png()
        .toFile(join(saveTo, `${name}-${index}.png`));
    }
    if (found.offBackground > 0 || found.textInStrip > 0) {
      problems.push(
        `scene ${index} (${scene.kind}, "${scene.heading.slice(0, 40)}"): ${found.textInStrip} text-coloured and ` +
          `${found.offBackground} non-background pixels in the border strip (${found.where.join(', ')})`,
      );
    }
    // The text is there: a heading is thousands of text-coloured pixels.
    if (found.textInside < 2000) problems.push(`scene ${index}: only ${found.textInside} text pixels inside the frame`);
  }
  assert.deepEqual(problems, [], `${name}:\n${problems.join('\n')}`);
}

describe('text layout', () => {
  const white = { color: 'white', weight: 'bold' } as const;

  test("a page's markup characters are drawn as text, not read as pango markup", async () => {
    const plain = await drawText('Tom and Jerry bold', { ...white, size: 40, width: 2000 });
    const markup = await drawText('Tom & Jerry <b>bold</b>', { ...white, size: 40, width: 2000 });
    // `<b>` read as markup would draw "bold" in bold, 4 letters; as text it is 11 characters more.
    assert.ok(markup.width > plain.width, `${markup.width} > ${plain.width}`);
  });

  test('a word wider than the box is broken inside the word, and no line is wider than the box', async () => {
    const drawn = await drawText(COMPOUND, { ...white, size: 58, width: 600 });
    assert.ok(drawn.width <= 600, `width ${drawn.width}`);
    assert.ok(drawn.height > 3 * 58, `several lines: height ${drawn.height}`);
  });

  test('text that fits keeps its size; text that does not shrinks, then ends with an ellipsis', async () => {
    const box = { size: 58, lines: 2, width: 1130, maxHeight: 400, ...white };
    const short = await fitText('Harbor Lane Coffee', box);
    assert.deepEqual([short?.text, short?.size], ['Harbor Lane Coffee', 58]);
    const longer = await fitText('Handwerksbäckerei Sonnenschein Freiburg im Breisgau und Umgebung', box);
    assert.ok(longer && longer.size < 58 && !longer.text.endsWith('…'), `${longer?.size}: ${longer?.text}`);
    const tooLong = await fitText(`${COMPOUND} ${COMPOUND} ${COMPOUND}`, box);
    assert.ok(tooLong?.text.endsWith('…'), tooLong?.text);
    assert.equal(tooLong?.size, Math.round(58 * 0.72));
  });

  test('the body gets the room the heading leaves; the layout never exceeds its box', async () => {
    const style = { heading: 58, body: 32, headingLines: 2, bodyLines: 3, color: 'white' };
    for (const maxHeight of [120, 200, 400]) {
      const layout = await layoutText({ heading: COMPOUND, body: `${COMPOUND} `.repeat(6) }, 1130, maxHeight, style);
      assert.ok(layout.height <= maxHeight, `${layout.height} ≤ ${maxHeight}`);
      assert.ok(layout.heading, 'a heading');
    }
  });

  test('the safe area keeps 6 % of each side free, at 16:9 and 4:5', () => {
    assert.deepEqual(safeArea(1280, 720), { left: 77, top: 43, width: 1126, height: 634 });
    assert.deepEqual(safeArea(1080, 1350), { left: 65, top: 81, width: 950, height: 1188 });
  });
});

describe('scene text stays inside the frame', () => {
  // A hang detector, not a budget: a render takes 10–20 s on an idle 2-core machine, and took 57 s
  // beside other work (a 60 s limit then failed a correct render).
  const RENDER_TIMEOUT_MS = 180_000;
  for (const page of PAGES) {
    for (const aspectRatio of ASPECTS) {
      test(
        `${page.name} text at ${aspectRatio}: nothing in the border strip, the text inside`,
        { timeout: RENDER_TIMEOUT_MS },
        () => renderAndCheck(page, aspectRatio, []),
      );
    }
  }

  for (const aspectRatio of ASPECTS) {
    test(
      `over a picture at ${aspectRatio}, the German page's text stays inside too`,
      { timeout: RENDER_TIMEOUT_MS },
      async () => {
        // The loaf of the demo page (amber and brown: no pixel of it has the text's colour).
        const bread = join(work, 'bread.png');
        await sharp(readFileSync(new URL('../../../../test/fixtures/bread.svg', import.meta.url)), { density: 1000 })
          .resize(1600, 1067)
          .png()
          .toFile(bread);
        await renderAndCheck(PAGES[0]!, aspectRatio, [bread]);
      },
    );
  }
});
