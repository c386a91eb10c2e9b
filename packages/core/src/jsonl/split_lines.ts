/**
 * The one line splitter under every JSON-lines reader: bytes in, whole
 * lines out, linear in the input (each byte is scanned once and copied at
 * most once) and with a per-line cap, so one endless line costs neither
 * quadratic time nor unbounded memory (spec/schema.md, "JSON lines").
 */

/** The most one JSON line may weigh (UTF-8 bytes, without its newline). */
export const MAX_JSON_LINE_BYTES = 16 * 1024 * 1024;

/** The cap as people read it, for error lines. */
export function capText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/** One line: its 1-based number and text, or `tooLong` when it passed the cap (its text dropped). */
export type SplitLine = { line: number; text: string; tooLong?: undefined } | { line: number; tooLong: true };

/**
 * Splits a byte stream into lines at `\n` (a newline byte is never inside
 * a multi-byte UTF-8 character, so each line decodes whole). A line over
 * the cap is not kept: its bytes are skipped up to its newline and it comes
 * out as `tooLong`. Chunks are referenced, not copied, until their line
 * ends: the caller must not reuse a chunk's memory.
 * @example new LineSplitter().push(Buffer.from('{"a":1}\n{"a'))  // [{ line: 1, text: '{"a":1}' }]
 */
export class LineSplitter {
  readonly #cap: number;
  #parts: Buffer[] = [];
  #len = 0;
  #over = false;
  #line = 0;

  constructor(cap = MAX_JSON_LINE_BYTES) {
    this.#cap = cap;
  }

  /** The lines this chunk ends, in order. */
  push(chunk: Buffer): SplitLine[] {
    const out: SplitLine[] = [];
    let start = 0;
    const nl = chunk.indexOf(10);
    if (nl >= 0) {
      // The line the kept parts began ends here; the whole lines after it are decoded at once (a newline is never
      // inside a UTF-8 character) and cut as text, when together they fit under the cap (so each does).
      out.push(this.#take(chunk.subarray(0, nl)));
      start = nl + 1;
      const last = chunk.lastIndexOf(10);
      if (last > start && last - start <= this.#cap) {
        const text = chunk.toString("utf8", start, last);
        for (let at = 0; ;) {
          const end = text.indexOf("\n", at);
          out.push({ line: ++this.#line, text: end < 0 ? text.slice(at) : text.slice(at, end) });
          if (end < 0) break;
          at = end + 1;
        }
        start = last + 1;
      }
      for (let n = chunk.indexOf(10, start); n >= 0; n = chunk.indexOf(10, start)) {
        out.push(this.#take(chunk.subarray(start, n)));
        start = n + 1;
      }
    }
    if (start < chunk.length) this.#keep(chunk.subarray(start));
    return out;
  }

  /** The end of the input: the last line when it had no newline. */
  end(): SplitLine[] {
    if (this.#len === 0 && !this.#over) return [];
    return [this.#take(Buffer.alloc(0))];
  }

  #keep(part: Buffer): void {
    if (this.#over) return;
    if (this.#len + part.length > this.#cap) {
      this.#over = true;
      this.#parts = [];
      this.#len = 0;
      return;
    }
    this.#parts.push(part);
    this.#len += part.length;
  }

  #take(last: Buffer): SplitLine {
    const line = ++this.#line;
    this.#keep(last);
    if (this.#over) {
      this.#over = false;
      return { line, tooLong: true };
    }
    const parts = this.#parts;
    const text = parts.length === 1 ? parts[0]!.toString("utf8") : Buffer.concat(parts, this.#len).toString("utf8");
    this.#parts = [];
    this.#len = 0;
    return { line, text };
  }
}

/**
 * The lines of a text already in hand, as LineSplitter numbers them (a
 * line over the cap comes out as `tooLong`, measured in UTF-8 bytes).
 * @example [...textLines("a\n\nb", 16)].map((l) => l.line) // [1, 2, 3]
 */
export function* textLines(text: string, cap = MAX_JSON_LINE_BYTES): Generator<SplitLine> {
  let line = 0;
  for (let at = 0; at < text.length;) {
    let nl = text.indexOf("\n", at);
    if (nl < 0) nl = text.length;
    line++;
    // A UTF-16 unit is at most 3 UTF-8 bytes: only a line past a third of the cap is measured.
    const s = nl - at > cap / 3 ? text.slice(at, nl) : undefined;
    if (nl - at > cap || (s !== undefined && Buffer.byteLength(s) > cap)) yield { line, tooLong: true };
    else yield { line, text: s ?? text.slice(at, nl) };
    at = nl + 1;
  }
}
