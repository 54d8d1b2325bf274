// One contract for a generation's params (issue 31): the aspect ratios, durations, languages, the
// instructions' limit, the ID limit and the idempotency key's form are defined once (src/wire/values.ts,
// src/options.ts) and every door checks them alike. A value one door accepts, every door accepts; one
// that a door refuses, every door refuses, naming the same field. The doors: the `Plugin`'s
// `startVideoGeneration` (its schema, which the iframe page parses with too) and the service's
// `POST /api/generations`. A topic that does not exist stands in for a real one: past validation the
// route answers `topic_not_found`, which says that its checks let the value through.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { VideoPluginError } from '../../../../src/errors.js';
import { IDEMPOTENCY_KEY, startOptionsSchema, videoGenerationParamsSchema } from '../../../../src/options.js';
import { parse } from '../../../../src/validate.js';
import {
  ASPECT_RATIOS,
  DEFAULT_LANGUAGE,
  DURATIONS,
  LANGUAGES,
  MAX_ID_LENGTH,
  MAX_INSTRUCTIONS_LENGTH,
} from '../../../../src/wire/api.js';
import { api, createAccount, startTestService } from '../support/helpers.js';

const service = await startTestService();
const { session } = await createAccount(service);
const VALID = { topicId: 'topic_none', aspectRatio: ASPECT_RATIOS[0], duration: DURATIONS[0] };

/** What a door made of a value: let through, or refused naming a field (the last part of its path). */
type Outcome = { accepted: true } | { accepted: false; field: string };

function refused(field: unknown): Outcome {
  return { accepted: false, field: String(field).split('.').at(-1)! };
}

function plugin(run: () => unknown): Outcome {
  try {
    run();
    return { accepted: true };
  } catch (error) {
    if (!(error instanceof VideoPluginError) || error.code !== 'invalid_parameter') throw error;
    return refused(error.data?.field);
  }
}

async function route(params: unknown, headers: Record<string, string> = {}): Promise<Outcome> {
  const { status, body } = await api(service, 'POST', '/api/generations', { session, body: params, headers });
  if (status === 400 && body.error.code === 'invalid_parameter') return refused(body.error.data?.field);
  assert.equal(body.error?.code, 'topic_not_found', `past validation: ${status} ${JSON.stringify(body)}`);
  return { accepted: true };
}

/** Both doors' outcomes for the params `VALID` + `patch`. */
async function doors(patch: Record<string, unknown>): Promise<Record<string, Outcome>> {
  const params = { ...VALID, ...patch };
  return {
    'Plugin#startVideoGeneration': plugin(() => parse(videoGenerationParamsSchema, params, 'videoGenerationParams')),
    'POST /api/generations': await route(params),
  };
}

async function agree(patch: Record<string, unknown>, expected: Outcome): Promise<void> {
  for (const [door, outcome] of Object.entries(await doors(patch))) {
    assert.deepEqual(outcome, expected, `${door}: ${JSON.stringify(patch).slice(0, 80)}`);
  }
}

describe('generation params: every door agrees', () => {
  test('each aspect ratio, duration and language of the contract passes every door', async () => {
    for (const aspectRatio of ASPECT_RATIOS) await agree({ aspectRatio }, { accepted: true });
    for (const duration of DURATIONS) await agree({ duration }, { accepted: true });
    for (const language of LANGUAGES) await agree({ language }, { accepted: true });
    assert.ok((LANGUAGES as readonly string[]).includes(DEFAULT_LANGUAGE));
  });

  test('a value outside the contract is refused by every door, naming its field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ aspectRatio: '1:1' }, 'aspectRatio'],
      [{ aspectRatio: '16:10' }, 'aspectRatio'],
      [{ duration: 10 }, 'duration'],
      [{ duration: '5' }, 'duration'],
      [{ language: 'en' }, 'language'],
      [{ language: 'EN-us' }, 'language'],
      [{ topicId: '' }, 'topicId'],
      [{ topicId: 7 }, 'topicId'],
    ];
    for (const [patch, field] of cases) await agree(patch, { accepted: false, field });
  });

  test(`videoInstructions: ${MAX_INSTRUCTIONS_LENGTH} characters pass every door, one more is refused by every door`, async () => {
    await agree({ videoInstructions: 'x'.repeat(MAX_INSTRUCTIONS_LENGTH) }, { accepted: true });
    await agree({ videoInstructions: '' }, { accepted: true });
    await agree(
      { videoInstructions: 'x'.repeat(MAX_INSTRUCTIONS_LENGTH + 1) },
      { accepted: false, field: 'videoInstructions' },
    );
  });

  test(`topicId: ${MAX_ID_LENGTH} characters pass every door, one more is refused by every door`, async () => {
    await agree({ topicId: 't'.repeat(MAX_ID_LENGTH) }, { accepted: true });
    await agree({ topicId: 't'.repeat(MAX_ID_LENGTH + 1) }, { accepted: false, field: 'topicId' });
  });

  test('the idempotency key: the form of IDEMPOTENCY_KEY at the service, its length at the Plugin too', async () => {
    const pluginKey = (idempotencyKey: string) =>
      plugin(() => parse(startOptionsSchema, { idempotencyKey }, 'options'));
    const routeKey = (key: string) => route(VALID, { 'idempotency-key': key });
    for (const key of ['k', 'k'.repeat(255), crypto.randomUUID(), '!~']) {
      assert.ok(IDEMPOTENCY_KEY.test(key));
      assert.deepEqual(pluginKey(key), { accepted: true }, key);
      assert.deepEqual(await routeKey(key), { accepted: true }, key);
    }
    // Too long: refused at both doors, naming the option.
    const long = 'k'.repeat(256);
    assert.deepEqual(pluginKey(long), { accepted: false, field: 'idempotencyKey' });
    assert.deepEqual(await routeKey(long), { accepted: false, field: 'idempotencyKey' });
    // The form (visible ASCII, no spaces) is checked by the iframe page and the service, with the same
    // IDEMPOTENCY_KEY; the Plugin checks only the length, which costs its bundle nothing (docs/plugin-api.md).
    assert.deepEqual(await routeKey('a b'), { accepted: false, field: 'idempotencyKey' });
    assert.equal(IDEMPOTENCY_KEY.test('a b'), false);
  });
});
