// The local service's renderer (packages/service/src/media/): storyboards from a topic, the voiceover, and
// real MP4 files read back with a media parser (mp4box): duration, dimensions, codecs, an audio
// track, a thumbnail that is a frame showing the scene's image, WebVTT captions; and with ffprobe:
// the captions inside the MP4 (a mov_text track in the video's language, the same cues) and one
// chapter per scene, titled by its heading at its cut, as in the WebVTT chapters file. Images: images.test.ts. Also: a render that fails leaves no file behind (the render queue: test/jobs/slots.test.ts).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import sharp from 'sharp';
import { chapters, chaptersVtt, transcript } from '../../src/media/accessibility.js';
import { parseVtt } from '../../src/media/quality.js';
import { RenderError, captions, renderVideo } from '../../src/media/render.js';
import {
  buildStoryboard,
  sceneCount,
  styleOf,
  type Storyboard,
  type StoryboardSource,
} from '../../src/media/storyboard.js';
import { type Backgrounds, sceneStill } from '../../src/media/still.js';
import { ffmpegPath } from '../../src/media/tools.js';
import { ffprobe, picture as pictureIn, probe } from '../support/media-helpers.js';
import { parseWav, speak, VOICES } from '../../src/media/voice.js';

const work = mkdtempSync(join(tmpdir(), 'video-plugin-render-'));
after(() => rmSync(work, { recursive: true, force: true }));

const picture = (name: string, color: string, size?: string) => pictureIn(work, name, color, size);
const probeFile = (file: string) => probe(readFileSync(file));

/** The RGB of the pixel at (`x`, `y`) of an image scaled to 16×16. */
function pixel(file: string, x: number, y: number): [number, number, number] {
  const rgb = execFileSync(ffmpegPath(), [
    '-hide_banner',
    '-loglevel',
    'error',
    '-i',
    file,
    '-vf',
    'scale=16:16',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    '-',
  ]);
  const at = (y * 16 + x) * 3;
  return [rgb[at]!, rgb[at + 1]!, rgb[at + 2]!];
}

/**
 * Checks what is inside the MP4 `video` of `board` besides its picture and sound: the captions as
 * a `mov_text` track tagged `language` with the cues of the `captions` file, and one chapter per
 * scene titled by its heading, starting and ending within a frame of the scene, as `chaptersFile`
 * (the WebVTT chapters) lists them.
 */
function assertInside(
  video: string,
  board: Storyboard,
  files: { captions: string; chapters: string },
  language: string,
) {
  const probed = ffprobe(video);
  const subtitles = probed.streams.filter((stream) => stream.codec_type === 'subtitle');
  assert.deepEqual(
    subtitles.map((stream) => [stream.codec_name, stream.tags?.language]),
    [['mov_text', language]],
  );
  // The track says what the side file says, cue for cue (mov_text keeps milliseconds).
  const track = execFileSync(ffmpegPath(), ['-loglevel', 'error', '-i', video, '-map', '0:s', '-f', 'webvtt', '-']);
  const inside = parseVtt(track.toString('utf8'));
  const side = parseVtt(readFileSync(files.captions, 'utf8'));
  assert.deepEqual(
    inside.map((cue) => cue.text),
    side.map((cue) => cue.text),
  );
  for (const [index, cue] of inside.entries()) {
    assert.ok(Math.abs(cue.start - side[index]!.start) < 0.002, `cue ${index + 1} starts at ${cue.start}`);
    assert.ok(Math.abs(cue.end - side[index]!.end) < 0.002, `cue ${index + 1} ends at ${cue.end}`);
  }
  const frame = 1 / board.fps;
  const listed = parseVtt(readFileSync(files.chapters, 'utf8'));
  assert.equal(readFileSync(files.chapters, 'utf8'), chaptersVtt(board));
  assert.equal(probed.chapters.length, board.scenes.length);
  assert.equal(listed.length, board.scenes.length);
  for (const [index, scene] of board.scenes.entries()) {
    const chapter = probed.chapters[index]!;
    const [start, end] = [Number(chapter.start_time), Number(chapter.end_time)];
    assert.equal(chapter.tags?.title, scene.heading, `chapter ${index + 1}`);
    assert.ok(
      Math.abs(start - scene.start) <= frame,
      `chapter ${index + 1} starts at ${start}, its scene at ${scene.start}`,
    );
    const sceneEnd = scene.start + scene.duration;
    assert.ok(Math.abs(end - sceneEnd) <= frame, `chapter ${index + 1} ends at ${end}, its scene at ${sceneEnd}`);
    // The file's chapters, the WebVTT chapters and the video's `chapters` agree to the millisecond.
    const expected = chapters(board)[index]!;
    assert.deepEqual(
      [Math.round(start * 1000), Math.round(end * 1000)],
      [Math.round(expected.start * 1000), Math.round(expected.end * 1000)],
    );
    assert.deepEqual(listed[index], { start: expected.start, end: expected.end, text: scene.heading });
  }
}

