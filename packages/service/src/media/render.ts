/**
 * The render: a storyboard and its voiceover into an MP4 (H.264 video, AAC audio, the captions as a
 * `mov_text` subtitle track tagged with the video's language, one chapter per scene, `+faststart`
 * so players start before the end is loaded), a thumbnail that is a real frame of it, WebVTT
 * captions of the narration, WebVTT chapters and its plain-text transcript (accessibility.ts).
 *
 * Scene by scene (docs/service.md, "Scenes, segments and the cache"):
 * 1. `voicing`: each scene's narration is spoken (voice.ts) and padded to the scene's frames; the
 *    parts make one track, brought to −16 LUFS once, by one gain and a peak limiter (loudness.ts).
 *    The voice's cue points (where each caption cue's words start) time the captions.
 * 2. `composing_scenes`: each scene's still is composed by sharp (`still.ts`), and its frames are
 *    encoded as an H.264 segment of their own (the still repeated by ffmpeg's `loop` filter, faded
 *    in and out); the segments of a render are encoded in parallel, at most `encodes`' limit at
 *    once across every render of the service.
 * 3. `rendering`: the segments are joined without re-encoding (ffmpeg's concat demuxer) and muxed
 *    with the voice track, encoded once as AAC, the captions (their WebVTT, written just before)
 *    and the chapters (an ffmetadata file). The subtitle track and the chapters exist only in this
 *    mux, which copies the picture and the sound: they change no scene's cache key.
 * A scene's segment and voice are kept in the scene cache (segments.ts) under a key of everything
 * they depend on: the next render of an unchanged scene takes them as they are.
 *
 * Every file is a pure function of the storyboard and the ffmpeg used: bit-exact flags, no
 * metadata, no creation time, a fixed number of encoder threads (docs/service.md, "Byte-identical
 * renders"). Each file's SHA-256 comes with it.
 *
 * Files are written under temporary names and renamed at the end: a failed or aborted render leaves
 * nothing that could be served.
 */
import pLimit, { type LimitFunction } from 'p-limit';
import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import { captions, chapterMetadata, chaptersVtt, transcript } from './accessibility.js';
import { BITEXACT, encode, RenderError, type RunOptions } from './encoder.js';
import { RENDER_FILE_KINDS, renderFiles, type RenderFileKind } from './files.js';
import { loudnessFilter, loudnessGain } from './loudness.js';
import { cacheKey, SceneCache } from './segments.js';
import { frameAt, type Scene, type Storyboard } from './storyboard.js';
import { type Backgrounds, sceneStill } from './still.js';
import { MP4_LANGUAGES, type ProgressStage } from 'video-plugin/internal';
import { currentFfmpeg, ffmpegVersion } from './tools.js';
import { parseWav, type Pcm, voiceover, wavFile } from './voice.js';

export { RenderError } from './encoder.js';

/**
 * What a job reports its progress to; the jobs' `ProgressTracker` (jobs/progress.ts) is the
 * service's. Declared here, where it is called, so that media/ needs nothing from jobs/.
 */
export interface ProgressReporter {
  /** Enters `stage` (ignored when the job is already past it). */
  stage(stage: ProgressStage): unknown;
  /** How far the current stage is, 0..1 (published when the throttle allows). */
  within(share: number): void;
  /**
   * Counts `share` (0..1) of the current stage as done without work (a scene taken from the
   * cache): the time left is then estimated from the work actually done.
   */
  credit?(share: number): void;
}

/** What a render did: its scenes, how many it made and took from the cache, its wall time. */
export interface RenderStats {
  scenes: number;
  scenesRendered: number;
  scenesReused: number;
  ms: number;
}

export { captions } from './accessibility.js';

/** A render's files (their paths, by kind: files.ts), the SHA-256 of each, and what the render did. */
export type RenderedFiles = Record<RenderFileKind, string> & {
  /** The SHA-256 (hex) of each file. */
  sha256: Record<RenderFileKind, string>;
  stats: RenderStats;
};

export interface RenderOptions {
  signal?: AbortSignal | undefined;
  progress?: ProgressReporter | undefined;
  /** Where scenes are kept between renders; without one, every scene is made (and not kept). */
  cache?: SceneCache | undefined;
  /** Runs the scenes' encodes (default: a limit of the cores for this render alone). */
  encodes?: LimitFunction | undefined;
  /** How long ffmpeg may report no progress before it counts as hung (encoder.ts). */
  stallMs?: number | undefined;
}

