/**
 * Output: JSON lines (or gh's one array with `FORGE_JSON=array`), `--jq`
 * through the system jq, or human text, written
 * with back-pressure (a slow reader gets every byte; nothing is lost by
 * exiting early) and a quiet stop when the reader goes away (`| head -1`).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { FIRST_CHUNK, ForgeError, nextChunk, UsageError } from "@forge/core";
import type { FlagDef, Parsed } from "./args.js";
import { type Io, useColor } from "./io.js";
import { formatTable } from "./table.js";

/** A writer over stdout that respects back-pressure and swallows EPIPE, in chunks of up to 64 KiB (`nextChunk`). */
export class Out {
  #stream: NodeJS.WritableStream;
  #buf = "";
  #limit = FIRST_CHUNK;
  /** The reader has gone away: stop producing. */
  closed = false;
  constructor(stream: NodeJS.WritableStream) {
    this.#stream = stream;
    stream.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "EPIPE" || err.code === "ERR_STREAM_DESTROYED") this.closed = true;
    });
  }
  /** Queue text; flushes in chunks of up to 64 KiB. */
  async write(s: string): Promise<void> {
    if (this.closed) return;
    this.#buf += s;
    if (this.#buf.length >= this.#limit) await this.flush();
  }
  /** Write bytes as they are (a diff in any encoding), after what is queued. */
  async writeBytes(b: Uint8Array): Promise<void> {
    await this.flush();
    if (this.closed || b.length === 0) return;
    await this.#send(b);
  }
  /** Write what is queued, waiting for `drain` if the pipe is full. */
  async flush(): Promise<void> {
    if (this.closed || this.#buf === "") return;
    const chunk = this.#buf;
    this.#buf = "";
    this.#limit = nextChunk(this.#limit, 1 << 16);
    await this.#send(chunk);
  }
  async #send(chunk: string | Uint8Array): Promise<void> {
    let ok: boolean;
    try {
      ok = this.#stream.write(chunk);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EPIPE") {
        this.closed = true;
        return;
      }
      throw err;
    }
    if (!ok && !this.closed) await drained(this.#stream);
  }
}

/** Wait for `drain` (or the stream's end), leaving no listener behind. */
function drained(s: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      s.off("drain", done);
      s.off("close", done);
      s.off("error", done);
      resolve();
    };
    s.on("drain", done);
    s.on("close", done);
    s.on("error", done);
  });
}

/** `--json [fields]`: `null` fields means every field. */
export interface JsonRequest {
  fields: string[] | null;
}

/** How a command's records become text. */
export interface RenderOptions<R> {
  json: JsonRequest | null;
  jq?: string;
  /** jq gets one object instead of an array (a single-ref `view`). */
  single?: boolean;
  /** Human output: a table row per record (`color`: a TTY without NO_COLOR)… */
  row?: (rec: R, tty: boolean, color: boolean) => string[];
  /** …or a block of text per record. */
  text?: (rec: R, tty: boolean) => string;
  /** Column headers for the TTY table. */
  header?: string[];
}

/**
 * Check a `--json` field list against a kind's fields (gh's "Available
 * fields" message).
 * @throws UsageError naming the unknown field and listing the valid ones
 */
export function parseJsonFields(value: string | undefined, all: readonly string[]): JsonRequest | null {
  if (value === undefined) return null;
  if (value === "") return { fields: null };
  const fields = value
    .split(",")
    .map((f) => f.trim())
    .filter(Boolean);
  for (const f of fields)
    if (!all.includes(f)) throw new UsageError(`unknown JSON field '${f.slice(0, 30)}'; available: ${all.join(",")}`);
  return { fields };
}

/**
 * gh's `--json [fields]` and `--jq` flags for a kind with these fields.
 * @example args: { ...jsonFlags(ISSUE_FIELDS), state: … }
 */
export function jsonFlags(fields: readonly string[]): Record<string, FlagDef> {
  return {
    json: {
      type: "string",
      optionalValue: true,
      acceptsValue: isFieldList(fields),
      description: `JSON lines, one object per record; a comma list keeps only those fields: ${fields.join(",")}`,
    },
    jq: {
      type: "string",
      alias: "q",
      valueHint: "expr",
      description: "filter the JSON through jq, as gh's --jq (needs jq on PATH)",
    },
  };
}

/**
 * The JSON request from `--json`/`--jq` (`--jq` alone means every field).
 * @throws UsageError for an unknown field, listing the available ones
 */
export function jsonRequestOf(args: Parsed, fields: readonly string[]): JsonRequest | null {
  const req = parseJsonFields(args.json as string | undefined, fields);
  return req ?? (args.jq !== undefined ? { fields: null } : null);
}

/**
 * Whether `--json` takes the next token as its value: a list of known fields,
 * or anything shaped like a field list that cannot be a ref (a number, `#12`,
 * a hex id prefix, `-`). So `--json titel` is a usage error that lists the
 * fields (as in gh) rather than a stray argument, and `--json 12` still
 * leaves `12` as the ref.
 * @example isFieldList(["title"])("titel") // true (parseJsonFields then rejects it)
 */
