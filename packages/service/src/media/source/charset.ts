/**
 * A page's bytes as text, in the encoding the HTML standard's sniffing finds (`encoding-sniffer`):
 * a byte order mark, else the HTTP header's `charset`, else a `<meta charset>` or
 * `<meta http-equiv="Content-Type">` in the first 1024 bytes. A page that declares none is read as
 * UTF-8 while its bytes are UTF-8 and as windows-1252 from the first byte that is not (most such
 * pages today are UTF-8; the standard's own default, windows-1252, is for the rest).
 */
import { ResultType, Sniffer } from 'encoding-sniffer/sniffer';

/** Bytes the sniffer looks at for a BOM or a `<meta>` before decoding starts (the standard's 1024). */
const SNIFF_BYTES = 1024;

/**
 * windows-1252's characters for bytes 0x80–0x9F. Node 20.18.3+ and 22.13+ decode windows-1252 as
 * ISO-8859-1 (nodejs/node#60888), so these bytes come out as C1 controls; they are mapped here. A
 * correct decoder is not affected: the five bytes windows-1252 leaves undefined map to themselves.
 */
const WINDOWS_1252_C1 =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/** Decodes a page's bytes as they arrive: `write` each chunk, then `end`. */
export class PageDecoder {
  /** The encoding in use; undefined until the first 1024 bytes (or the end) have been seen. */
  encoding: string | undefined;
  readonly #sniffer: Sniffer;
  #held: Uint8Array[] = [];
  #heldBytes = 0;
  // (Node's types declare the global TextDecoder as a value only: the service builds without DOM.)
  #decoder: InstanceType<typeof TextDecoder> | undefined;
  /** True while an undeclared page is read as UTF-8, until a byte proves it is not. */
  #guessing = false;
  /** The last bytes given to the guessing decoder: a character may have begun in them. */
  #recent: Uint8Array = new Uint8Array();

  /** @param charset the `charset` of the response's Content-Type, if any */
  constructor(charset?: string) {
    this.#sniffer = new Sniffer({
      maxBytes: SNIFF_BYTES,
      defaultEncoding: 'utf-8',
      ...(charset ? { transportLayerEncodingLabel: charset } : {}),
    });
  }

  /** The text of `bytes` that can be decoded so far. */
  write(bytes: Uint8Array): string {
    if (this.#decoder) return this.#decode(bytes);
    this.#sniffer.write(bytes);
    this.#held.push(bytes);
    this.#heldBytes += bytes.byteLength;
    return this.#heldBytes < SNIFF_BYTES ? '' : this.#start();
  }

  /** The rest of the text. */
  end(): string {
    const text = this.#decoder ? '' : this.#start();
    let rest: string;
    try {
      rest = this.#decoder!.decode();
    } catch {
      // Only a guessing decoder throws: the page ended (or was cut) inside a character.
      rest = '\ufffd';
    }
    return text + this.#fix(rest);
  }

  #start(): string {
    const { encoding, resultType } = this.#sniffer;
    this.#guessing = resultType === ResultType.DEFAULT;
    this.#use(this.#guessing ? 'utf-8' : encoding);
    const text = this.#held.map((bytes) => this.#decode(bytes)).join('');
    this.#held = [];
    return text;
  }

  #use(encoding: string): void {
    try {
      this.#decoder = new TextDecoder(encoding, { fatal: this.#guessing });
      this.encoding = this.#decoder.encoding;
    } catch {
      // A label the platform cannot decode (x-user-defined, replacement): UTF-8 is the best guess.
      this.#decoder = new TextDecoder('utf-8');
      this.encoding = 'utf-8';
    }
  }

  #decode(bytes: Uint8Array): string {
    if (!this.#guessing) return this.#fix(this.#decoder!.decode(bytes, { stream: true }));
    try {
      const text = this.#decoder!.decode(bytes, { stream: true });
      this.#recent = bytes.byteLength >= 3 ? bytes.subarray(-3) : Buffer.concat([this.#recent, bytes]).subarray(-3);
      return text;
    } catch {
      // Not UTF-8 after all: windows-1252 from here, with the bytes of a character begun before.
      this.#guessing = false;
      this.#use('windows-1252');
      return this.#decode(
        Buffer.concat([this.#recent.subarray(this.#recent.length - pendingUTF8(this.#recent)), bytes]),
      );
    }
  }

  #fix(text: string): string {
    if (this.encoding !== 'windows-1252') return text;
    return text.replace(/[\u0080-\u009f]/g, (char) => WINDOWS_1252_C1[char.charCodeAt(0) - 0x80]!);
  }
}

/** How many of the last bytes of valid UTF-8 `bytes` begin a character that is not complete yet. */
function pendingUTF8(bytes: Uint8Array): number {
  for (let back = 1; back <= bytes.length; back++) {
    const byte = bytes[bytes.length - back]!;
    if (byte < 0x80) return 0;
    if (byte >= 0xc0) {
      const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return length > back ? back : 0;
    }
  }
  return 0;
}
