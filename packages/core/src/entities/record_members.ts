/**
 * Some members of a cached record, copied as bytes: a list that asks for a
 * few fields (`--json number,title`, a table's columns) is written from the
 * record cache without parsing each record (its body, its labels' objects)
 * only to write part of it again. The cache's parts are the members
 * `JSON.stringify` wrote, in its layout's order (issue_list_cache.ts:
 * BEFORE, AFTER), so a member's bytes are the bytes `JSON.stringify` would
 * write of its value again. A part that does not scan as such (no key of the
 * layout, in order; a value that does not end) is refused: the caller parses
 * the record instead.
 */

/** A JSON value's end, from its first byte at `p`, before `lim`; -1 when it does not end there as JSON writes it. */
export function valueEnd(b: Uint8Array, p: number, lim: number): number {
  const c = b[p];
  if (c === 0x22) return stringEnd(b, p, lim);
  if (c === 0x7b || c === 0x5b) {
    // An object or an array: to its closing bracket, over its strings.
    let depth = 0;
    for (let q = p; q < lim; q++) {
      const x = b[q]!;
      if (x === 0x22) {
        q = stringEnd(b, q, lim) - 1;
        if (q < 0) return -1;
      } else if (x === 0x7b || x === 0x5b) depth++;
      else if (x === 0x7d || x === 0x5d) {
        if (--depth === 0) return q + 1;
      }
    }
    return -1;
  }
  // A number, true, false or null: to the next separator.
  let q = p;
  while (q < lim) {
    const x = b[q]!;
    if (x === 0x2c || x === 0x7d || x === 0x5d) break;
    if (x === 0x22 || x === 0x7b || x === 0x5b) return -1;
    q++;
  }
  return q > p ? q : -1;
}

/** A JSON string's end (after its closing quote), from its opening quote at `p`; -1: it does not close before `lim`. */
function stringEnd(b: Uint8Array, p: number, lim: number): number {
  let q = p + 1;
  for (;;) {
    const at = b.indexOf(0x22, q);
    if (at < 0 || at >= lim) return -1;
    // Escaped when an odd run of backslashes stands before it.
    let k = at - 1;
    while (b[k] === 0x5c) k--;
    if ((at - 1 - k) % 2 === 0) return at + 1;
    q = at + 1;
  }
}

/**
 * The members a list asks for, found in a cached record's two parts (their
 * byte ranges), for one field list; `scan` then `write` per record.
 */
export class MemberPicker {
  /** The layout's keys of each part, as bytes. */
  readonly #keys: [Buffer[], Buffer[]];
  /** Whether each key of each part is asked for. */
  readonly #want: [boolean[], boolean[]];
  /** Pairs [start, end) of the members found, part one's first. */
  readonly #at: Int32Array;
  #count = 0;
  #split = 0;

  /**
   * @param before the layout's keys in part one, in order
   * @param after the layout's keys in part two, in order
   * @param fields the fields asked for (any others are not picked)
   */
  constructor(before: readonly string[], after: readonly string[], fields: readonly string[]) {
    const asked = new Set(fields);
    this.#keys = [before.map((k) => Buffer.from(k)), after.map((k) => Buffer.from(k))];
    this.#want = [before.map((k) => asked.has(k)), after.map((k) => asked.has(k))];
    this.#at = new Int32Array(2 * (before.length + after.length));
  }

  /**
   * Find the asked-for members of a record whose parts are `b[start, sep)`
   * and `b[sep + 1, end)`; false when a part does not scan (nothing kept).
   */
  scan(b: Buffer, start: number, sep: number, end: number): boolean {
    this.#count = 0;
    if (!this.#part(b, start, sep, 0)) return false;
    this.#split = this.#count;
    return this.#part(b, sep + 1, end, 1);
  }

  /** The last scan's members of `part` (0, 1), as `"k":v` joined by commas, into `out` at `at`; the offset after. */
  copy(b: Buffer, part: 0 | 1, out: Buffer, at: number): number {
    const from = part === 0 ? 0 : this.#split;
    const to = part === 0 ? this.#split : this.#count;
    for (let m = from; m < to; m++) {
      if (m > from) out[at++] = 0x2c;
      at += b.copy(out, at, this.#at[2 * m]!, this.#at[2 * m + 1]!);
    }
    return at;
  }

  /** Bytes the last scan's members take, separators included. */
  get bytes(): number {
    let n = this.#count;
    for (let m = 0; m < this.#count; m++) n += this.#at[2 * m + 1]! - this.#at[2 * m]!;
    return n;
  }

  #part(b: Buffer, p: number, lim: number, part: 0 | 1): boolean {
    const keys = this.#keys[part];
    const want = this.#want[part];
    let j = 0;
    while (p < lim) {
      if (b[p] !== 0x22) return false;
      // The next key of the layout this member's is (a member left out, as undefined, is skipped).
      const k = b.indexOf(0x22, p + 1);
      if (k < 0 || k >= lim || b[k + 1] !== 0x3a) return false;
      const len = k - p - 1;
      while (j < keys.length && !(keys[j]!.length === len && b.compare(keys[j]!, 0, len, p + 1, k) === 0)) j++;
      if (j === keys.length) return false;
      const e = valueEnd(b, k + 2, lim);
      if (e < 0) return false;
      if (want[j]) {
        this.#at[2 * this.#count] = p;
        this.#at[2 * this.#count + 1] = e;
        this.#count++;
      }
      j++;
      if (e === lim) return true;
      if (b[e] !== 0x2c) return false;
      p = e + 1;
    }
    // An empty part, or one that ends with a comma.
    return p === lim && b[lim - 1] !== 0x2c;
  }
}