export function isFieldList(all: readonly string[]): (tok: string) => boolean {
  return (tok) => tok.split(",").every((f) => all.includes(f)) || (FIELD_LIST.test(tok) && !HEX_REF.test(tok));
}

const FIELD_LIST = /^[A-Za-z_][A-Za-z0-9_]*(?:,[A-Za-z_][A-Za-z0-9_]*)*,?$/;
const HEX_REF = /^[0-9a-f]+$/;

/** Keep only `sorted` fields (gh prints the keys sorted, whatever order they were asked in). */
function project(rec: Record<string, unknown>, sorted: string[] | null): Record<string, unknown> {
  if (!sorted) return rec;
  const out: Record<string, unknown> = {};
  for (const k of sorted) out[k] = rec[k];
  return out;
}

/**
 * Write records the way the options ask: JSON lines streamed as they come,
 * jq output, a tab-separated or aligned table, or text blocks.
 * @returns once everything is written (or the reader has gone)
 */
export async function emit<R extends object>(
  io: Io,
  out: Out,
  records: AsyncIterable<R> | Iterable<R>,
  opts: RenderOptions<R>
): Promise<void> {
  const tty = io.stdout.isTTY === true;
  const fields = opts.json?.fields ? [...opts.json.fields].sort() : null;
  if (opts.jq !== undefined) {
    const all: Record<string, unknown>[] = [];
    for await (const r of records) all.push(project(r as Record<string, unknown>, fields));
    if (opts.single && all.length === 1) await runJq(io, out, opts.jq, all[0], tty);
    else await runJq(io, out, opts.jq, all, tty);
  } else if (opts.json && jsonMode(io) === "array" && !opts.single) {
    // gh's shape: one array (`[]` when empty), still streamed record by record.
    let sep = "[";
    for await (const r of records) {
      if (out.closed) break;
      await out.write(sep + JSON.stringify(project(r as Record<string, unknown>, fields)));
      sep = ",";
    }
    await out.write(sep === "[" ? "[]\n" : "]\n");
  } else if (opts.json) {
    for await (const r of records) {
      if (out.closed) break;
      await out.write(JSON.stringify(project(r as Record<string, unknown>, fields)) + "\n");
    }
  } else if (opts.row) {
    if (tty) {
      const rows: string[][] = [];
      const color = useColor(io);
      for await (const r of records) rows.push(opts.row(r, true, color));
      if (rows.length) await out.write(formatTable(opts.header ? [opts.header, ...rows] : rows));
    } else {
      for await (const r of records) {
        if (out.closed) break;
        await out.write(opts.row(r, false, false).join("\t") + "\n");
      }
    }
  } else if (opts.text) {
    for await (const r of records) await out.write(opts.text(r, tty));
  } else {
    // No human rendering (manipulators confirm on stderr): still do the work.
    for await (const _ of records);
  }
  await out.flush();
}

/**
 * `FORGE_JSON` in the environment: `lines` (the default, one object a line)
 * or `array` (gh's one JSON array per list, for scripts written for gh that
 * pipe into `jq '.[]'`). A single-ref `view` prints one object either way.
 * @throws UsageError for any other value
 */
export function jsonMode(io: Io): "lines" | "array" {
  const v = io.env.FORGE_JSON;
  if (v === undefined || v === "" || v === "lines") return "lines";
  if (v === "array") return "array";
  throw new UsageError(`FORGE_JSON: unknown mode '${v.slice(0, 30)}'; expected lines or array`);
}

async function runJq(io: Io, out: Out, expr: string, input: unknown, tty: boolean): Promise<void> {
  const child = spawn("jq", tty ? ["-r", expr] : ["-r", "-c", expr], {
    stdio: ["pipe", "pipe", "pipe"],
    env: io.env as NodeJS.ProcessEnv,
  });
  const spawned = new Promise<void>((resolve, reject) => {
    child.on("spawn", resolve);
    child.on("error", (err: NodeJS.ErrnoException) =>
      reject(err.code === "ENOENT" ? new ForgeError("--jq needs jq on PATH", "E_NO_JQ", 1) : err)
    );
  });
  await spawned;
  // 'close' comes after stdout and stderr have both ended, so errText is whole.
  const closed = once(child, "close");
  let errText = "";
  child.stderr.on("data", (d: Buffer) => (errText += d.toString()));
  child.stdin.on("error", () => undefined);
  child.stdin.end(JSON.stringify(input));
  for await (const chunk of child.stdout) await out.write((chunk as Buffer).toString());
  const [code] = (await closed) as [number | null];
  if (code !== 0) {
    const line = errText.split("\n").find((l) => l.trim() !== "") ?? `exit ${code}`;
    throw new ForgeError(`jq: ${line.replace(/^jq: (error: )?/, "").slice(0, 200)}`, "E_JQ", 1);
  }
}