const SOURCE: StoryboardSource = {
  sourceURL: 'https://www.harborlane.coffee/',
  title: 'Harbor Lane Coffee Roasters | Home',
  description: 'Small-batch coffee roasted every morning by the harbor. Visit our café.',
  headings: ['Roasted at dawn', 'Our café', 'Beans to take home'],
  sentences: ['We roast twelve single-origin coffees in small batches.', 'The café opens at seven every day.'],
  images: [],
};

describe('storyboard', () => {
  test('scenes follow the duration: 5 s → 2, 15 s → 4, 30 s → 6, and fill it exactly', () => {
    for (const [duration, count] of [
      [5, 2],
      [15, 4],
      [30, 6],
    ] as const) {
      const board = buildStoryboard(SOURCE, { aspectRatio: '16:9', duration, language: 'en-US' });
      assert.equal(board.scenes.length, count);
      assert.equal(board.scenes[0]!.kind, 'title');
      assert.equal(board.scenes.at(-1)!.kind, 'closing');
      const end = board.scenes.at(-1)!;
      assert.ok(Math.abs(end.start + end.duration - duration) < 1e-9);
    }
  });

  test("the title scene's text is the description's first sentence, read by the segmenter", () => {
    const board = buildStoryboard(
      { ...SOURCE, description: 'Dr. Müller backt seit 1962 um 5.30 Uhr Brot. Besuchen Sie uns.' },
      { aspectRatio: '16:9', duration: 5, language: 'de' },
    );
    assert.equal(board.scenes[0]!.body, 'Dr. Müller backt seit 1962 um 5.30 Uhr Brot. Besuchen Sie uns.');
    const longer = buildStoryboard(
      {
        ...SOURCE,
        description:
          'Dr. Müller backt seit 1962 um 5.30 Uhr Brot. Zweimal am Tag holen wir frisches Mehl aus der alten Mühle am Fluss hinter dem Dorf.',
      },
      { aspectRatio: '16:9', duration: 5, language: 'de' },
    );
    assert.equal(longer.scenes[0]!.body, 'Dr. Müller backt seit 1962 um 5.30 Uhr Brot.');
    const short = buildStoryboard(
      { ...SOURCE, description: 'Fresh coffee' },
      { aspectRatio: '16:9', duration: 5, language: 'en-US' },
    );
    assert.equal(short.scenes[0]!.body, 'Fresh coffee');
  });

  test('the layout follows the aspect ratio: 1280×720 and 1080×1350', () => {
    assert.deepEqual(
      ['16:9', '4:5'].map((aspectRatio) => {
        const board = buildStoryboard(SOURCE, { aspectRatio: aspectRatio as '16:9', duration: 5, language: 'en-US' });
        return [board.width, board.height];
      }),
      [
        [1280, 720],
        [1080, 1350],
      ],
    );
  });

  test('videoInstructions pick the palette and the pace, which changes the number of scenes', () => {
    assert.deepEqual(styleOf('Warm, upbeat, morning light.'), { palette: styleOf('warm').palette, pace: 'brisk' });
    assert.equal(styleOf('Warm').palette.name, 'warm');
    assert.equal(styleOf('something elegant and calm').palette.name, 'cool'); // the first palette named wins
    assert.equal(styleOf('').palette.name, 'indigo');
    assert.equal(styleOf('slow and gentle').pace, 'calm');
    assert.equal(sceneCount(30, 'brisk'), 7);
    assert.equal(sceneCount(30, 'calm'), 5);
    assert.equal(sceneCount(5, 'brisk'), 2);
  });

  test("the scenes carry the page's name, headings and sentences; the closing scene its address as its heading, in the language", () => {
    const board = buildStoryboard(
      { ...SOURCE, images: ['/a.png', '/b.png'] },
      { aspectRatio: '16:9', duration: 15, language: 'de' },
    );
    assert.equal(board.scenes[0]!.heading, 'Harbor Lane Coffee Roasters');
    assert.equal(board.scenes[0]!.image, '/a.png');
    assert.equal(board.scenes[1]!.heading, 'Roasted at dawn');
    assert.match(board.scenes[2]!.body!, /twelve single-origin/);
    assert.equal(board.scenes[1]!.image, '/b.png');
    // The name is the title scene's heading only: the closing scene's is where to go, the name under it.
    assert.equal(board.scenes.at(-1)!.heading, 'Besuchen Sie harborlane.coffee');
    assert.equal(board.scenes.at(-1)!.body, 'Harbor Lane Coffee Roasters');
    assert.equal(board.scenes.at(-1)!.narration, 'Besuchen Sie harborlane.coffee.');
  });

  test('the closing line never names a local address: the business instead, in the language', () => {
    for (const sourceURL of [
      'http://localhost:3000/',
      'http://127.0.0.1:8080/',
      'http://[::1]/',
      'http://shop.test/',
    ]) {
      const board = buildStoryboard({ ...SOURCE, sourceURL }, { aspectRatio: '16:9', duration: 15, language: 'fr' });
      const closing = board.scenes.at(-1)!;
      assert.equal(closing.narration, 'Découvrez Harbor Lane Coffee Roasters.', sourceURL);
      assert.equal(closing.body, undefined, sourceURL);
    }
    const named = buildStoryboard(
      { sourceURL: 'http://10.0.0.7/', siteName: 'Bloom & Stem', images: [] },
      { aspectRatio: '16:9', duration: 5, language: 'en-GB' },
    );
    assert.equal(named.scenes.at(-1)!.narration, 'Discover Bloom & Stem.');
  });

  test('text too long for a scene is shortened at sentence or clause boundaries, never mid-phrase or with an ellipsis', () => {
    const board = buildStoryboard(
      {
        ...SOURCE,
        sentences: [
          'We buy from Oregon growers at the Portland flower market every single morning, so your bouquet is cut the day you get it and lasts for a week or more in its vase.',
          'Our florists arrange each bouquet by hand (with seasonal greens), which takes about an hour.',
        ],
      },
      { aspectRatio: '16:9', duration: 15, language: 'en-US' },
    );
    const [, first, second] = board.scenes;
    // The first sentence short enough to say (cut before its clause), shown whole.
    assert.equal(first!.narration, 'Our florists arrange each bouquet by hand.');
    assert.equal(
      first!.body,
      'Our florists arrange each bouquet by hand (with seasonal greens), which takes about an hour.',
    );
    assert.equal(first!.sources?.voiceover, first!.body);
    // No form of the other is short enough to say: it is shown, cut at its clause, and the heading said.
    assert.equal(second!.body, 'We buy from Oregon growers at the Portland flower market every single morning.');
    assert.equal(second!.narration, 'Our café.');
    for (const scene of board.scenes) {
      assert.doesNotMatch(`${scene.heading} ${scene.body ?? ''} ${scene.narration}`, /…/);
      assert.match(scene.narration, /[.!?]$/);
    }
  });

  test('a page without images gets text scenes; a page without text still gets a video', () => {
    const board = buildStoryboard(SOURCE, { aspectRatio: '4:5', duration: 30, language: 'en-US' });
    assert.ok(board.scenes.every((scene) => scene.image === undefined));
    const bare = buildStoryboard(
      { sourceURL: 'http://bare.example/', images: [] },
      { aspectRatio: '16:9', duration: 15, language: 'fr' },
    );
    assert.equal(bare.scenes.length, 4);
    assert.ok(bare.scenes.every((scene) => scene.heading.length > 0 && scene.narration.length > 0));
  });
});

