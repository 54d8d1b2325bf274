// Source pages for the topic search tests: the fixtures of test/fixtures/pages/ (kept as UTF-8 text so
// that they stay readable and formattable) and the byte encodings they are served in.
import { readFileSync } from 'node:fs';

/** The text of `test/fixtures/pages/<name>`. */
export function pageFixture(name: string): string {
  return readFileSync(new URL(`../../../../test/fixtures/pages/${name}`, import.meta.url), 'utf8');
}

/**
 * windows-1252's 256 characters, as the Encoding Standard's index has them (written out: Node's own
 * decoder gets bytes 0x80–0x9F wrong, nodejs/node#60888).
 */
export const WINDOWS_1252 =
  String.fromCharCode(...Array.from({ length: 0x80 }, (_, byte) => byte)) +
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178' +
  String.fromCharCode(...Array.from({ length: 0x60 }, (_, i) => 0xa0 + i));

/** `text` in windows-1252 bytes (throws on a character that encoding lacks). */
export function windows1252(text: string): Buffer {
  return Buffer.from(
    Array.from(text, (char) => {
      const byte = WINDOWS_1252.indexOf(char);
      if (byte === -1) throw new Error(`windows-1252 has no ${JSON.stringify(char)}`);
      return byte;
    }),
  );
}

/** `text` in UTF-16LE bytes after its byte order mark. */
export function utf16leWithBOM(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
}

/** `text` in UTF-8 bytes after its byte order mark. */
export function utf8WithBOM(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
}
