/**
 * The voiceover: eSpeak NG compiled to WebAssembly (the `espeak-ng` npm package: the engine and
 * its voices are inside the package, nothing is fetched), one voice per language code of the
 * reference. Each scene's narration is spoken at the storyboard's pace, sped up when it would not
 * fit its scene, slowed down (to {@link MIN_WPM}) when it would leave the scene silent for more than
 * {@link MAX_SILENCE}, then padded with silence to the scene's exact length; the scenes together make
 * one mono 16-bit WAV track as long as the video.
 *
 * The narration is spoken in the parts its caption cues show (accessibility.ts, `cueTexts`), each
 * as a piece of its own, laid end to end: a cue starts where its piece starts, so its time is true
 * by construction, not estimated. Cues are cut between sentences, else clauses, where eSpeak
 * pauses anyway (about 330 ms after a sentence, 170 ms after a comma, the same alone as within the
 * whole): the pieces keep the pause eSpeak ends them with, and lose the few milliseconds of
 * silence it starts them with. The WAV carries where each piece starts as cue points (its
 * standard `cue ` chunk), so a voice taken from the scene cache still knows its cues' times.
 */
import { Worker } from 'node:worker_threads';
import { DEFAULT_LANGUAGE } from 'video-plugin/internal';
import { cueTexts } from './accessibility.js';
import { SentenceSplitter } from './source/sentences.js';
import type { Storyboard } from './storyboard.js';
import { MAX_SILENCE, NARRATION_CPS, VOICE_LEAD, WORDS_PER_MINUTE } from './storyboard.js';

/**
 * The eSpeak NG voice of each language code. eSpeak NG has no Australian or New Zealand English:
 * they get British English, the closest (non-rhotic) accent it has.
 */
export const VOICES: Readonly<Record<string, string>> = {
  'en-US': 'en-us',
  'en-GB': 'en-gb',
  'en-AU': 'en-gb',
  'en-NZ': 'en-gb',
  de: 'de',
  es: 'es',
  fr: 'fr-fr',
  'it-IT': 'it',
  pt: 'pt',
};

/** Fastest speech allowed when a narration must fit its scene, in words per minute. */
const MAX_WPM = 280;
/** Slowest speech allowed when a narration would leave its scene silent, in words per minute. */
export const MIN_WPM = 120;
/**
 * A narration that would end more than this many seconds before its scene does is spoken more
 * slowly (down to {@link MIN_WPM}). Its last piece ends with eSpeak's own pause (about 0.35 s,
 * longer when slowed), so the silence after its words stays well under {@link MAX_SILENCE}: at
 * 0.5 s here it measured up to 0.98 s in a scene of the test page, at 0.2 s up to 0.72 s.
 */
const FILL_SILENCE = MAX_SILENCE - VOICE_LEAD - 0.65;

/**
 * eSpeak NG runs in worker threads, never on the service's event loop: one synthesis takes
 * 200–330 ms of CPU, and on the event loop it held every HTTP answer that long. The worker's code
 * is this string (no file of its own, so the same code works from the sources, from dist/ and from
 * the bundled package); it loads the `espeak-ng` module this file resolves.
 */