/**
 * x264 threads of every encode. Fixed, not the machine's cores: x264's output depends on its
 * number of threads, and a render must give the same bytes on every machine.
 */
const ENCODER_THREADS = 2;
/**
 * Settings of the scenes' H.264, chosen by measurement (BENCHMARKS.md, "The local service's
 * renderer", the run of 2026-11-26 on branch `fast`): `ultrafast` with CABAC and simple weighted
 * prediction (the fades) put back, CRF 26. Against `veryfast`, the former setting: 40 % less encode
 * CPU, a higher SSIM on every scene, about twice the bytes of a content scene; Main profile, which
 * every browser plays.
 */
export const H264 = [
  ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'stillimage', '-crf', '26'],
  ...['-x264-params', 'cabac=1:weightp=1', '-pix_fmt', 'yuv420p'],
];
/**
 * The AAC encode of the voice track (stereo, 44.1 kHz, 96 kb/s): the mux copies it as it is. The
 * `fast` coder, chosen by measurement (BENCHMARKS.md): on a 30 s voice 0.41 s of CPU against
 * 1.37 s for FFmpeg's default (`twoloop`), and closer to the source (SNR 38 dB against 24 dB).
 */
const AAC = ['-c:a', 'aac', '-aac_coder', 'fast', '-b:a', '96k', '-ar', '44100', '-ac', '2'];
/**
 * {@link BITEXACT} for the final mux: no global or stream metadata from the inputs, but the
 * chapters' titles from the ffmetadata input (`-map_metadata -1` would drop those too, leaving
 * chapters without titles).
 */
const MUX_BITEXACT = [
  ...BITEXACT.slice(0, BITEXACT.indexOf('-map_metadata')),
  ...['-map_metadata:g', '-1', '-map_metadata:s', '-1'],
];
/** Share of the `rendering` stage that joining and muxing takes (the rest: the scenes' encodes). */
const JOIN_SHARE = 0.25;

/** The number of frames of `scene`. */
const framesOf = (board: Storyboard, scene: Scene) =>
  frameAt(board, scene.start + scene.duration) - frameAt(board, scene.start);

/** The ffmpeg in use, as a part of every cache key (a new encoder never reuses old segments). */
let encoderId: { path: string; version: string } | undefined;
function encoder(): string {
  const { path } = currentFfmpeg();
  if (encoderId?.path !== path) encoderId = { path, version: ffmpegVersion(path) };
  return encoderId.version;
}

/** The key of `scene`'s picture segment: everything its frames depend on. */
async function pictureKey(board: Storyboard, scene: Scene): Promise<string> {
  // The image's bytes, not its name: the same file name may hold another picture later.
  const image = scene.image
    ? createHash('sha256')
        .update(await readFile(scene.image))
        .digest('hex')
    : null;
  const { kind, heading, body } = scene;
  const { width, height, fps, palette, pace } = board;
  return cacheKey('picture', encoder(), H264, { kind, heading, body, image, width, height, fps, palette, pace }, [
    framesOf(board, scene),
  ]);
}

/** The key of `scene`'s voice: its line, the language's voice, the pace, its length. */
function voiceKey(board: Storyboard, scene: Scene): string {
  return cacheKey('voice', scene.narration, board.language, board.pace, board.fps, framesOf(board, scene));
}

/** `scene`'s voice as a WAV of exactly its frames' length. */
async function sceneVoice(board: Storyboard, scene: Scene): Promise<Buffer> {
  const alone: Storyboard = { ...board, duration: scene.duration, scenes: [{ ...scene, start: 0 }] };
  const pcm = parseWav(await voiceover(alone));
  const samples = new Int16Array(Math.round((framesOf(board, scene) / board.fps) * pcm.rate));
  samples.set(pcm.samples.subarray(0, samples.length));
  const cues = (pcm.cues ?? []).map((cue) => Math.min(cue, samples.length));
  return wavFile({ rate: pcm.rate, samples, cues });
}

/** The render's voice track: its file, the gain to the loudness target, and its cue starts (s). */
interface VoiceTrack {
  voice: string;
  gain: number;
  voiced: number[];
  /** The SHA-256 (hex) of the track's WAV bytes. */
  digest: string;
}

/** What {@link voiceTrack} shares with the render that runs it. */
interface VoiceContext {
  cache: SceneCache | undefined;
  /** The scenes made (not taken from the cache): a scene whose voice is spoken is one. */
  made: Set<number>;
  progress: ProgressReporter | undefined;
  stopped: () => void;
}

