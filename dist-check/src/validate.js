import { InvalidParameterError } from './errors.js';
/** "an object", "a number". */
const article = (word) => `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;
/** The offending value in a few words; long strings are cut, objects are never printed. */
function describe(value) {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return value === null || (type !== 'object' && type !== 'function') ? String(value) : article(type);
}
function valueAt(input, path) {
  let value = input;
  for (const key of path) value = value?.[key];
  return value;
}
function explain(issue, got) {
  switch (issue.code) {
    case 'invalid_type':
      return got === undefined
        ? `is required (${issue.expected})`
        : `must be ${article(issue.expected)}, got ${describe(got)}`;
    case 'unrecognized_keys':
      return `has unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}: remove it or fix the spelling`;
    default:
      return issue.message && issue.message !== 'Invalid input'
        ? `${issue.message}, got ${describe(got)}`
        : `is not valid (got ${describe(got)})`;
  }
}
/**
 * Parses `input` with `schema` or throws an `InvalidParameterError` naming `name` + the path of
 * the first issue, e.g. `options.editor.labels` or `videoGenerationParams.duration`.
 */
export function parse(schema, input, name, hint = '') {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue.path;
  const field = [name, ...path.map(String)].join('.');
  const got = valueAt(input, path);
  throw new InvalidParameterError('invalid_parameter', `${field} ${explain(issue, got)}.${hint ? ` ${hint}` : ''}`, {
    field,
  });
}
//# sourceMappingURL=validate.js.map
