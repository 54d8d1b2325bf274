/**
 * Where the renderer's tools are: ffmpeg, and the DejaVu Sans font shipped by `dejavu-fonts-ttf`
 * for the scenes' text.
 *
 * ffmpeg, in this order: `VIDEO_PLUGIN_FFMPEG` (whatever it names); the `ffmpeg` on `PATH`, a
 * maintained build kept current by the system's packages, when it can encode H.264 (`libx264`)
 * and AAC; else the binary inside `@ffmpeg-installer/*` (one npm package per platform, the binary
 * in the package, nothing downloaded at install or run time — but FFmpeg 4.1 from 2018), so that
 * `npm install && npm start` renders on a machine without ffmpeg. Only the service's own stills
 * reach it (images are decoded by sharp, `images.ts`).
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
const require = createRequire(import.meta.url);
/** Encoders the renderer needs (`render.ts`). */
const ENCODERS = ['libx264', 'aac'];
/** The executable `name` in one of `PATH`'s folders, or undefined. */
function onPath(name, path = '') {
    const file = process.platform === 'win32' ? `${name}.exe` : name;
    for (const dir of path.split(delimiter).filter(Boolean)) {
        const candidate = join(dir, file);
        try {
            accessSync(candidate, constants.X_OK);
            if (statSync(candidate).isFile())
                return candidate;
        }
        catch {
            // Not here.
        }
    }
    return undefined;
}
/** What `ffmpeg` at `path` lacks to render, or undefined when it has everything. */
function lacks(path) {
    let encoders;
    try {
        encoders = execFileSync(path, ['-hide_banner', '-encoders'], { encoding: 'utf8', timeout: 10_000 });
    }
    catch (error) {
        return `does not run (${error.message.split('\n')[0]})`;
    }
    const missing = ENCODERS.filter((name) => !new RegExp(`^\\s*\\S+\\s+${name}\\s`, 'm').test(encoders));
    return missing.length > 0 ? `has no ${missing.join(' or ')} encoder` : undefined;
}
/** The ffmpeg bundled in the npm package of this platform. */
function bundled() {
    return require('@ffmpeg-installer/ffmpeg').path;
}
/** Picks the ffmpeg for `env` (see the module's comment); runs the one on `PATH` to check it. */
export function chooseFfmpeg(env = process.env) {
    if (env.VIDEO_PLUGIN_FFMPEG)
        return { path: env.VIDEO_PLUGIN_FFMPEG, source: 'VIDEO_PLUGIN_FFMPEG' };
    const system = onPath('ffmpeg', env.PATH);
    const missing = system ? lacks(system) : undefined;
    if (system && !missing)
        return { path: system, source: 'PATH' };
    return { path: bundled(), source: 'bundled', ...(system ? { passedOver: `${system} ${missing}` } : {}) };
}
const chosen = new Map();
/** The ffmpeg chosen for the current environment, chosen once per `VIDEO_PLUGIN_FFMPEG` and `PATH`. */
export function currentFfmpeg() {
    const key = `${process.env.VIDEO_PLUGIN_FFMPEG ?? ''}\0${process.env.PATH ?? ''}`;
    let choice = chosen.get(key);
    if (!choice) {
        choice = chooseFfmpeg();
        chosen.set(key, choice);
    }
    return choice;
}
/** Path of the ffmpeg binary the renderer runs (see {@link chooseFfmpeg}). */
export function ffmpegPath() {
    return currentFfmpeg().path;
}
/** The first line of `ffmpeg -version` at `path`, e.g. `ffmpeg version 5.1.6-0+deb12u1 …`. */
export function ffmpegVersion(path) {
    const output = execFileSync(path, ['-version'], { encoding: 'utf8', timeout: 10_000 });
    return output.split('\n')[0].replace(/\s+Copyright.*$/, '');
}
let announced = false;
/**
 * Prints which ffmpeg the renderer uses (path, version, why), once per process, on stderr: the
 * first thing to check when a render fails or looks different on another machine.
 */
export function announceFfmpeg() {
    if (announced)
        return;
    announced = true;
    const choice = currentFfmpeg();
    const why = {
        VIDEO_PLUGIN_FFMPEG: 'from VIDEO_PLUGIN_FFMPEG',
        PATH: 'the system’s, on PATH',
        bundled: 'bundled in @ffmpeg-installer; set VIDEO_PLUGIN_FFMPEG or put a current ffmpeg on PATH',
    }[choice.source];
    let version;
    try {
        version = ffmpegVersion(choice.path);
    }
    catch (error) {
        version = `does not run (${error.message.split('\n')[0]}): real media renders will fail`;
    }
    const passed = choice.passedOver ? `; ${choice.passedOver}` : '';
    console.error(`video-plugin-service: ffmpeg ${choice.path}: ${version} (${why}${passed})`);
}
/** Path of the sans-serif font of the scenes' text: bold for headings, regular (Book) for the rest. */
export function fontPath(weight = 'bold') {
    return require.resolve(`dejavu-fonts-ttf/ttf/${weight === 'bold' ? 'DejaVuSans-Bold' : 'DejaVuSans'}.ttf`);
}
//# sourceMappingURL=tools.js.map