import { UsageError } from "../errors.js";

/**
 * One record read from JSON lines, or the error for its line. `idle`: the
 * last line of what the input has given so far (the next waits for more):
 * a reader that answers as it goes (a lane kept open) may settle now.
 */
export type JsonLine = (
  | { line: number; value: Record<string, unknown>; error?: undefined }
  | { line: number; error: Error; value?: undefined }
) & { idle?: true };

/** The most a JSON array on stdin may weigh (it is parsed whole). */
const MAX_ARRAY_CHARS = 64 * 1024 * 1024;

/**
 * Read JSON lines from a stream: blank lines skipped, one result per
 * non-blank line. A bad line yields an error naming its line number with at
 * most 30 characters of it, so one bad record never stops the batch. Input
 * that starts with `[` is one JSON array of objects (what gh prints, compact
 * or indented): each item is a record, numbered as its place in the array.
 * @param input a byte stream (e.g. `process.stdin`)
 * @example for await (const r of readJsonLines(process.stdin)) …
 */
export async function* readJsonLines(input: AsyncIterable<Buffer | string>): AsyncGenerator<JsonLine> {
  let buf = "";
  let line = 0;
  let array = false;
  const decoder = new TextDecoder();
  for await (const chunk of input) {
    buf += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    if (!array && line === 0 && buf.trimStart().startsWith("[")) array = true;
    if (array) {
      if (buf.length > MAX_ARRAY_CHARS) throw new UsageError("stdin: the JSON array is too large");
      continue;
    }
    let nl: number;
    const ready: JsonLine[] = [];
    while ((nl = buf.indexOf("\n")) >= 0) {
      const text = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      line++;
      const r = parseLine(text, line);
      if (r) ready.push(r);
    }
    const last = ready.pop();
    yield* ready;
    if (last) yield { ...last, idle: true };
  }
  buf += decoder.decode();
  if (array) {
    yield* arrayRecords(buf);
    return;
  }
  if (buf !== "") {
    const r = parseLine(buf, ++line);
    if (r) yield { ...r, idle: true };
  }
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
 * readJsonLines yields for them, read line by line (blank lines skipped).
 * @example parseJsonLines('{"a":1}\n\nx\n').map((r) => r.line) // [1, 3]
 */
export function parseJsonLines(text: string): JsonLine[] {
  const out: JsonLine[] = [];
  let line = 0;
  for (let at = 0; at < text.length;) {
    let nl = text.indexOf("\n", at);
    if (nl < 0) nl = text.length;
    const r = parseLine(text.slice(at, nl), ++line);
    if (r) out.push(r);
    at = nl + 1;
  }
  return out;
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
