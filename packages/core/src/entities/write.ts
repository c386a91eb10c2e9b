/**
 * The write path's rule (DESIGN §3, validate before write): whatever a write
 * produces is read back with the reader's own rules — size cap, parse (depth
 * and alias limits), schema — and must give back exactly what was meant,
 * before anything is renamed into place. A write the reader would refuse is
 * refused, naming the file and the field, and leaves nothing behind.
 *
 * Unknown fields are kept byte for byte: their source lines are copied from
 * the file as read. One that cannot be copied (its lines do not stand alone)
 * and cannot be written canonically either is refused by name.
 */
import { isDeepStrictEqual } from "node:util";
import { InvalidFileError } from "../errors.js";
import { formatCanonical, parseCanonical } from "../frontmatter/canonical.js";
import { MAX_FILE_BYTES, parseFrontmatterSync } from "../frontmatter/parse.js";
import { atomicWrite } from "../store/atomic_write.js";
import { validate, type EntitySchema } from "./schema.js";
import { sealLine, sealText, ZERO_DIGEST } from "./seal.js";

/** What a write means to store. */
export interface EntityWrite {
  /** Known fields (schema order is applied here). */
  readonly data: Record<string, unknown>;
  /** Unknown fields, kept. */
  readonly extra: Record<string, unknown>;
  /** The stored body. */
  readonly body: string;
  /** The file's text as read, when it is a rewrite: unknown fields are copied from it. */
  readonly source?: string;
}

/**
 * The text of a store file, checked: formatted (known fields canonical, in
 * schema order; unknown fields copied from `source` or written canonically),
 * then read back as a reader would and compared.
 * @param schema the file's schema
 * @param file the path for messages (relative to the repo)
 * @returns the text to write
 * @throws InvalidFileError naming the file (and field) when the result would be unreadable or read back differently
 */
export function checkedText(schema: EntitySchema, file: string, w: EntityWrite): string {
  let text = formatText(schema, file, w);
  if (schema.sealed !== undefined) {
    const s = sealText(schema, text);
    text = s.text;
    w = { ...w, data: { ...w.data, [schema.sealed]: s.digest } };
  }
  checkReadsBack(schema, file, text, w);
  return text;
}

/**
 * Write a store file atomically, checked first (`checkedText`).
 * @param path the absolute path
 * @param opts `exclusive`: never replace an existing file (append-only records)
 * @throws InvalidFileError, nothing written
 */
export function writeChecked(
  schema: EntitySchema,
  path: string,
  file: string,
  w: EntityWrite,
  opts: { exclusive?: boolean } = {}
): void {
  atomicWrite(path, checkedText(schema, file, w), opts);
}

/**
 * A path for messages when only the absolute path is at hand: from the
 * `.forge` folder on, else the last three segments (never absolute: SEC-10).
 * @example displayOf("/home/me/r/.forge/issues/x/issue.md") // ".forge/issues/x/issue.md"
 */
export function displayOf(path: string): string {
  const i = path.lastIndexOf("/.forge/");
  return i >= 0 ? path.slice(i + 1) : path.split("/").slice(-3).join("/");
}

// --- internal ---

function formatText(schema: EntitySchema, file: string, w: EntityWrite): string {
  let head = "";
  const known = new Set<string>();
  for (const f of schema.fields) {
    known.add(f.name);
    if (f.name === schema.sealed) {
      head += sealLine(f.name, ZERO_DIGEST);
      continue;
    }
    const v = w.data[f.name];
    if (v === undefined || (f.omitEmpty && Array.isArray(v) && v.length === 0)) continue;
    head += formatField(file, f.name, v);
  }
  const keys = Object.keys(w.extra).filter((k) => !known.has(k));
  const chunks = keys.length && w.source !== undefined ? sourceChunks(w.source, file) : undefined;
  for (const k of keys) {
    const raw = chunks?.get(k);
    head += raw !== undefined && isDeepStrictEqual(raw.value, w.extra[k]) ? raw.text : formatField(file, k, w.extra[k]);
  }
  return `---\n${head}---\n${w.body}`;
}

function formatField(file: string, key: string, v: unknown): string {
  try {
    return formatCanonical({ [key]: v });
  } catch {
    throw new InvalidFileError(
      file,
      "holds a value forge cannot write back (edit the file by hand); nothing written",
      key === "" ? "(empty key)" : key.slice(0, 40)
    );
  }
}

function checkReadsBack(schema: EntitySchema, file: string, text: string, w: EntityWrite): void {
  if (text.length > MAX_FILE_BYTES || Buffer.byteLength(text) > MAX_FILE_BYTES) {
    throw new InvalidFileError(
      file,
      `would be larger than ${MAX_FILE_BYTES / 1024} KiB; nothing written`,
      w.body.length > MAX_FILE_BYTES / 2 ? "body" : undefined
    );
  }
  // What the write means, as the reader would normalise it (also refuses a bad field of the change itself).
  const want = validate(schema, { ...w.extra, ...w.data }, file);
  const fm = parseFrontmatterSync(text, file);
  if (!fm) throw new InvalidFileError(file, "would need the general YAML reader, which is not loaded; nothing written");
  const got = validate(schema, fm.data, file);
  for (const f of schema.fields) {
    if (!isDeepStrictEqual(got.data[f.name], want.data[f.name]))
      throw new InvalidFileError(file, "would not read back as written; nothing written", f.name);
  }
  for (const k of new Set([...Object.keys(got.extra), ...Object.keys(want.extra)])) {
    if (!isDeepStrictEqual(got.extra[k], want.extra[k]))
      throw new InvalidFileError(file, "would not read back as written; nothing written", k.slice(0, 40));
  }
  if (fm.body !== w.body) throw new InvalidFileError(file, "would not read back as written; nothing written", "body");
}

/**
 * The top-level entries of a file's frontmatter as source text: a chunk
 * starts at each line in column 0 that is not a comment, a sequence dash or
 * blank, and runs to the next. A chunk is kept only when it parses alone to
 * exactly one key.
 */
function sourceChunks(source: string, file: string): Map<string, { text: string; value: unknown }> {
  const out = new Map<string, { text: string; value: unknown }>();
  const lines = source.split(/(?<=\n)/);
  if (!/^---[ \t]*\r?\n$/.test(lines[0] ?? "")) return out;
  let end = 1;
  while (end < lines.length && !/^---[ \t]*\r?\n?$/.test(lines[end]!)) end++;
  const starts: number[] = [];
  for (let i = 1; i < end; i++) {
    const c = lines[i]!.charAt(0);
    if (c !== " " && c !== "\t" && c !== "#" && c !== "-" && c !== "\n" && c !== "\r" && c !== "") starts.push(i);
  }
  for (let s = 0; s < starts.length; s++) {
    const text = lines.slice(starts[s]!, starts[s + 1] ?? end).join("");
    if (!text.endsWith("\n")) continue;
    let data: Record<string, unknown> | undefined;
    try {
      data = parseCanonical(text) ?? parseFrontmatterSync(`---\n${text}---\n`, file)?.data;
    } catch {
      continue;
    }
    const keys = data ? Object.keys(data) : [];
    if (keys.length === 1) out.set(keys[0]!, { text, value: data![keys[0]!] });
  }
  return out;
}
