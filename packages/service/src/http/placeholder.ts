/**
 * The emulator's media: a video's thumbnail and its "render", drawn as SVG by the service itself so
 * that nothing depends on outside assets. The render is animated (a progress bar over the video's
 * duration) to stand in for the video file.
 */
import type { AspectRatio } from 'video-plugin/internal';
import type { VideoRecord } from '../store/store.js';

/** The stand-ins' sizes, one per aspect ratio of the contract. */
const SIZES = { '16:9': [640, 360], '4:5': [400, 500] } as const satisfies Record<
  AspectRatio,
  readonly [number, number]
>;

/** The SVG of a video's thumbnail (`kind: 'thumbnail'`) or render (`kind: 'render'`). */
export function videoSvg(video: VideoRecord, kind: 'thumbnail' | 'render'): string {
  const [width, height] = SIZES[video.aspectRatio];
  const hue = [...video.id].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) % 360, 7);
  const lines = wrap(video.name, video.aspectRatio === '16:9' ? 28 : 18).slice(0, 3);
  const fontSize = video.aspectRatio === '16:9' ? 34 : 30;
  const firstLine = height / 2 - ((lines.length - 1) * fontSize * 1.2) / 2;
  const text = lines
    .map(
      (line, index) =>
        `<tspan x="${width / 2}" y="${(firstLine + index * fontSize * 1.2).toFixed(1)}">${escapeXml(line)}</tspan>`,
    )
    .join('');
  const barY = height - 28;
  const progress =
    kind === 'render'
      ? `<rect x="24" y="${barY}" width="0" height="6" rx="3" fill="#fff"><animate attributeName="width" from="0" to="${width - 48}" dur="${video.duration}s" repeatCount="indefinite"/></rect>`
      : `<polygon points="${width / 2 - 18},${barY - 70} ${width / 2 - 18},${barY - 30} ${width / 2 + 18},${barY - 50}" fill="#fff" opacity="0.85"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(video.name)}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},65%,45%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360},65%,25%)"/></linearGradient></defs>
<rect width="${width}" height="${height}" fill="url(#g)"/>
<text fill="#fff" font-family="system-ui,sans-serif" font-size="${fontSize}" font-weight="600" text-anchor="middle" dominant-baseline="middle">${text}</text>
<text x="24" y="36" fill="#fff" opacity="0.8" font-family="system-ui,sans-serif" font-size="16">${video.duration} s · ${escapeXml(video.language)} · ${video.aspectRatio}</text>
<rect x="24" y="${barY}" width="${width - 48}" height="6" rx="3" fill="#fff" opacity="0.3"/>
${progress}
</svg>
`;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (candidate.length > width && line) {
      lines.push(line);
      line = word.slice(0, width * 2);
    } else {
      line = candidate.slice(0, width * 2);
    }
  }
  if (line) lines.push(line);
  return lines.length > 0 ? lines : ['Untitled video'];
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
