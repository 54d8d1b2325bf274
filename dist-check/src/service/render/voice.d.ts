/**
 * The voiceover: eSpeak NG compiled to WebAssembly (the `espeak-ng` npm package: the engine and
 * its voices are inside the package, nothing is fetched), one voice per language code of the
 * reference. Each scene's narration is spoken at the storyboard's pace, sped up when it would not
 * fit its scene, then padded with silence to the scene's exact length; the scenes together make
 * one mono 16-bit WAV track as long as the video.
 */
import type { Storyboard } from './storyboard.js';
/**
 * The eSpeak NG voice of each language code. eSpeak NG has no Australian or New Zealand English:
 * they get British English, the closest (non-rhotic) accent it has.
 */
export declare const VOICES: Readonly<Record<string, string>>;
/** Mono 16-bit PCM samples and their rate. */
export interface Pcm {
  rate: number;
  samples: Int16Array;
}
/** Speaks `text` with eSpeak NG's `voice` at `wpm` words per minute. */
export declare function speak(text: string, voice: string, wpm: number): Promise<Pcm>;
/** Reads a PCM WAV file (mono or not: the first channel is kept). */
export declare function parseWav(bytes: Uint8Array): Pcm;
/** A 16-bit mono WAV file of `pcm`. */
export declare function wavFile({ rate, samples }: Pcm): Buffer;
/** The whole voiceover of `board`: each scene's narration within its scene, as one WAV file. */
export declare function voiceover(board: Storyboard): Promise<Buffer>;
//# sourceMappingURL=voice.d.ts.map