describe('voice', () => {
  test('every language code has a voice, and each speaks (a WAV of a plausible length)', async () => {
    for (const [language, voice] of Object.entries(VOICES)) {
      const pcm = await speak('Hello, and welcome.', voice, 165);
      const seconds = pcm.samples.length / pcm.rate;
      assert.ok(seconds > 0.5 && seconds < 4, `${language} (${voice}): ${seconds} s`);
      assert.ok(
        pcm.samples.some((sample) => Math.abs(sample) > 1000),
        `${language}: not silence`,
      );
    }
  });

  test('a narration that starts with - is spoken as text, not read as an option', async () => {
    for (const text of ['--version', '--stdin', '-w /tmp/elsewhere.wav']) {
      const pcm = await speak(text, VOICES['en-US']!, 165);
      const seconds = pcm.samples.length / pcm.rate;
      assert.ok(seconds > 0.3, `${text}: ${seconds} s of speech`);
    }
  });

  test('eSpeak runs off the event loop: timers stay on time while a long narration is spoken (issue 29, finding 5)', async () => {
    const text = 'The shop sells fresh bread, cakes and coffee every morning from seven. '.repeat(12);
    await speak('Warm up.', VOICES['en-US']!, 165);
    // A timer every 5 ms; the longest gap between two of its turns (the last one until the end).
    let worst = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    const pcm = await speak(text, VOICES['en-US']!, 165);
    const took = performance.now() - started;
    worst = Math.max(worst, performance.now() - last);
    clearInterval(ticker);
    assert.ok(pcm.samples.length / pcm.rate > 20, 'a long narration was spoken');
    // On the event loop the synthesis was one block, so the timer stood still for about all of it
    // (measured: 2.3 s of a 2.5 s synthesis). In a worker the loop keeps turning (about 0.1 s at
    // worst, under a load average of 30).
    assert.ok(
      worst < took / 2,
      `the event loop stood still for ${worst.toFixed(0)} ms during a ${took.toFixed(0)} ms synthesis`,
    );
  });

  test('syntheses from several renders at once all finish, each with its own speech', async () => {
    const texts = ['One.', 'Two words here.', 'Three short words, and then some more words to say.'];
    const lengths = await Promise.all(
      [...texts, ...texts].map(async (text) => {
        const pcm = await speak(text, VOICES['en-GB']!, 165);
        return pcm.samples.length;
      }),
    );
    assert.deepEqual(lengths.slice(0, 3), lengths.slice(3));
    assert.ok(lengths[0]! < lengths[1]! && lengths[1]! < lengths[2]!, JSON.stringify(lengths));
  });

  test('parseWav refuses what is not a WAV file', () => {
    assert.throws(() => parseWav(new Uint8Array(64)), /not a PCM WAV file/);
  });
});