const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
let factory;
let compiled;
parentPort.on('message', async ({ id, args }) => {
  try {
    factory ??= import(workerData.espeak).then((module) => module.default);
    // Its 18 MB of WebAssembly compiled once per worker, not once per synthesis: 144 instead of
    // 173 ms of CPU a synthesis (BENCHMARKS.md, "The local service's renderer").
    compiled ??= WebAssembly.compile(readFileSync(new URL('espeak-ng.wasm', workerData.espeak)));
    const module = await compiled;
    const instantiateWasm = (imports, receive) => {
      WebAssembly.instantiate(module, imports).then(
        (instance) => receive(instance, module),
        (error) => parentPort.postMessage({ id, error: String(error) }),
      );
      return {};
    };
    const espeak = await (await factory)({ arguments: args, print() {}, printErr() {}, instantiateWasm });
    parentPort.postMessage({ id, wav: espeak.FS.readFile('/out.wav') });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

/**
 * Workers at most: one. A worker's eSpeak instances (32 MB of WebAssembly memory each, collected
 * late) held 150–200 MB, so a second worker put 20 generations at once over the 400 MB target;
 * a synthesis takes about 150 ms of CPU and runs beside the render's stills and encodes.
 */
const POOL_SIZE = 1;

interface VoiceWorker {
  worker: Worker;
  pending: Map<number, { resolve: (wav: Uint8Array) => void; reject: (error: Error) => void }>;
}

const pool: VoiceWorker[] = [];
let nextId = 0;

/** A worker with the fewest syntheses under way (a new one while the pool has room). */
function voiceWorker(): VoiceWorker {
  const idle = pool.find((entry) => entry.pending.size === 0);
  if (idle) return idle;
  if (pool.length < POOL_SIZE) {
    const entry: VoiceWorker = {
      worker: new Worker(WORKER_CODE, { eval: true, workerData: { espeak: import.meta.resolve('espeak-ng') } }),
      pending: new Map(),
    };
    // An idle worker does not keep the process alive; one with work does (see synthesize).
    entry.worker.unref();
    entry.worker.on('message', ({ id, wav, error }: { id: number; wav?: Uint8Array; error?: string }) => {
      const job = entry.pending.get(id);
      entry.pending.delete(id);
      if (entry.pending.size === 0) entry.worker.unref();
      if (wav) job?.resolve(wav);
      else job?.reject(new Error(`eSpeak NG failed: ${error}`));
    });
    const fail = (error: Error) => {
      pool.splice(pool.indexOf(entry), 1);
      for (const job of entry.pending.values()) job.reject(error);
      entry.pending.clear();
    };
    entry.worker.on('error', fail);
    entry.worker.on('exit', (code) => {
      if (pool.includes(entry)) fail(new Error(`the eSpeak NG worker stopped (exit code ${code})`));
    });
    pool.push(entry);
    return entry;
  }
  return pool.reduce((least, entry) => (entry.pending.size < least.pending.size ? entry : least));
}

/** Runs eSpeak NG with `args` in a worker; resolves with the WAV file it wrote to /out.wav. */
function synthesize(args: string[]): Promise<Uint8Array> {
  const entry = voiceWorker();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    entry.pending.set(id, { resolve, reject });
    entry.worker.ref();
    entry.worker.postMessage({ id, args });
  });
}

/** Mono 16-bit PCM samples and their rate; `cues`, the samples where caption cues start. */
export interface Pcm {
  rate: number;
  samples: Int16Array;
  cues?: number[];
}

/** A piece's leading samples below this are silence, trimmed (−60 dBFS: the cut is inaudible). */
const SILENCE = 33;

/** Speaks `text` with eSpeak NG's `voice` at `wpm` words per minute (in a worker thread). */
export async function speak(text: string, voice: string, wpm: number): Promise<Pcm> {
  // `--` ends the options: a narration that starts with `-` (from a page) is text, not a flag.
  return parseWav(await synthesize(['-v', voice, '-s', String(Math.round(wpm)), '-w', '/out.wav', '--', text]));
}

/** Reads a PCM WAV file (mono or not: the first channel is kept), with its cue points if any. */
export function parseWav(bytes: Uint8Array): Pcm {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 12;
  let rate = 22050;
  let channels = 1;
  const cues: number[] = [];
  while (offset + 8 <= bytes.byteLength) {
    const id = String.fromCharCode(...bytes.subarray(offset, offset + 4));
    const size = view.getUint32(offset + 4, true);
    if (id === 'fmt ') {
      channels = view.getUint16(offset + 10, true);
      rate = view.getUint32(offset + 12, true);
    } else if (id === 'cue ') {
      // Each cue point is 24 bytes; its sample offset is the last field.
      const count = view.getUint32(offset + 8, true);
      for (let i = 0; i < count; i++) cues.push(view.getUint32(offset + 12 + i * 24 + 20, true));
    } else if (id === 'data') {
      // eSpeak writes a streaming header (size 0xffffffff or 0) when it cannot seek: read to the end.
      const end = size === 0 || offset + 8 + size > bytes.byteLength ? bytes.byteLength : offset + 8 + size;
      const frames = Math.floor((end - offset - 8) / 2 / channels);
      const samples = new Int16Array(frames);
      for (let i = 0; i < frames; i++) samples[i] = view.getInt16(offset + 8 + i * 2 * channels, true);
      // The cue chunk comes before the data (wavFile writes it there).
      return cues.length > 0 ? { rate, samples, cues } : { rate, samples };
    }
    offset += 8 + size + (size % 2);
  }
  throw new Error('not a PCM WAV file');
}

/** A 16-bit mono WAV file of `pcm`, its cue points (if any) in a `cue ` chunk before the data. */
export function wavFile({ rate, samples, cues = [] }: Pcm): Buffer {
  const cueBytes = cues.length > 0 ? 12 + 24 * cues.length : 0;
  const header = Buffer.alloc(44 + cueBytes);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + cueBytes + samples.byteLength, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  let at = 36;
  if (cueBytes > 0) {
    header.write('cue ', at);
    header.writeUInt32LE(cueBytes - 8, at + 4);
    header.writeUInt32LE(cues.length, at + 8);
    for (const [index, sample] of cues.entries()) {
      // id, position, 'data', chunk start, block start, sample offset.
      const point = at + 12 + index * 24;
      header.writeUInt32LE(index + 1, point);
      header.writeUInt32LE(sample, point + 4);
      header.write('data', point + 8);
      header.writeUInt32LE(sample, point + 20);
    }
    at += cueBytes;
  }
  header.write('data', at);
  header.writeUInt32LE(samples.byteLength, at + 4);
  return Buffer.concat([header, Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)]);
}

