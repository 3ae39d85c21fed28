/**
 * The nesting depth of a JSON text, measured on its raw bytes as they arrive, before any parser
 * builds anything: a body of millions of `[` would otherwise make JSON.parse build millions of
 * arrays (seconds of a blocked event loop) before any later check could see its depth. The
 * bytes that matter (brackets, braces, quote, backslash) are ASCII, and in UTF-8 an ASCII byte
 * is never part of another character, so bytes can be scanned without decoding.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Counts how deep arrays and objects are open, chunk after chunk, outside strings; `feed` says
 * when a chunk opens one more than `limit` and stops there. On a text JSON.parse accepts up to
 * some point, the depth counted up to that point is the parser's, so a text found within the
 * limit never makes the parser go deeper. One pass over each byte at most: linear time.
 */
export class JsonDepthScanner {
  private depth = 0;
  private inString = false;
  /** The last chunk ended inside a string on a backslash: the next byte is escaped. */
  private escaped = false;

  constructor(private readonly limit: number) {}

  /** Whether `bytes` take the text over the limit. */
  feed(bytes: Uint8Array): boolean {
    let i = 0;
    if (this.escaped && bytes.length > 0) {
      this.escaped = false;
      i = 1;
    }
    for (; i < bytes.length; i += 1) {
      const c = bytes[i];
      if (this.inString) {
        if (c === BACKSLASH) {
          if (i + 1 === bytes.length) this.escaped = true;
          i += 1;
        } else if (c === QUOTE) this.inString = false;
      } else if (c === QUOTE) {
        this.inString = true;
      } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
        this.depth += 1;
        if (this.depth > this.limit) return true;
      } else if ((c === CLOSE_ARRAY || c === CLOSE_OBJECT) && this.depth > 0) {
        this.depth -= 1;
      }
    }
    return false;
  }
}
