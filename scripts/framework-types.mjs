// Type integrations of <video-plugin> for Vue, Svelte, Solid and any other JSX, generated from
// custom-elements.json by `npm run build` (after the analyzer): dist/frameworks/{vue,svelte,solid,
// jsx}.d.ts, published as the types-only entries video-plugin/vue, /svelte, /solid and /jsx.
// Types only: nothing here reaches a bundle.
//
// Why not break-stuff's generators (custom-element-vuejs-integration and its siblings): their
// output needs patching for this element: they import a `CustomEvent` type that the module does
// not export, type every event's detail as `never` (the analyzer cannot infer it from `#emit`),
// offer the read-only `plugin` and `ready` as props, and the Svelte one writes Svelte 4's
// `on:event` / `bind:prop`. This script reads the same manifest (attributes, fields, events) and
// types each from the element's own declarations (`VideoPluginElement[field]`,
// `VideoPluginElementEventMap[event]`), so the types follow the source.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('../custom-elements.json', import.meta.url), 'utf8'));
const element = manifest.modules
  .flatMap((module) => module.declarations ?? [])
  .find((declaration) => declaration.tagName === 'video-plugin');
if (!element)
  throw new Error('framework-types: custom-elements.json declares no <video-plugin>; run the analyzer first');

const tag = element.tagName;
/** One line of JSDoc from a manifest description. */
const doc = (text) => (text ? `  /** ${text.replace(/\*\//g, '*\\/').replace(/\s*\n\s*/g, ' ')} */\n` : '');
const quote = (name) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : `'${name}'`);

const attributes = element.attributes.filter((attribute) => attribute.fieldName);
// Settable fields: not static, not read-only (`plugin`, `ready`).
const fields = element.members.filter(
  (member) => member.kind === 'field' && !member.static && !/Read-only\.\s*$/.test(member.description ?? ''),
);
const events = element.events.map((event) => event.name);
if (attributes.length === 0 || fields.length === 0 || events.length === 0) {
  throw new Error('framework-types: the manifest lists no attributes, fields or events of <video-plugin>');
}

const header = (what) => `// ${what}
// Generated from custom-elements.json by scripts/framework-types.mjs (npm run build). Types only.
`;

const shared = `import type { VideoPluginElement, VideoPluginElementEventMap } from '../element/index.js';

/** The element's attributes, by their HTML names (strings, numbers and booleans). */
export interface VideoPluginAttributes {
${attributes.map((a) => `${doc(a.description)}  ${quote(a.name)}?: VideoPluginElement['${a.fieldName}'];`).join('\n')}
}

/** The element's settable properties, objects and functions included (\`appearance\`, \`editor\`...). */
export interface VideoPluginProperties {
${fields.map((f) => `${doc(f.description)}  ${quote(f.name)}?: VideoPluginElement['${f.name}'];`).join('\n')}
}

/** The element's events, by name. */
export type VideoPluginEvents = Pick<VideoPluginElementEventMap, ${events.map((e) => `'${e}'`).join(' | ')}>;
`;

const outputs = {
  'jsx.d.ts': `${header("<video-plugin> for any JSX (Preact, Stencil, a JSX of your own): add `CustomElements` to your JSX's IntrinsicElements.")}${shared}
/** \`on<event name>\` (case kept: \`onpluginOpened\`) → listener, as React 19 and Preact spell them. */
export type VideoPluginEventProps = {
  [K in keyof VideoPluginEvents as \`on\${K}\`]?: (event: VideoPluginEvents[K]) => void;
};

/** Everything \`<${tag}>\` accepts, besides your JSX's HTML attributes. */
export type VideoPluginJSXProps = VideoPluginAttributes & VideoPluginProperties & VideoPluginEventProps;

/**
 * The tag and its props. For example, with Preact:
 * \`declare module 'preact' { namespace JSX { interface IntrinsicElements extends CustomElements {} } }\`
 */
export interface CustomElements {
  '${tag}': VideoPluginJSXProps & { children?: unknown; class?: string; id?: string; slot?: string; style?: unknown };
}
`,
  'vue.d.ts': `${header("<video-plugin> in Vue 3 templates (GlobalComponents): `import type {} from 'video-plugin/vue'` once.")}import type { DefineComponent } from 'vue';
${shared}
/** \`@pluginOpened\` in a template: Vue keeps the event name's case on a custom element. */
export type VideoPluginVueEvents = {
  [K in keyof VideoPluginEvents as \`on\${Capitalize<K>}\`]?: (event: VideoPluginEvents[K]) => void;
};

/** What \`<${tag}>\` accepts in a Vue template. */
export type VideoPluginVueProps = VideoPluginAttributes & VideoPluginProperties & VideoPluginVueEvents;

declare module 'vue' {
  interface GlobalComponents {
    '${tag}': DefineComponent<VideoPluginVueProps>;
  }
}
`,
  'svelte.d.ts': `${header("<video-plugin> in Svelte 5 markup (svelteHTML): `import type {} from 'video-plugin/svelte'` once.")}import type { HTMLAttributes } from 'svelte/elements';
${shared}
/** Svelte 5 event attributes: \`onpluginOpened\` (case kept). */
export type VideoPluginSvelteEvents = {
  [K in keyof VideoPluginEvents as \`on\${K}\`]?: (event: VideoPluginEvents[K]) => void;
};

/** What \`<${tag}>\` accepts in Svelte markup. */
export type VideoPluginSvelteProps = Omit<HTMLAttributes<VideoPluginElement>, keyof VideoPluginAttributes | 'onerror'> &
  VideoPluginAttributes &
  VideoPluginProperties &
  VideoPluginSvelteEvents;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Svelte's element types live in a namespace.
  namespace svelteHTML {
    interface IntrinsicElements {
      '${tag}': VideoPluginSvelteProps;
    }
  }
}
`,
  'solid.d.ts': `${header("<video-plugin> in Solid JSX (JSX.IntrinsicElements): `import type {} from 'video-plugin/solid'` once.")}import type { JSX } from 'solid-js';
${shared}
/** Solid's \`on:\` namespace keeps the event name's case: \`on:pluginOpened\`. */
export type VideoPluginSolidEvents = {
  [K in keyof VideoPluginEvents as \`on:\${K}\`]?: (event: VideoPluginEvents[K]) => void;
};

/** \`prop:appearance\`: Solid's explicit property namespace (plain names are properties too on custom elements). */
export type VideoPluginSolidPropNamespace = {
  [K in keyof VideoPluginProperties as \`prop:\${K}\`]?: VideoPluginProperties[K];
};

/** What \`<${tag}>\` accepts in Solid JSX. */
export type VideoPluginSolidProps = Omit<JSX.HTMLAttributes<VideoPluginElement>, keyof VideoPluginAttributes> &
  VideoPluginAttributes &
  VideoPluginProperties &
  VideoPluginSolidEvents &
  VideoPluginSolidPropNamespace;

declare module 'solid-js' {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Solid's JSX types live in a namespace.
  namespace JSX {
    interface IntrinsicElements {
      '${tag}': VideoPluginSolidProps;
    }
  }
}
`,
};

const outdir = new URL('../dist/frameworks/', import.meta.url);
mkdirSync(outdir, { recursive: true });
for (const [name, text] of Object.entries(outputs)) writeFileSync(new URL(name, outdir), text);
