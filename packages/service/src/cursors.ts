/**
 * Sealed cursors: a position in one of the service's logs (the event log's sequence number, the
 * change log's), given to one reader only and telling it nothing. Both logs number their entries
 * across every partner and account, so a plain position would tell a reader how much everyone
 * else did between two of its own pages; sealed, it is 16 random-looking bytes.
 *
 * The 16 bytes are one AES-256 block, enciphered under the service's cursor key: the first 8 bytes
 * of the reader's tag (an HMAC of its name, under a key derived from the same key), then the
 * position as a 64-bit big-endian number. A block cipher on one block is a keyed permutation: the
 * same position for the same reader is always the same cursor (a cursor is stored and given back
 * as it is), two positions give unrelated cursors, and whoever does not hold the key can neither
 * read a position nor make a cursor. Opened, a cursor whose tag is not the reader's is another
 * reader's (or made up): refused, whatever it would have pointed at (docs/service.md "Cursors").
 */
import { createCipheriv, createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';

/** How many characters a sealed cursor has: 16 bytes in base64url. */
export const SEALED_CURSOR_LENGTH = 22;

const SEALED = /^[A-Za-z0-9_-]{22}$/;

/** What opening a cursor gave: its position, or why there is none. */
export type Opened = { seq: number } | { problem: 'malformed' | 'foreign' };

/** Seals and opens the positions of one log, for its readers. */
export class CursorSeal {
  readonly #cipherKey: Buffer;
  readonly #tagKey: Buffer;

  /** `key`: 32 random bytes, kept as long as the cursors must stay valid (the log's data file). */
  constructor(key: Uint8Array) {
    if (key.length !== 32) throw new Error(`A cursor key has 32 bytes (got ${key.length}).`);
    // Two keys from one, for two uses: enciphering the block, and naming its reader.
    this.#cipherKey = createHmac('sha256', key).update('video-plugin cursor cipher').digest();
    this.#tagKey = createHmac('sha256', key).update('video-plugin cursor reader').digest();
  }

  /** The cursor of position `seq` (a whole number from 0) for `reader`. */
  seal(reader: string, seq: number): string {
    const block = Buffer.alloc(16);
    this.#tag(reader).copy(block, 0);
    block.writeBigUInt64BE(BigInt(seq), 8);
    const cipher = createCipheriv('aes-256-ecb', this.#cipherKey, null).setAutoPadding(false);
    return Buffer.concat([cipher.update(block), cipher.final()]).toString('base64url');
  }

  /**
   * The position in `cursor` when it was sealed for one of `readers` (or for anyone: `'any'`,
   * where a position given to the wrong reader shows nothing to it anyway).
   */
  open(cursor: string, readers: readonly string[] | 'any'): Opened {
    if (!SEALED.test(cursor)) return { problem: 'malformed' };
    const decipher = createDecipheriv('aes-256-ecb', this.#cipherKey, null).setAutoPadding(false);
    const block = Buffer.concat([decipher.update(Buffer.from(cursor, 'base64url')), decipher.final()]);
    const tag = block.subarray(0, 8);
    if (readers !== 'any' && !readers.some((name) => timingSafeEqual(tag, this.#tag(name)))) {
      return { problem: 'foreign' };
    }
    const seq = block.readBigUInt64BE(8);
    return seq <= BigInt(Number.MAX_SAFE_INTEGER) ? { seq: Number(seq) } : { problem: 'malformed' };
  }

  #tag(reader: string): Buffer {
    return createHmac('sha256', this.#tagKey).update(reader).digest().subarray(0, 8);
  }
}
