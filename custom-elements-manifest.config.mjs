// custom-elements.json, generated from the element's source and JSDoc by `npm run build`.
// Editors, Storybook and framework tooling read it through package.json's `customElements` field.

/** The published JavaScript (dist/…js) rather than the TypeScript source. */
const toDist = (path) => path?.replace(/^src\//, 'dist/').replace(/\.ts$/, '.js');

/** Members that are platform plumbing rather than the element's API. */
const PLUMBING = new Set(['addEventListener', 'removeEventListener', 'connectedMoveCallback']);

/**
 * An overloaded method (`createAccount`, `loginAccount`: a token or a function of one) is listed
 * once per signature and once for its body: one entry, in the first one's place, with the first
 * one's description and the body's parameters (their type is the union of the signatures').
 */
function oneEntryPerMethod(members) {
  const byName = new Map();
  return members.filter((member) => {
    const first = member.kind === 'method' && !member.static ? byName.get(member.name) : undefined;
    if (!first) {
      if (member.kind === 'method') byName.set(member.name, member);
      return true;
    }
    Object.assign(first, { parameters: member.parameters, return: member.return });
    return false;
  });
}

/**
 * Keeps the public API only (no `#private` or protected members, no Lit static declarations, no
 * module-level helpers), points the paths at dist/, and records the registration that
 * `video-plugin/element` performs.
 */
function publicAPI() {
  return {
    name: 'video-plugin-public-api',
    packageLinkPhase({ customElementsManifest }) {
      for (const module of customElementsManifest.modules) {
        const exported = new Set((module.exports ?? []).map((entry) => entry.declaration?.name));
        module.path = toDist(module.path);
        module.declarations = (module.declarations ?? []).filter((declaration) => exported.has(declaration.name));
        for (const declaration of module.declarations) {
          declaration.members &&= declaration.members.filter(
            (member) =>
              !['private', 'protected'].includes(member.privacy) &&
              !member.name.startsWith('#') &&
              !PLUMBING.has(member.name) &&
              !(member.static && ['properties', 'styles'].includes(member.name)),
          );
          declaration.members &&= oneEntryPerMethod(declaration.members);
        }
        for (const entry of module.exports ?? []) {
          const declared = entry.declaration;
          if (declared?.module) declared.module = toDist(declared.module.replace(/^\.\//, 'src/element/'));
        }
      }
      const entry = customElementsManifest.modules.find((module) => module.path === 'dist/element/index.js');
      if (entry) {
        // Type-only re-exports are not JavaScript exports.
        entry.exports = entry.exports.filter((item) => !/EventMap|EventDetail/.test(item.name));
        entry.exports.push({
          kind: 'custom-element-definition',
          name: 'video-plugin',
          declaration: { name: 'VideoPluginElement', module: 'dist/element/video-plugin-element.js' },
        });
      }
    },
  };
}

export default {
  globs: ['src/element/video-plugin-element.ts', 'src/element/define.ts', 'src/element/index.ts'],
  outdir: '.',
  litelement: true,
  packagejson: false,
  plugins: [publicAPI()],
};
