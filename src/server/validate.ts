/**
 * Turns zod/mini issues into {@link InvalidParameterError}s that name the field and say what to do.
 *
 * zod/mini ships no messages (every issue says "Invalid input") unless a locale is loaded, and the
 * locale is bigger than this file; so the messages are written here from the issue's own data.
 * Used by the server helpers and by the local service for request bodies.
 */
import * as z from 'zod/mini';
import { InvalidParameterError } from '../errors.js';

type Issue = z.core.$ZodIssue;

/** Fields whose values must never be echoed back in a message. */
const SECRET_FIELD = /secret|token|password/i;

/**
 * Parses `value` with `schema` (any zod schema); on failure throws an {@link InvalidParameterError} about the first
 * issue, with `data.field` set to the dotted path of the offending field.
 *
 * @param context - what was being validated, e.g. `createAccountToken` or `POST /api/topics body`;
 *   it starts the message.
 */
export function parseOrThrow<T extends z.core.$ZodType>(schema: T, value: unknown, context: string): z.infer<T> {
  // zod's own safeParse, which runs any zod schema: zod/mini's, and the `Plugin`'s on zod's core
  // (the service validates a generation with the `Plugin`'s own schema: docs/architecture.md, "One contract").
  const result = z.safeParse(schema, value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  // An unknown key at the top of an object schema without a message of its own (the `Plugin`'s
  // objects): the message lists the allowed fields, as strictObject's below does.
  const shape = (schema._zod.def as { shape?: object }).shape;
  if (issue?.code === 'unrecognized_keys' && !issue.path.length && shape && issue.message === 'Invalid input') {
    const allowed = Object.keys(shape).join(', ');
    throw issueToError(
      { ...issue, message: `is not an allowed field (allowed: ${allowed}); remove it` },
      value,
      context,
    );
  }
  throw issueToError(issue, value, context);
}

/** Builds the error for one issue (exported for the few checks done outside a schema). */
export function issueToError(issue: Issue | undefined, input: unknown, context: string): InvalidParameterError {
  if (!issue) return new InvalidParameterError(`${context}: invalid input.`, { field: '' });
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') path.push(issue.keys[0] ?? '');
  const field = path.join('.');
  const problem = describe(issue, valueAt(input, issue.path));
  const received = SECRET_FIELD.test(field) ? '' : describeReceived(issue, valueAt(input, path));
  const subject = field === '' ? 'the input' : `"${field}"`;
  return new InvalidParameterError(`${context}: ${subject} ${problem}${received}.`, {
    field,
  });
}

function describe(issue: Issue, value: unknown): string {
  // A message given to the schema (`{ error: ... }`) already says what to do.
  if (issue.message && issue.message !== 'Invalid input') return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined) return `is required (${article(issue.expected)})`;
      if (issue.expected === 'int') return 'must be a whole number';
      if (issue.expected === 'number' && typeof value === 'number') return 'must be a finite number';
      return `must be ${article(issue.expected)}`;
    case 'unrecognized_keys':
      return 'is not an allowed field; remove it';
    case 'too_small':
      if (issue.origin === 'string')
        return issue.minimum === 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters`;
      if (issue.origin === 'array') return `must have at least ${issue.minimum} items`;
      return `must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${issue.maximum} characters`;
      if (issue.origin === 'array') return `must have at most ${issue.maximum} items`;
      return `must be ${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    default:
      return 'is not valid';
  }
}

function describeReceived(issue: Issue, value: unknown): string {
  if (value === undefined || issue.code === 'unrecognized_keys') return '';
  if (typeof value === 'number' && !Number.isFinite(value)) return ` (got ${String(value)})`;
  let text: string;
  try {
    text = JSON.stringify(value) ?? typeof value;
  } catch {
    text = typeof value;
  }
  return ` (got ${text.length > 60 ? `${text.slice(0, 57)}...` : text})`;
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/**
 * A strict object schema whose "unknown field" message lists the allowed fields, so the partner
 * learns the fix along with the mistake.
 */
export function strictObject<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  const allowed = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? `is not an allowed field (allowed: ${allowed}); remove it` : undefined,
  });
}