/** `pcm`'s samples from its first sound on (its leading silence trimmed). */
function fromSound({ samples }: Pcm): Int16Array {
  const first = samples.findIndex((sample) => Math.abs(sample) > SILENCE);
  return first < 0 ? samples.subarray(samples.length) : samples.subarray(first);
}

/**
 * The whole voiceover of `board`: each scene's narration within its scene, as one WAV file whose
 * cue points are where each caption cue's words start (accessibility.ts, `cues`).
 *
 * A scene's cue texts are spoken one by one and laid end to end after {@link VOICE_LEAD}, each from
 * its first sound, each with the pause eSpeak ends it with. A cue too short to read at
 * {@link NARRATION_CPS} gets more silence after it, from the scene's spare time.
 */
export async function voiceover(board: Storyboard): Promise<Buffer> {
  const voice = VOICES[board.language] ?? VOICES[DEFAULT_LANGUAGE]!;
  const splitter = new SentenceSplitter(board.language);
  let rate = 22050;
  const parts: Int16Array[] = [];
  const cues: number[] = [];
  let sceneAt = 0;
  for (const scene of board.scenes) {
    const texts = cueTexts(scene.narration, splitter);
    const speakAll = (wpm: number) => Promise.all(texts.map((text) => speak(text, voice, wpm)));
    let wpm = WORDS_PER_MINUTE[board.pace];
    let pcm = await speakAll(wpm);
    rate = pcm[0]!.rate;
    const room = Math.max(0.5, scene.duration - 0.3);
    const spoken = pcm.reduce((sum, piece) => sum + piece.samples.length, 0) / rate;
    const filled = scene.duration - VOICE_LEAD - FILL_SILENCE;
    if (spoken > room && wpm < MAX_WPM) {
      wpm = Math.min(MAX_WPM, (wpm * spoken) / room);
      pcm = await speakAll(wpm);
    } else if (spoken < filled && wpm > MIN_WPM) {
      wpm = Math.max(MIN_WPM, (wpm * spoken) / filled);
      pcm = await speakAll(wpm);
    }
    const pieces = pcm.map(fromSound);
    const length = Math.round(scene.duration * rate);
    const lead = Math.round(VOICE_LEAD * rate);
    // The silence each cue needs after its piece to be read in time (the last one's lasts to the
    // scene's end); when the scene has less to spare, each gets its share of what there is.
    const needs = pieces.map((piece, index) =>
      Math.max(0, Math.ceil(([...texts[index]!].length / NARRATION_CPS) * rate) - piece.length),
    );
    const spare = length - lead - pieces.reduce((sum, piece) => sum + piece.length, 0);
    const asked = needs.reduce((sum, need) => sum + need, 0);
    const pads = needs.map((need) => (asked > spare ? Math.floor((need * Math.max(0, spare)) / asked) : need));
    const part = new Int16Array(length);
    // A short lead-in, then the pieces; whatever still does not fit is cut.
    let at = lead;
    for (const [index, piece] of pieces.entries()) {
      cues.push(sceneAt + Math.min(at, length));
      part.set(piece.subarray(0, Math.max(0, length - at)), Math.min(at, length));
      at += piece.length + pads[index]!;
    }
    parts.push(part);
    sceneAt += length;
  }
  const total = new Int16Array(Math.round(board.duration * rate));
  let at = 0;
  for (const part of parts) {
    total.set(part.subarray(0, total.length - at), at);
    at += part.length;
  }
  return wavFile({ rate, samples: total, cues: cues.map((cue) => Math.min(cue, total.length)) });
}
