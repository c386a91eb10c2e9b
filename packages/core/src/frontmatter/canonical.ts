/**
 * The canonical frontmatter form: the subset of YAML that forge writes, and
 * a line parser for exactly that subset. The parser is what makes reading
 * 10,000 issues fast (the `yaml` package costs ~200 µs a document); it
 * returns `undefined` for anything outside the subset, and the caller falls
 * back to the full, limited YAML engine. For every input it accepts, the
 * result equals what `yaml` (core schema) would give; a property test keeps
 * that true.
 *
 * The subset: a flat mapping whose values are
 * - scalars: a JSON double-quoted string, a "safe" plain word run, an integer,
 *   `true`/`false`, `null` or nothing (null);
 * - `[]`;
 * - a block sequence (`  - `) of such scalars, or of flat mappings of them.
 */

/** A value in canonical frontmatter. */
export type Scalar = string | number | boolean | null;
/** A flat mapping, as found in a list item. */
export type FlatMap = { [key: string]: Scalar };
/** What canonical frontmatter can hold. */
export type FmValue = Scalar | Scalar[] | FlatMap[];
/** A parsed frontmatter mapping. */
export type FmData = { [key: string]: FmValue };

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Plain scalars the `yaml` core schema reads as strings and YAML 1.1 parsers
// read as strings too: start with a letter, then letters, digits, space and
// a few punctuation marks that can never start a comment or a mapping.
const SAFE_PLAIN = /^[A-Za-z_][A-Za-z0-9_.@/+-]*(?: [A-Za-z0-9_.@/+-]+)*$/;
const CORE_NULL = /^(?:null|Null|NULL|~)$/;
const CORE_TRUE = /^(?:true|True|TRUE)$/;
const CORE_FALSE = /^(?:false|False|FALSE)$/;
// Words some YAML 1.1 parsers turn into booleans: always quote them on write.
const YAML11_BOOL = /^(?:y|n|yes|no|on|off)$/i;
// A uuid is a string to every YAML parser (dashes rule out numbers and dates).
const UUID_PLAIN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const INT = /^(?:0|-?[1-9][0-9]{0,14})$/;
const CONTROL = /[\u0000-\u001f]/;
const RESERVED_KEY = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE|__proto__|constructor|prototype)$/;

/**
 * Parse one canonical scalar.
 * @returns the value, or `undefined` when `s` is outside the subset
 */
function parseScalar(s: string): Scalar | undefined {
  if (s === "") return null;
  const c = s.charCodeAt(0);
  if (c === 34 /* " */) {
    if (s.length < 2 || s.charCodeAt(s.length - 1) !== 34) return undefined;
    // No escape, no inner quote, no control character: the text between the quotes is the string (what JSON.parse
    // gives).
    if (s.indexOf("\\") < 0 && s.indexOf('"', 1) === s.length - 1 && !CONTROL.test(s)) return s.slice(1, -1);
    try {
      const v: unknown = JSON.parse(s);
      return typeof v === "string" ? v : undefined;
    } catch {
      return undefined;
    }
  }
  // Each test only where its first character (or length) allows a match: the same answers, fewer regexes.
  if (((c >= 48 && c <= 57) || c === 45) && INT.test(s)) return Number(s);
  if (s.length === 36 && UUID_PLAIN.test(s)) return s;
  if ((c === 110 || c === 78 || c === 126) && CORE_NULL.test(s)) return null; // n N ~
  if ((c === 116 || c === 84) && CORE_TRUE.test(s)) return true; // t T
  if ((c === 102 || c === 70) && CORE_FALSE.test(s)) return false; // f F
  return SAFE_PLAIN.test(s) ? s : undefined;
}

/** Split `key: value` (or `key:`); undefined when not that shape. */
function splitPair(line: string): [string, string] | undefined {
  const i = line.indexOf(":");
  if (i <= 0) return undefined;
  const key = line.slice(0, i);
  const c = key.charCodeAt(0);
  // The reserved words start with n N t T f F _ c p: test them only then.
  if (
    !KEY.test(key) ||
    ((c === 110 || c === 78 || c === 116 || c === 84 || c === 102 || c === 70 || c === 95 || c === 99 || c === 112) &&
      RESERVED_KEY.test(key))
  )
    return undefined;
  if (i === line.length - 1) return [key, ""];
  if (line.charCodeAt(i + 1) !== 32) return undefined;
  const rest = line.slice(i + 2);
  if (rest === "" || rest.charCodeAt(0) === 32 || rest.charCodeAt(rest.length - 1) === 32) return undefined;
  return [key, rest];
}

/**
 * Parse canonical frontmatter (the text between the `---` fences).
 * @param yaml the frontmatter text, each line ending in `\n`
 * @returns the mapping, or `undefined` when the text is outside the subset
 * @example parseCanonical('title: "a: b"\nlabels:\n  - bug\n') // {title: "a: b", labels: ["bug"]}
 */