/**
 * The render's voice track in `work`: each scene's line from the cache or spoken (one after the
 * other: one eSpeak worker per render, whose WebAssembly heap is the largest part of a render's
 * memory), then one track, and the gain that brings it to the loudness target (from the cache
 * when the same track was measured before). Resolves with the track's path, that gain and where each
 * caption cue's words start.
 */
async function voiceTrack(board: Storyboard, work: string, context: VoiceContext): Promise<VoiceTrack> {
  const { cache, made, progress, stopped } = context;
  const scenes = board.scenes.length;
  /** Scenes whose voice is ready, spoken or taken from the cache. */
  let ready = 0;
  const parts: Pcm[] = [];
  for (const [index, scene] of board.scenes.entries()) {
    const key = `${voiceKey(board, scene)}.wav`;
    const file = join(work, `voice-${index}.wav`);
    const speak = async () => writeFile(file, await sceneVoice(board, scene));
    if (cache ? await cache.takeOrMake(key, file, speak) : (await speak(), false)) {
      ready++;
      progress?.credit?.(1 / scenes);
    } else {
      made.add(index);
      progress?.within(++ready / scenes);
    }
    parts.push(parseWav(await readFile(file)));
    stopped();
  }
  const rate = parts[0]?.rate ?? 22050;
  const track = new Int16Array(parts.reduce((sum, part) => sum + part.samples.length, 0));
  // Where the voice starts each caption cue, in seconds: the scenes' cue points, laid end to end.
  const voiced: number[] = [];
  parts.reduce((at, part) => {
    track.set(part.samples, at);
    for (const cue of part.cues ?? []) voiced.push((at + cue) / rate);
    return at + part.samples.length;
  }, 0);
  const voice = join(work, 'voice.wav');
  const bytes = wavFile({ rate, samples: track });
  await writeFile(voice, bytes);
  // Measured in JavaScript on the samples (loudness.ts): a few milliseconds, no ffmpeg process.
  const gain = loudnessGain(track, rate);
  return { voice, gain, voiced, digest: createHash('sha256').update(bytes).digest('hex') };
}

/**
 * The ffmpeg arguments that encode `still` as the `frames` frames of one scene, into `file`, with
 * the x264 settings `h264` (exported for bench/encoder-presets.mts, which measures others).
 */
export function segmentArgs(board: Storyboard, still: string, frames: number, file: string, h264 = H264): string[] {
  const fade = board.pace === 'brisk' ? 0.25 : 0.45;
  const out = (frames / board.fps - fade).toFixed(3);
  // The still (raw RGB, still.ts) is read once and repeated by the loop filter (an image input
  // with -loop would be read again for every frame).
  const filter =
    `format=yuv420p,loop=loop=${frames - 1}:size=1:start=0,setpts=N/${board.fps}/TB,` +
    `fade=t=in:st=0:d=${fade},fade=t=out:st=${out}:d=${fade}`;
  return [
    ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-video_size', `${board.width}x${board.height}`, '-i', still],
    '-vf',
    filter,
    '-frames:v',
    String(frames),
    '-r',
    String(board.fps),
    ...h264,
    '-threads',
    String(ENCODER_THREADS),
    '-an',
    ...BITEXACT,
    file,
  ];
}

/** Why the picture of the scene at `index` could not be made, for the partner. */
function pictureError(index: number, scene: Scene, error: unknown): RenderError {
  // The message reaches the partner: the image's name, not where the service keeps it.
  const reason = (error as Error).message.replaceAll(scene.image ?? '\0', basename(scene.image ?? ''));
  return new RenderError('render_failed', `The picture of scene ${index + 1} could not be made: ${reason}`);
}

/** The SHA-256 (hex) of `file`. */
async function sha256(file: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
}

/**
 * Renders `board` into `dir` as `<name>.mp4`, `<name>.jpg` (thumbnail), `<name>.vtt` (captions),
 * `<name>.chapters.vtt` (chapters) and `<name>.txt` (transcript), the names of files.ts. Resolves
 * with their paths, hashes and what the render did once all five are in place.
 *
 * `options.progress` is told each stage as it starts (`voicing`, `composing_scenes`, `rendering`,
 * `finishing`) and how far the stage is; scenes taken from the cache count as done at once.
 */