describe('render', () => {
  test(
    'a 5 s 16:9 video: an MP4 of that length and size, H.264 and AAC, captions and chapters inside, a real thumbnail, captions, chapters, a transcript',
    { timeout: 60_000 },
    async () => {
      const red = picture('red.png', 'red');
      const board = buildStoryboard(
        { ...SOURCE, images: [red] },
        { aspectRatio: '16:9', duration: 5, language: 'en-GB' },
      );
      const dir = join(work, 'renders');
      const files = await renderVideo(board, dir, 'vid_1');
      const movie = await probeFile(files.video);
      assert.ok(Math.abs(movie.duration / movie.timescale - 5) < 0.15, `duration ${movie.duration / movie.timescale}`);
      const [video] = movie.videoTracks;
      assert.deepEqual([video!.video!.width, video!.video!.height], [1280, 720]);
      assert.match(video!.codec, /^avc1\./);
      assert.equal(movie.audioTracks.length, 1);
      assert.match(movie.audioTracks[0]!.codec, /^mp4a\.40/);
      // The thumbnail is a frame of the first scene: the red picture above its text band.
      const thumbnail = await sharp(files.thumbnail).metadata();
      assert.deepEqual([thumbnail.format, thumbnail.width, thumbnail.height], ['jpeg', 1280, 720]);
      const [r, g, b] = pixel(files.thumbnail, 2, 2);
      assert.ok(r > 180 && g < 80 && b < 80, `top-left of the thumbnail is red: ${[r, g, b]}`);
      // Each cue starts where the voice says its words: scene 2's 150 ms after its first frame, 2.52 s
      // (scenes start on whole frames: 2.5 s at 25 fps rounds to frame 63).
      assert.equal(readFileSync(files.captions, 'utf8'), captions(board, [0.15, 2.67]));
      assert.match(captions(board), /^WEBVTT\n\n1\n00:00:00\.150 --> 00:00:02\.500\nHarbor Lane Coffee Roasters\./);
      assert.equal(readFileSync(files.transcript, 'utf8'), transcript(board));
      // Inside the MP4: the captions in English (en-GB: MP4 has no region), two chapters, the cut at 2.52 s.
      assertInside(files.video, board, files, 'eng');
      assert.deepEqual(
        chapters(board).map(({ start, end }) => [start, end]),
        [
          [0, 2.52],
          [2.52, 5],
        ],
      );
      // Readable by the service's user only, like the data file.
      for (const file of [files.video, files.thumbnail, files.captions, files.chapters, files.transcript]) {
        assert.equal(statSync(file).mode & 0o777, 0o600, file);
      }
      // Nothing else is left in the folder (the work files are gone).
      assert.deepEqual(readdirSync(dir).sort(), [
        'vid_1.chapters.vtt',
        'vid_1.jpg',
        'vid_1.mp4',
        'vid_1.txt',
        'vid_1.vtt',
      ]);
    },
  );

  test(
    'a 15 s 4:5 video without images: 1080×1350, 15 s, text scenes in the palette, French captions, chapters whose titles keep =, ; and #',
    { timeout: 60_000 },
    async () => {
      // Headings with what an ffmetadata file reads as syntax (`=`, `;`, `#`, `\`) keep it in their chapters.
      const headings = ['Roast = love; #1 \\ beans', ...SOURCE.headings!.slice(1)];
      const board = buildStoryboard(
        { ...SOURCE, headings },
        {
          aspectRatio: '4:5',
          duration: 15,
          language: 'fr',
          videoInstructions: 'fresh and green',
        },
      );
      const files = await renderVideo(board, join(work, 'renders'), 'vid_2');
      const movie = await probeFile(files.video);
      assert.ok(Math.abs(movie.duration / movie.timescale - 15) < 0.15);
      assert.deepEqual([movie.videoTracks[0]!.video!.width, movie.videoTracks[0]!.video!.height], [1080, 1350]);
      const [r, g, b] = pixel(files.thumbnail, 1, 1);
      // The "fresh" palette's dark green background (0x052e16).
      assert.ok(g > r && g > b && g < 90, `background is dark green: ${[r, g, b]}`);
      // Four scenes at 3.75 s each, cut on whole frames (3.76, 7.52, 11.24 s); French is `fra`.
      assert.equal(board.scenes[1]!.heading, 'Roast = love; #1 \\ beans');
      assertInside(files.video, board, files, 'fra');
      assert.deepEqual(
        chapters(board).map(({ start }) => start),
        [0, 3.76, 7.52, 11.24],
      );
    },
  );

  test('a still is raw RGB of the frame, and a picture several scenes show is decoded once per render', async () => {
    const board = buildStoryboard(
      { ...SOURCE, images: [picture('shared.png', 'orange', '1600x1200')] },
      { aspectRatio: '16:9', duration: 15, language: 'en-US' },
    );
    const shown = board.scenes.filter((scene) => scene.image);
    assert.ok(shown.length >= 2, `scenes with the picture: ${shown.length}`);
    const backgrounds: Backgrounds = new Map();
    const stills = [];
    for (const scene of shown) stills.push(await sceneStill(scene, board, backgrounds));
    // One decoded picture for all of them, by path, frame size and background.
    assert.equal(backgrounds.size, 1);
    for (const [index, still] of stills.entries()) {
      assert.equal(still.length, 1280 * 720 * 3);
      // The same pixels as a still made alone (its own decode).
      assert.ok(still.equals(await sceneStill(shown[index]!, board)), `scene ${index + 1}`);
    }
  });

  test('a render that fails ends with render_failed and leaves no file', async () => {
    const board = buildStoryboard(
      { ...SOURCE, images: [join(work, 'no-such-image.png')] },
      { aspectRatio: '16:9', duration: 5, language: 'en-US' },
    );
    const dir = join(work, 'failed');
    await assert.rejects(
      renderVideo(board, dir, 'vid_3'),
      (error: unknown) => error instanceof RenderError && error.code === 'render_failed',
    );
    assert.deepEqual(readdirSync(dir), []);
  });
});