export function parseCanonical(yaml: string): FmData | undefined {
  if (yaml.includes("\r") || yaml.includes("\t")) return undefined;
  const lines = yaml.split("\n");
  if (lines.pop() !== "") return undefined;
  const out: FmData = {};
  let i = 0;
  while (i < lines.length) {
    const pair = splitPair(lines[i]!);
    if (!pair) return undefined;
    const [key, raw] = pair;
    if (Object.prototype.hasOwnProperty.call(out, key)) return undefined;
    i++;
    if (raw === "[]") {
      out[key] = [];
      continue;
    }
    if (raw !== "" || i >= lines.length || !isItem(lines[i]!)) {
      const v = parseScalar(raw);
      if (v === undefined) return undefined;
      out[key] = v;
      continue;
    }
    const seq = parseSeq(lines, i);
    if (!seq) return undefined;
    out[key] = seq.items;
    i = seq.next;
  }
  return out;
}

function isItem(line: string): boolean {
  return line.startsWith("  - ") || line.startsWith("- ");
}

/** Parse a block sequence starting at `lines[start]`. */
function parseSeq(lines: string[], start: number): { items: Scalar[] | FlatMap[]; next: number } | undefined {
  const dash = lines[start]!.startsWith("  - ") ? "  - " : "- ";
  const cont = " ".repeat(dash.length);
  const scalars: Scalar[] = [];
  const maps: FlatMap[] = [];
  let i = start;
  while (i < lines.length && lines[i]!.startsWith(dash)) {
    const first = lines[i]!.slice(dash.length);
    i++;
    const pair = splitPair(first);
    if (!pair) {
      if (maps.length) return undefined;
      const v = parseScalar(first);
      // A quoted string may contain ": " and still be a scalar item.
      if (v === undefined) return undefined;
      scalars.push(v);
      continue;
    }
    if (scalars.length) return undefined;
    const m: FlatMap = {};
    let p: [string, string] | undefined = pair;
    for (;;) {
      const v = parseScalar(p[1]);
      if (v === undefined || Object.prototype.hasOwnProperty.call(m, p[0])) return undefined;
      m[p[0]] = v;
      if (i >= lines.length || !lines[i]!.startsWith(cont) || lines[i]!.charCodeAt(cont.length) === 32) break;
      p = splitPair(lines[i]!.slice(cont.length));
      if (!p) return undefined;
      i++;
    }
    maps.push(m);
  }
  // An item line that is not a clean continuation means a shape we don't read.
  if (i < lines.length && lines[i]!.startsWith(" ")) return undefined;
  return { items: maps.length ? maps : scalars, next: i };
}

/**
 * Write one scalar in canonical form.
 * @throws TypeError for a value canonical frontmatter cannot hold
 */
export function formatScalar(v: Scalar): string {
  if (v === null) return "";
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "number") {
    if (!Number.isSafeInteger(v)) throw new TypeError(`cannot store number ${v}`);
    return String(v);
  }
  if (typeof v !== "string") throw new TypeError(`cannot store a value of type ${typeof v}`);
  if (UUID_PLAIN.test(v)) return v;
  if (SAFE_PLAIN.test(v) && !CORE_NULL.test(v) && !CORE_TRUE.test(v) && !CORE_FALSE.test(v) && !YAML11_BOOL.test(v)) {
    return v;
  }
  return JSON.stringify(v);
}

/**
 * Serialize a mapping as canonical frontmatter, keys in the given order.
 * `undefined` values are left out; an empty list is written as a bare
 * `key:` so that adding the first item never rewrites the key line (which
 * keeps edits of different fields from touching adjacent lines in a merge).
 * @param data the mapping
 * @returns YAML text, each line ending in `\n`
 * @throws TypeError for a value outside the canonical subset
 * @example formatCanonical({title: "a: b", labels: []}) // 'title: "a: b"\nlabels:\n'
 */
export function formatCanonical(data: Record<string, unknown>): string {
  let out = "";
  for (const key of Object.keys(data)) {
    const v = data[key];
    if (v === undefined) continue;
    if (!KEY.test(key)) throw new TypeError(`cannot store key ${JSON.stringify(key)}`);
    if (!Array.isArray(v)) {
      const s = formatScalar(v as Scalar);
      out += s === "" ? `${key}:\n` : `${key}: ${s}\n`;
      continue;
    }
    out += `${key}:\n`;
    for (const item of v) {
      if (item !== null && typeof item === "object") {
        let first = true;
        for (const [k, x] of Object.entries(item as FlatMap)) {
          if (x === undefined) continue;
          if (!KEY.test(k)) throw new TypeError(`cannot store key ${JSON.stringify(k)}`);
          const s = formatScalar(x);
          out += `${first ? "  - " : "    "}${k}:${s === "" ? "" : " " + s}\n`;
          first = false;
        }
        if (first) throw new TypeError(`cannot store an empty mapping in '${key}'`);
      } else {
        const s = formatScalar(item as Scalar);
        out += `  - ${s === "" ? "null" : s}\n`;
      }
    }
  }
  return out;
}
