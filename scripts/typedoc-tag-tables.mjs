// A TypeDoc plugin (typedoc.json "plugin"): a custom element's `@slot`, `@csspart`, `@cssprop` and
// `@fires` tags become one table each (Slots, CSS parts, CSS custom properties, Events) instead of
// one heading per tag. The tags stay in the JSDoc as they are, for custom-elements.json and editors.
//
// Each tag reads `name - description`; `@cssprop [--name=default] - description` carries a
// default; a `@slot` without a name is the default slot.
import { Converter, CommentTag } from 'typedoc';

/** tag → the new tag's name, its heading, and its columns. */
const GROUPS = {
  '@slot': { tag: '@slots', heading: 'Slots', columns: ['slot', 'description'] },
  '@csspart': { tag: '@cssParts', heading: 'CSS parts', columns: ['part', 'description'] },
  '@cssprop': {
    tag: '@cssProperties',
    heading: 'CSS custom properties',
    columns: ['property', 'default', 'description'],
  },
  '@fires': { tag: '@events', heading: 'Events', columns: ['event', 'description'] },
};

/** One table cell: no line breaks, no unescaped pipes. */
const cell = (text) =>
  text
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
const code = (text) => (text ? `\`${text}\`` : '');

/** `name - description` (or `[name=default] - description`) → its table row. */
function row(source, columns) {
  const [, name = '', fallback = '', description = source] =
    source.match(/^\s*\[?([^\s=\]]*)(?:=([^\]]*))?\]?\s*-\s+([\s\S]*)$/) ?? [];
  const first = columns[0] === 'part' ? code(`::part(${name})`) : name ? code(name) : '(default)';
  return columns.length === 3 ? [first, code(fallback), cell(description)] : [first, cell(description)];
}

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.internationalization.addTranslations(
    'en',
    Object.fromEntries(Object.values(GROUPS).map((group) => [`tag_${group.tag.slice(1)}`, group.heading])),
  );
  app.converter.on(Converter.EVENT_RESOLVE_END, (context) => {
    for (const reflection of Object.values(context.project.reflections)) {
      const comment = reflection.comment;
      if (!comment) continue;
      for (const [tagName, group] of Object.entries(GROUPS)) {
        const tags = comment.blockTags.filter((tag) => tag.tag === tagName);
        if (tags.length === 0) continue;
        const rows = tags.map((tag) => row(tag.content.map((part) => part.text).join(''), group.columns).join(' | '));
        const table = [
          `| ${group.columns.join(' | ')} |`,
          `| ${group.columns.map(() => '---').join(' | ')} |`,
          ...rows.map((line) => `| ${line} |`),
        ].join('\n');
        const index = comment.blockTags.indexOf(tags[0]);
        comment.blockTags = comment.blockTags.filter((tag) => tag.tag !== tagName);
        comment.blockTags.splice(index, 0, new CommentTag(group.tag, [{ kind: 'text', text: table }]));
      }
    }
  });
}
