// The studio's translations: every locale has exactly en.ts's keys, non-empty words, the same
// {placeholders}, and nothing left in English.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { de } from '../../src/pages/locales/de.js';
import { en } from '../../src/pages/locales/en.js';
import { es } from '../../src/pages/locales/es.js';
import { fr } from '../../src/pages/locales/fr.js';
import { it } from '../../src/pages/locales/it.js';
import { pt } from '../../src/pages/locales/pt.js';

/** A catalogue as the checks see it: any keys, any values, so that broken copies can be checked too. */
type Catalogue = Readonly<Record<string, unknown>>;

const locales: Readonly<Record<string, Catalogue>> = { de, es, fr, it, pt };

/**
 * Keys whose value may be the English one. Only strings that hold no words at all, just
 * `{placeholders}` and separators (the layout of a caption or an accessible label), belong
 * here: there is nothing in them to translate. A test below keeps this list honest.
 */
const sameAsEnglishAllowed: ReadonlySet<string> = new Set(['preview.caption', 'progress.value', 'video.label']);

/** The `{placeholders}` of a string, sorted, each as often as it occurs. */
function placeholders(value: string): string[] {
  return [...value.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '').sort();
}

/** Problems with the keys: missing ones, extra ones, and keys out of en.ts's order. */
function keyProblems(locale: string, catalogue: Catalogue): string[] {
  const problems: string[] = [];
  const expected = Object.keys(en);
  const actual = Object.keys(catalogue);
  for (const key of expected) {
    if (!Object.hasOwn(catalogue, key)) problems.push(`${locale}: missing key '${key}'`);
  }
  for (const key of actual) {
    if (!Object.hasOwn(en, key)) problems.push(`${locale}: extra key '${key}' (not in en.ts)`);
  }
  if (problems.length === 0 && actual.join('\n') !== expected.join('\n')) {
    problems.push(`${locale}: keys are not in en.ts's order`);
  }
  return problems;
}

/** Problems with the values: anything that is not a string with words in it. */
function valueProblems(locale: string, catalogue: Catalogue): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(catalogue)) {
    if (typeof value !== 'string') problems.push(`${locale}: '${key}' is a ${typeof value}, not a string`);
    else if (value.trim() === '') problems.push(`${locale}: '${key}' is empty`);
  }
  return problems;
}

/** Problems with the `{placeholders}`: each value has exactly the English value's. */
function placeholderProblems(locale: string, catalogue: Catalogue): string[] {
  const problems: string[] = [];
  for (const [key, english] of Object.entries(en)) {
    const value = catalogue[key];
    if (typeof value !== 'string') continue;
    const want = placeholders(english);
    const got = placeholders(value);
    if (got.join(',') !== want.join(',')) {
      const list = (names: string[]) => (names.length === 0 ? 'none' : names.map((n) => `{${n}}`).join(', '));
      problems.push(`${locale}: '${key}' has placeholders ${list(got)}; en.ts has ${list(want)}`);
    }
  }
  return problems;
}

/** Problems with the translation: values left as the English one, outside the allow list. */
function untranslatedProblems(locale: string, catalogue: Catalogue): string[] {
  const problems: string[] = [];
  for (const [key, english] of Object.entries(en)) {
    if (catalogue[key] === english && !sameAsEnglishAllowed.has(key)) {
      problems.push(`${locale}: '${key}' is still the English '${english}'`);
    }
  }
  return problems;
}

/** Every problem of a catalogue; empty when it is a complete translation of en.ts. */
function catalogueProblems(locale: string, catalogue: Catalogue): string[] {
  return [
    ...keyProblems(locale, catalogue),
    ...valueProblems(locale, catalogue),
    ...placeholderProblems(locale, catalogue),
    ...untranslatedProblems(locale, catalogue),
  ];
}

for (const [locale, catalogue] of Object.entries(locales)) {
  test(`${locale}: has exactly the keys of en.ts, in its order`, () => {
    assert.deepEqual(keyProblems(locale, catalogue), []);
  });

  test(`${locale}: every value is a non-empty string`, () => {
    assert.deepEqual(valueProblems(locale, catalogue), []);
  });

  test(`${locale}: every value has the {placeholders} of the English one`, () => {
    assert.deepEqual(placeholderProblems(locale, catalogue), []);
  });

  test(`${locale}: no value is left in English`, () => {
    assert.deepEqual(untranslatedProblems(locale, catalogue), []);
  });
}

test('the allow list holds only keys of en.ts whose English value has no words', () => {
  for (const key of sameAsEnglishAllowed) {
    assert.ok(Object.hasOwn(en, key), `allow-listed key '${key}' is not in en.ts`);
    const words = (en[key as keyof typeof en] ?? '').replace(/\{\w+\}/g, '');
    assert.doesNotMatch(words, /\p{L}/u, `allow-listed key '${key}' has words to translate`);
  }
});

test('the checks report a missing key', () => {
  const broken = Object.fromEntries(Object.entries(de).filter(([key]) => key !== 'editor.save'));
  assert.deepEqual(catalogueProblems('de', broken), ["de: missing key 'editor.save'"]);
});

test('the checks report an extra key, an empty value, a lost placeholder and an English value', () => {
  const broken = {
    ...de,
    'editor.sceneTitle': 'Szenentitel',
    'editor.save': 'Save',
    'editor.exit': '  ',
    'editor.extra': 'Extra',
  };
  assert.deepEqual(catalogueProblems('de', broken), [
    "de: extra key 'editor.extra' (not in en.ts)",
    "de: 'editor.exit' is empty",
    "de: 'editor.sceneTitle' has placeholders none; en.ts has {n}",
    "de: 'editor.save' is still the English 'Save'",
  ]);
});
