/**
 * Turns zod/mini issues into one clear `InvalidParameterError` that names the field and says
 * what to do. (zod/mini ships without messages; these are ours, which keeps the bundle small. Lengths, URLs,
 * timeouts and choices among values are checks with their own message, so only these issue codes occur.)
 */
import * as z from './schema.js';
import { InvalidParameterError } from './errors.js';

type Issue = z.RawIssue;

/** "an object", "a number". */
const article = (word: string): string => `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;

/** The offending value in a few words; long strings are cut, objects are never printed. */
function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return value === null || (type !== 'object' && type !== 'function') ? String(value) : article(type);
}

function explain(issue: Issue, got: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      return got === undefined
        ? `is required (${issue.expected})`
        : `must be ${article(issue.expected)}, got ${describe(got)}`;
    case 'unrecognized_keys':
      return `has unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}: remove it or fix the spelling`;
    default:
      // 'Invalid input': zod's message for a check that has none of its own.
      return `${z.message(issue) === 'Invalid input' ? 'is not valid' : z.message(issue)}, got ${describe(got)}`;
  }
}

/**
 * Parses `input` with `schema` or throws an `InvalidParameterError` naming `name` + the path of
 * the first issue, e.g. `options.editor.labels` or `videoGenerationParams.duration`.
 */
export function parse<T extends z.Schema>(schema: T, input: unknown, name: string): z.infer<T> {
  // zod's runner: the raw issues, each with the value it is about.
  const result = z.run(schema, input);
  if (!result.issues.length) return result.value as z.infer<T>;
  const issue = result.issues[0]!;
  const field = [name, ...(issue.path ?? [])].join('.');
  throw new InvalidParameterError(`${field} ${explain(issue, issue.input)}.`, {
    field,
  });
}
