import { UsageError } from "../errors.js";
import { capText, LineSplitter, MAX_JSON_LINE_BYTES, type SplitLine, textLines } from "./split_lines.js";

/**
 * One record read from JSON lines, or the error for its line. `idle`: the
 * last line of what the input has given so far (the next waits for more):
 * a reader that answers as it goes (a lane kept open) may settle now.
 */
export type JsonLine = (
  | { line: number; value: Record<string, unknown>; error?: undefined }
  | { line: number; error: Error; value?: undefined }
) & { idle?: true };

/** The most a JSON array on stdin may weigh (it is parsed whole), in UTF-8 bytes. */
export const MAX_JSON_ARRAY_BYTES = 64 * 1024 * 1024;

/**
 * Read JSON lines from a stream: blank lines skipped, one result per
 * non-blank line. A bad line yields an error naming its line number with at
 * most 30 characters of it, so one bad record never stops the batch; a line
 * over MAX_JSON_LINE_BYTES is one such error naming the limit (its bytes are
 * skipped, never held). Linear in the input (see LineSplitter). Input whose
 * first non-blank byte is `[` is one JSON array of objects (what gh prints,
 * compact or indented), at most MAX_JSON_ARRAY_BYTES: each item is a record,
 * numbered as its place in the array.
 * @param input a byte stream (e.g. `process.stdin`)
 * @throws UsageError when a JSON array passes its limit
 * @example for await (const r of readJsonLines(process.stdin)) …
 */
export async function* readJsonLines(input: AsyncIterable<Buffer | string>): AsyncGenerator<JsonLine> {
  const split = new LineSplitter();
  // Until the first non-blank byte: whether the input is a JSON array; then its chunks while it is one.
  let array: boolean | undefined;
  const held: Buffer[] = [];
  let heldBytes = 0;
  for await (const c of input) {
    const chunk = typeof c === "string" ? Buffer.from(c) : c;
    if (array === undefined) {
      const first = firstNonBlank(chunk);
      if (first >= 0) array = chunk[first] === 0x5b;
    }
    if (array) {
      heldBytes += chunk.length;
      if (heldBytes > MAX_JSON_ARRAY_BYTES)
        throw new UsageError(`stdin: the JSON array is over the ${capText(MAX_JSON_ARRAY_BYTES)} limit`);
      held.push(chunk);
      continue;
    }
    const ready = split.push(chunk).flatMap(parseSplit);
    const last = ready.pop();
    yield* ready;
    if (last) yield { ...last, idle: true };
  }
  if (array) {
    yield* arrayRecords(Buffer.concat(held, heldBytes).toString("utf8"));
    return;
  }
  for (const r of split.end().flatMap(parseSplit)) yield { ...r, idle: true };
}

/** The index of the first byte that is not JSON whitespace, or -1. */
function firstNonBlank(b: Buffer): number {
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
  }
  return -1;
}

function parseSplit(l: SplitLine): JsonLine[] {
  if (l.tooLong) return [{ line: l.line, error: tooLong(l.line) }];
  const r = parseLine(l.text, l.line);
  return r ? [r] : [];
}

function tooLong(line: number): UsageError {
  return new UsageError(`stdin line ${line}: longer than the ${capText(MAX_JSON_LINE_BYTES)} line limit`);
}

function* arrayRecords(text: string): Generator<JsonLine> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    yield { line: 1, error: new UsageError("stdin: not a JSON array of objects") };
    return;
  }
  if (!Array.isArray(v)) {
    yield { line: 1, error: new UsageError("stdin: not a JSON array of objects") };
    return;
  }
  let n = 0;
  for (const item of v) {
    n++;
    if (item === null || typeof item !== "object" || Array.isArray(item))
      yield { line: n, error: new UsageError(`stdin item ${n}: not a JSON object`) };
    else yield { line: n, value: item as Record<string, unknown> };
  }
}

/**
 * JSON lines already in hand (a finished process's stdout): what
 * readJsonLines yields for them, read line by line (blank lines skipped),
 * or, when the first non-blank character is `[`, the items of one JSON
 * array (gh's shape, `FORGE_JSON=array`), at most MAX_JSON_ARRAY_BYTES.
 * @throws UsageError when a JSON array passes its limit
 * @example parseJsonLines('{"a":1}\n\nx\n').map((r) => r.line) // [1, 3]
 * @example parseJsonLines('[{"a":1},{"a":2}]').map((r) => r.value) // [{a: 1}, {a: 2}]
 */
export function parseJsonLines(text: string): JsonLine[] {
  if (/^[ \t\r\n]*\[/.test(text)) {
    if (Buffer.byteLength(text) > MAX_JSON_ARRAY_BYTES)
      throw new UsageError(`stdin: the JSON array is over the ${capText(MAX_JSON_ARRAY_BYTES)} limit`);
    return [...arrayRecords(text)];
  }
  return [...textLines(text)].flatMap(parseSplit);
}

function parseLine(text: string, line: number): JsonLine | undefined {
  const t = text.trim();
  if (t === "") return undefined;
  try {
    const v: unknown = JSON.parse(t);
    if (v === null || typeof v !== "object" || Array.isArray(v)) throw new Error("not an object");
    return { line, value: v as Record<string, unknown> };
  } catch {
    const excerpt = t.length > 30 ? t.slice(0, 30) + "…" : t;
    return { line, error: new UsageError(`stdin line ${line}: not a JSON object: ${JSON.stringify(excerpt)}`) };
  }
}

/**
 * The ref a JSON record names: its `id`, else its `number`.
 * @throws UsageError when it has neither
 * @example refOfRecord({number: 3}, 1) // "3"
 */
export function refOfRecord(v: Record<string, unknown>, line: number): string {
  if (typeof v.id === "string" && v.id !== "") return v.id;
  if (typeof v.number === "number" && Number.isSafeInteger(v.number)) return String(v.number);
  throw new UsageError(`stdin line ${line}: record has no 'id' or 'number'`);
}