export async function renderVideo(
  board: Storyboard,
  dir: string,
  name: string,
  options: RenderOptions = {},
): Promise<RenderedFiles> {
  const started = Date.now();
  const { signal, progress, cache, stallMs } = options;
  const encodes = options.encodes ?? pLimit(Math.max(1, availableParallelism()));
  const run: RunOptions = { signal, stallMs };
  const stopped = () => {
    if (signal?.aborted) throw new RenderError('render_aborted', 'The render was stopped.');
  };
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const work = await mkdtemp(join(dir, `.${name}-`));
  const scenes = board.scenes.length;
  const made = new Set<number>();
  const segments: Promise<void>[] = [];
  /** The voice's and the stills' work, awaited before the work folder is removed. */
  const pending: Promise<unknown>[] = [];
  try {
    // 1. The voice, and beside it the scenes' stills and their encodes. eSpeak speaks in worker
    //    threads (voice.ts) and ffmpeg encodes in processes of its own, so nothing waits for the
    //    whole voiceover before the first still is composed. The stages still follow each other:
    //    `voicing` lasts until the voice track is ready, then `composing_scenes` counts the stills.
    progress?.stage('voicing');
    let composing = false;
    const voicing = voiceTrack(board, work, { cache, made, progress, stopped });
    // Awaited below, after the stills: a failure of either must not leave the other running.
    voicing.catch(() => {});

    // 2. The scenes' segments: each still composed by sharp (one at a time: libvips already uses
    //    every core, and one frame-sized picture is held at once, with each picture decoded once
    //    per render), its encode started at once.
    const totalFrames = board.scenes.reduce((sum, scene) => sum + framesOf(board, scene), 0);
    const encoded = new Map<number, number>();
    let reusedFrames = 0;
    let reusedScenes = 0;
    let composed = 0;
    let rendering = false;
    // Reported once the `rendering` stage has begun (encodes start while stills are composed);
    // scenes taken from the cache count as encoded (they were credited when the stage began).
    const reportEncoding = () => {
      if (!rendering) return;
      const done = [...encoded.values()].reduce((sum, frames) => sum + frames, reusedFrames);
      progress?.within(((1 - JOIN_SHARE) * done) / totalFrames);
    };
    const backgrounds: Backgrounds = new Map();
    // The thumbnail: a real frame, in the middle of the first scene (after its fade-in), made from
    // its segment as soon as that is ready (it needs nothing else), and kept in the cache beside
    // it; awaited at `finishing`.
    const thumbnail = join(work, 'thumbnail.jpg');
    const at = Math.min(board.scenes[0]!.duration / 2, board.duration - 0.1).toFixed(2);
    let poster: Promise<void> = Promise.resolve();
    const startPoster = (segmentKey: string, segment: Promise<unknown>) => {
      poster = makePoster(segmentKey, segment);
      // Awaited at `finishing`, and by the clean-up whatever happens before.
      poster.catch(() => {});
      pending.push(poster);
    };
    const makePoster = async (segmentKey: string, segment: Promise<unknown>) => {
      await segment;
      const key = `${cacheKey('poster', segmentKey, at)}.jpg`;
      const args = ['-ss', at, '-i', join(work, 'segment-0.mp4'), '-frames:v', '1', '-q:v', '3', ...BITEXACT];
      const make = () => encode('finishing', [...args, thumbnail], run);
      await (cache ? cache.takeOrMake(key, thumbnail, make) : make());
    };
    const composeScenes = async () => {
      for (const [index, scene] of board.scenes.entries()) {
        let key: string;
        try {
          key = `${await pictureKey(board, scene)}.mp4`;
        } catch (error) {
          throw pictureError(index, scene, error);
        }
        const segment = join(work, `segment-${index}.mp4`);
        // Held until the segment is kept: another render that wants this scene now waits, then takes it.
        const release = (await cache?.claim(key)) ?? (() => {});
        const raw = join(work, `still-${index}.rgb`);
        try {
          if (await cache?.take(key, segment)) {
            release();
            reusedFrames += framesOf(board, scene);
            // Credited when `composing_scenes` begins (now, when the voice is already done).
            reusedScenes++;
            if (composing) progress?.credit?.(1 / scenes);
            if (index === 0) startPoster(key, Promise.resolve());
            continue;
          }
          let still: Buffer;
          try {
            still = await sceneStill(scene, board, backgrounds);
          } catch (error) {
            throw pictureError(index, scene, error);
          }
          stopped();
          await writeFile(raw, still);
        } catch (error) {
          release();
          throw error;
        }
        made.add(index);
        composed++;
        if (composing) progress?.within((composed + reusedScenes) / scenes);
        const frames = framesOf(board, scene);
        const encoding = encodes(() =>
          encode('rendering', segmentArgs(board, raw, frames, segment), {
            ...run,
            onTime: (seconds) => (encoded.set(index, Math.min(frames, seconds * board.fps)), reportEncoding()),
          }),
        )
          .then(async () => {
            encoded.set(index, frames);
            await cache?.put(key, segment);
          })
          .finally(release);
        // Handled below, after every encode has settled: one failure must not leave others running.
        encoding.catch(() => {});
        segments.push(encoding);
        if (index === 0) startPoster(key, encoding);
      }
    };
    const stills = composeScenes();
    stills.catch(() => {});
    // The voice track encoded as AAC as soon as it is ready, beside the scenes' encodes (it needs
    // nothing of them), so that the final mux only copies; kept in the cache under the track's
    // bytes and gain, so a render whose voice is unchanged takes it as it is.
    const audio = join(work, 'voice.m4a');
    const audioDone = voicing.then(async ({ voice, gain, digest }) => {
      const args = ['-af', loudnessFilter(gain), ...AAC, '-t', String(board.duration)];
      const key = `${cacheKey('audio', encoder(), args, digest)}.m4a`;
      const make = () => encode('rendering', ['-i', voice, ...args, ...BITEXACT, audio], run);
      await (cache ? cache.takeOrMake(key, audio, make) : make());
    });
    audioDone.catch(() => {});
    pending.push(voicing, stills, audioDone);
    const { voiced } = await voicing;
    progress?.stage('composing_scenes');
    composing = true;
    if (reusedScenes > 0) progress?.credit?.(reusedScenes / scenes);
    if (composed > 0) progress?.within((composed + reusedScenes) / scenes);
    await stills;

    // 3. The segments joined as they are, the voice normalised and encoded once.
    progress?.stage('rendering');
    rendering = true;
    if (reusedFrames > 0) progress?.credit?.(((1 - JOIN_SHARE) * reusedFrames) / totalFrames);
    const settled = await Promise.allSettled(segments);
    const failed = settled.find((result) => result.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    stopped();
    const list = join(work, 'segments.txt');
    await writeFile(list, board.scenes.map((_, index) => `file 'segment-${index}.mp4'\n`).join(''));
    // The captions go into the file as a subtitle track too, and the chapters as its chapters: both
    // are written before the mux that reads them.
    const vtt = join(work, 'captions.vtt');
    await writeFile(vtt, captions(board, voiced));
    const metadata = join(work, 'chapters.txt');
    await writeFile(metadata, chapterMetadata(board));
    const video = join(work, 'video.mp4');
    await audioDone;
    await encode(
      'rendering',
      [
        ...['-f', 'concat', '-safe', '0', '-i', list, '-i', audio, '-i', vtt, '-f', 'ffmetadata', '-i', metadata],
        ...['-map', '0:v', '-map', '1:a', '-map', '2:s', '-map_chapters', '3', '-c', 'copy', '-c:s', 'mov_text'],
        ...['-metadata:s:s:0', `language=${MP4_LANGUAGES[board.language]}`],
        ...MUX_BITEXACT,
        ...['-movflags', '+faststart', video],
      ],
      { ...run, onTime: (seconds) => progress?.within(1 - JOIN_SHARE + (JOIN_SHARE * seconds) / board.duration) },
    );

    progress?.stage('finishing');
    await poster;
    const chapterCues = join(work, 'chapters.vtt');
    await writeFile(chapterCues, chaptersVtt(board));
    const text = join(work, 'transcript.txt');
    await writeFile(text, transcript(board));
    const written: Record<RenderFileKind, string> = {
      video,
      thumbnail,
      captions: vtt,
      chapters: chapterCues,
      transcript: text,
    };
    const hashes = Object.fromEntries(
      await Promise.all(RENDER_FILE_KINDS.map(async (kind) => [kind, await sha256(written[kind])] as const)),
    ) as Record<RenderFileKind, string>;
    const files = renderFiles(dir, name);
    // Readable by the service's user only, like the data file (the service serves them itself).
    await Promise.all(RENDER_FILE_KINDS.map((kind) => chmod(written[kind], 0o600)));
    // The video last: once it is there, everything is.
    for (const kind of RENDER_FILE_KINDS.filter((kind) => kind !== 'video')) await rename(written[kind], files[kind]);
    await rename(video, files.video);
    return {
      ...files,
      sha256: hashes,
      stats: { scenes, scenesRendered: made.size, scenesReused: scenes - made.size, ms: Date.now() - started },
    };
  } finally {
    // No encode may still write into the work folder (or the cache) once the render is over.
    await Promise.allSettled(pending);
    await Promise.allSettled(segments);
    await rm(work, { recursive: true, force: true });
  }
}
