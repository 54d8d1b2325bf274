/**
 * A video's files, in one place: their names on disk (`<media>/videos/<id>-preview.mp4`…), their
 * URLs (`/media/videos/<id>/<name>`, `/media/topics/<topicId>/<n>.jpg`) and the types they are
 * served with. The jobs name a render's files here, media/render.ts writes them, store/shapes.ts
 * makes their URLs and http/static.ts serves them.
 *
 * With an S3 media store (media/store.ts) a finished render's files live in the bucket under
 * their content's key instead, and the video's record says which: {@link mediaFileHash} reads a
 * file's SHA-256 from the render (or preview) that made it; a topic's kept picture has its hash
 * in its kept path ({@link keptPictureHash}).
 */
import { randomUUID } from 'node:crypto';
import { readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { transcript } from './accessibility.js';
import type { Storyboard } from './storyboard.js';
import type { RenderHashes, VideoRecord } from '../store/records.js';

/** Which render a file belongs to: `preview` (made when the generation completes) or `final` (once completed). */
export type RenderKind = 'preview' | 'final';

/** Format of the renders: MP4 (`media: real`), or an animated SVG stand-in (`media: placeholder`). */
export const RENDER_FORMAT = { real: 'mp4', placeholder: 'svg' } as const;

/**
 * The extension of each file a render writes: `<id>-preview.mp4`, `<id>-final.jpg`… The chapters
 * are WebVTT too, so theirs is `chapters.vtt` (`<id>-final.chapters.vtt`): each extension names one file.
 */
export const RENDER_EXTENSIONS = {
  video: 'mp4',
  thumbnail: 'jpg',
  captions: 'vtt',
  chapters: 'chapters.vtt',
  transcript: 'txt',
} as const;

/** What a render's file is: `video`, `thumbnail`, `captions`, `chapters` or `transcript`. */
export type RenderFileKind = keyof typeof RENDER_EXTENSIONS;

/** Every kind of a render's file, in {@link RENDER_EXTENSIONS}' order. */
export const RENDER_FILE_KINDS = Object.keys(RENDER_EXTENSIONS) as RenderFileKind[];

/** The extension of a render's file (see {@link RENDER_EXTENSIONS}). */
export type RenderExtension = (typeof RENDER_EXTENSIONS)[keyof typeof RENDER_EXTENSIONS];

/**
 * A video's real media files (`/media/videos/<id>/<name>`): which render's file each name serves,
 * which of that render's hashes (`sha256`) is its content, and the type it is served with.
 * `render.mp4`, `poster.jpg`, `captions.vtt`, `chapters.vtt` and `transcript.txt` are the final
 * render's `files`. A render made before renders wrote their chapters recorded no `chapters` hash
 * and has no chapters file: its `chapters.vtt` is not found (and its `files` list none).
 */
export const MEDIA_FILES = {
  'preview.mp4': { kind: 'preview', ext: 'mp4', hash: 'video', type: 'video/mp4' },
  'render.mp4': { kind: 'final', ext: 'mp4', hash: 'video', type: 'video/mp4' },
  'thumbnail.jpg': { kind: 'preview', ext: 'jpg', hash: 'thumbnail', type: 'image/jpeg' },
  'poster.jpg': { kind: 'final', ext: 'jpg', hash: 'thumbnail', type: 'image/jpeg' },
  'captions.vtt': { kind: 'final', ext: 'vtt', hash: 'captions', type: 'text/vtt; charset=utf-8' },
  'preview.vtt': { kind: 'preview', ext: 'vtt', hash: 'captions', type: 'text/vtt; charset=utf-8' },
  'chapters.vtt': { kind: 'final', ext: 'chapters.vtt', hash: 'chapters', type: 'text/vtt; charset=utf-8' },
  'preview-chapters.vtt': { kind: 'preview', ext: 'chapters.vtt', hash: 'chapters', type: 'text/vtt; charset=utf-8' },
  'transcript.txt': { kind: 'final', ext: 'txt', hash: 'transcript', type: 'text/plain; charset=utf-8' },
} as const satisfies Record<string, { kind: RenderKind; ext: RenderExtension; hash: keyof RenderHashes; type: string }>;

/** A name of {@link MEDIA_FILES}. */
export type MediaFileName = keyof typeof MEDIA_FILES;

/** Type of the SVG stand-ins of `media: placeholder`. */
export const SVG_TYPE = 'image/svg+xml';

/** The SVG stand-ins of `media: placeholder` by URL name, and what each draws (the poster is the thumbnail's picture). */
export const PLACEHOLDER_FILES = {
  'thumbnail.svg': 'thumbnail',
  'poster.svg': 'thumbnail',
  'render.svg': 'render',
} as const;

/** The types of a topic's kept images, by extension. */
export const PICTURE_TYPES = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' } as const;

/** The folder of the videos' render files in the media folder. */
export const videosDir = (mediaDir: string): string => join(mediaDir, 'videos');

/** The folder of a topic's kept images in the media folder. */
export const topicDir = (mediaDir: string, topicId: string): string => join(mediaDir, 'topics', topicId);

/** The base name of a render's files (`<id>-preview`, `<id>-final`): {@link renderFiles} adds `.mp4`, `.jpg`… */
export const renderName = (videoId: string, kind: RenderKind): string => `${videoId}-${kind}`;

/** The file `<name>.<ext>` of a render in `dir`. */
const renderFile = (dir: string, name: string, ext: RenderExtension): string => join(dir, `${name}.${ext}`);

/** The paths of the files render.ts writes into `dir` for the render named `name` (`<name>.mp4`…). */
export function renderFiles(dir: string, name: string): Record<RenderFileKind, string> {
  const { video, thumbnail, captions, chapters, transcript } = RENDER_EXTENSIONS;
  return {
    video: renderFile(dir, name, video),
    thumbnail: renderFile(dir, name, thumbnail),
    captions: renderFile(dir, name, captions),
    chapters: renderFile(dir, name, chapters),
    transcript: renderFile(dir, name, transcript),
  };
}

/** Where a video's file is, in the media folder: `<dir>/videos/<id>-preview.mp4`, `-final.txt`… */
export function videoFile(mediaDir: string, videoId: string, kind: RenderKind, ext: RenderExtension): string {
  return renderFile(videosDir(mediaDir), renderName(videoId, kind), ext);
}

/**
 * The SHA-256 (hex) of the video's file `name`, as the record of the render that made it says (the
 * preview's, or the COMPLETE final render's); undefined when that render recorded none.
 */
export function mediaFileHash(video: Readonly<VideoRecord>, name: MediaFileName): string | undefined {
  const file = MEDIA_FILES[name];
  const hashes =
    file.kind === 'preview'
      ? video.preview?.sha256
      : video.renders.find((render) => render.format === 'mp4' && render.status === 'COMPLETE')?.sha256;
  return hashes?.[file.hash];
}

/**
 * Where a topic's kept picture is kept with an S3 media store: `<media>/topics/<id>/<sha256>/<n>.<ext>`,
 * the folder named by its content. The record's path then names the object (and the URL, its last
 * part, stays `/media/topics/<id>/<n>.<ext>`).
 */
export const keptPicturePath = (file: string, sha256: string): string => join(dirname(file), sha256, basename(file));

/** The SHA-256 a kept picture's path names ({@link keptPicturePath}), or undefined (the local folder's). */
export function keptPictureHash(file: string): string | undefined {
  const folder = basename(dirname(file));
  return /^[0-9a-f]{64}$/.test(folder) ? folder : undefined;
}

/** A video's media URL under `baseURL` (the service's origin); its files are `<url>/<name>`. */
export const videoMediaURL = (baseURL: string, videoId: string): string =>
  `${baseURL}/media/videos/${encodeURIComponent(videoId)}`;

/** Where a topic's kept image `file` is served (`/media/topics/<topicId>/<name>`, see http/static.ts). */
export function topicPicturePath(topicId: string, file: string): string {
  return `/media/topics/${encodeURIComponent(topicId)}/${file.split('/').pop()}`;
}

/**
 * A final render made before renders wrote their transcript has none: it is written once from the
 * stored storyboard (which a completed video can no longer change), under a temporary name first
 * so that a request at the same moment never reads half of it.
 */
export async function keepTranscript(storyboard: Storyboard | undefined, file: string): Promise<void> {
  if (!storyboard || (await isFile(file))) return;
  const partial = `${file}.${randomUUID()}.partial`;
  await writeFile(partial, transcript(storyboard));
  await rename(partial, file);
}

/**
 * Removes every file of these videos (each render's, and a render's work folder or partial file
 * left behind) and of these topics (their kept images): a sandbox's reset. Missing ones are fine.
 */
export async function removeMediaOf(
  mediaDir: string,
  videoIDs: readonly string[],
  topicIDs: readonly string[],
): Promise<void> {
  if (mediaDir === '') return;
  for (const topicId of topicIDs) await rm(topicDir(mediaDir, topicId), { recursive: true, force: true });
  if (videoIDs.length === 0) return;
  let names: string[];
  try {
    names = await readdir(videosDir(mediaDir));
  } catch {
    return; // no videos folder: no render was ever written
  }
  // `<id>-preview.mp4`, `<id>-final.txt.<uuid>.partial`, and render.ts's work folder `.<id>-final-…`.
  const prefixes = videoIDs.flatMap((id) => [`${id}-`, `.${id}-`]);
  for (const name of names) {
    if (prefixes.some((prefix) => name.startsWith(prefix))) {
      await rm(join(videosDir(mediaDir), name), { recursive: true, force: true });
    }
  }
}

/** Whether `path` is a file (false when it is missing). */
export async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
