/**
 * Names compared as gh compares them: a list's `--label`, `--assignee`,
 * `--author` and `--milestone` become search qualifiers (or GitHub's
 * filters over logins), and both ignore case. Two names are the same when
 * their lowercased forms are (`matchSearch`'s qualifiers use it too). A cached record's
 * JSON bytes answer the same question without a string made per record
 * (`foldedString`). Pure: no I/O.
 */
import { isAscii } from "node:buffer";

/**
 * Whether two labels, logins or milestone titles are the same name, ignoring case.
 * @example sameName("Bug", "bug") // true
 */
export function sameName(a: string, b: string): boolean {
  return a === b || a.toLowerCase() === b.toLowerCase();
}

/** A name to find in JSON bytes: the JSON text of its lowercased form, quotes included. */
export interface FoldedName {
  readonly text: Buffer;
  /** Whether `sameName` can only hold for the name's own bytes (ASCII without a letter: `123`, `1.0-2`). */
  readonly exact: boolean;
}

/**
 * A name as `foldedString` looks for it.
 * @example foldedName("Bug").text.toString() // '"bug"'
 */
export function foldedName(name: string): FoldedName {
  const text = Buffer.from(JSON.stringify(name.toLowerCase()));
  return { text, exact: isAscii(text) && !/[a-z]/.test(name.toLowerCase()) };
}

/**
 * Whether the JSON string that starts at `b[at]` (its opening quote), and
 * ends before `limit`, is the name `n` ignoring case (`sameName`), read
 * from its bytes: JSON.stringify writes every string it holds, so an ASCII
 * string's text, with A–Z lowercased, is the lowercased string's text.
 * undefined when the bytes cannot tell: no string starts there, or it holds
 * a byte past ASCII and is not the lowercased name's bytes (`K`, the Kelvin
 * sign, lowercases to `k`).
 * @example foldedString(Buffer.from('{"name":"BUG"}'), 8, foldedName("bug")) // true
 */
export function foldedString(b: Buffer, at: number, n: FoldedName, limit = b.length): boolean | undefined {
  if (b[at] !== 0x22) return undefined;
  const t = n.text;
  // Most strings a filter passes over differ at their first byte.
  const c0 = b[at + 1]!;
  if (t.length > 2 && c0 < 0x80 && (c0 >= 0x41 && c0 <= 0x5a ? c0 | 0x20 : c0) !== t[1]) return false;
  // Its closing quote: the first after an even run of backslashes (every quote inside is escaped).
  let q = at;
  for (;;) {
    q = b.indexOf(0x22, q + 1);
    if (q < 0 || q >= limit) return undefined;
    let k = q - 1;
    while (b[k] === 0x5c) k--;
    if ((q - 1 - k) % 2 === 0) break;
  }
  let same = q + 1 - at === t.length;
  for (let i = at + 1; i < q; i++) {
    const c = b[i]!;
    if (c >= 0x80) return b.compare(t, 0, t.length, at, q + 1) === 0 ? true : undefined;
    if (same && (c >= 0x41 && c <= 0x5a ? c | 0x20 : c) !== t[i - at]) same = false;
  }
  return same;
}

/**
 * Whether some `key` member (its name and colon, e.g. `"name":`) in `b[from, to)` holds the name `n`
 * (`foldedString`); undefined when none does and one cannot tell.
 */
export function foldedMember(b: Buffer, from: number, to: number, key: Buffer, n: FoldedName): boolean | undefined {
  // A view of the span: a search in the whole buffer would run on through the lines after it.
  const part = from === 0 && to === b.length ? b : b.subarray(from, to);
  let maybe = false;
  for (let at = part.indexOf(key); at >= 0; at = part.indexOf(key, at + key.length)) {
    const r = foldedString(part, at + key.length, n);
    if (r === true) return true;
    if (r === undefined) maybe = true;
  }
  return maybe ? undefined : false;
}
