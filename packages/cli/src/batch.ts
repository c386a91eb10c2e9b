/**
 * Refs from argv or from JSON lines on stdin (`-`), and the batch rule:
 * every record that succeeds is emitted, each failure gets one stderr line,
 * and the exit code is 1 if any failed.
 */
import { isForgeError, readJsonLines, refOfRecord } from "@forge/core";
import type { Ctx } from "./main.js";
import { oneLine } from "./main.js";
import { emit, type RenderOptions } from "./output.js";

/** The outcome of a batch. */
export interface Batch {
  failed: number;
}

/**
 * Run `fn` for the ref (or for every JSON line on stdin when the ref is
 * `-`), yielding each result. Failures are reported and counted, never
 * thrown, so one bad record does not stop the rest.
 * @param ctx the command context
 * @param ref the positional ref
 * @param batch collects the failure count
 * @param fn does the work for one ref
 */
export async function* eachRef<R>(
  ctx: Ctx,
  ref: string,
  batch: Batch,
  fn: (ref: string) => Promise<R | undefined>
): AsyncGenerator<R> {
  if (ref !== "-") {
    // A single ref: its error is the command's error (exit 1 or 2).
    const r = await fn(ref);
    if (r !== undefined) yield r;
    return;
  }
  for await (const line of readJsonLines(ctx.io.stdin as AsyncIterable<Buffer>)) {
    try {
      if (line.error) throw line.error;
      const r = await fn(refOfRecord(line.value, line.line));
      if (r !== undefined) yield r;
    } catch (err) {
      if (!isForgeError(err)) throw err;
      batch.failed++;
      ctx.io.stderr.write(
        `${ctx.prog}: ${batchMessage(ctx.prog, line.error ? undefined : line.value, line.line, err.message)}\n`
      );
    }
  }
}

/** What a noun's records are called in batch error lines. */
const RECORD_NAMES: Record<string, string> = {
  pr: "PR",
  ci: "PR",
  merge: "PR",
  issue: "issue",
  task: "task",
  milestone: "milestone",
  label: "label",
};

/**
 * The name of the record a batch line is about: `PR #4`, `issue #12`, or
 * the id's first 8 characters when the record has no number, else `stdin
 * line N`.
 * @param prog the program (`forge-ci run`): its noun names the kind
 * @example recordName("forge-ci run", { number: 4 }, 1) // "PR #4"
 */
export function recordName(prog: string, value: Record<string, unknown> | undefined, line: number): string {
  const noun = /^forge-([a-z0-9-]+)/.exec(prog)?.[1] ?? "";
  const kind = RECORD_NAMES[noun] ?? "record";
  if (value && typeof value.number === "number" && Number.isSafeInteger(value.number))
    return `${kind} #${value.number}`;
  if (value && typeof value.id === "string" && value.id !== "") return `${kind} ${value.id.slice(0, 8)}`;
  return `stdin line ${line}`;
}

/**
 * A batch error line's text: the message, led by the record's name unless
 * it already names it (`#4`, or the stdin line).
 */
export function batchMessage(
  prog: string,
  value: Record<string, unknown> | undefined,
  line: number,
  message: string
): string {
  const name = recordName(prog, value, line);
  const tag = name.startsWith("stdin line") ? name : name.slice(name.indexOf(" ") + 1);
  const named = message.includes(tag) && (tag.startsWith("#") ? new RegExp(`${tag}(?![0-9])`).test(message) : true);
  return oneLine(named ? message : `${name}: ${message}`);
}

/**
 * The whole `run` of a batch verb: emit every record `records` yields
 * (it counts its failures in the batch it is given) and give the exit
 * code, 1 when any record failed.
 * @example run: ({ args, data: ctx }) => emitBatch(ctx, (batch) => archiveIssues(ctx, ref, batch), render)
 */
export async function emitBatch<R extends object>(
  ctx: Ctx,
  records: (batch: Batch) => AsyncIterable<R>,
  opts: RenderOptions<R>
): Promise<number> {
  const batch: Batch = { failed: 0 };
  await emit(ctx.io, ctx.out, records(batch), opts);
  return batch.failed ? 1 : 0;
}

/** The positional every batch verb takes: a ref, or `-` for JSON lines on stdin. */
export const REF_ARG = {
  ref: {
    type: "positional",
    required: true,
    valueHint: "ref|-",
    description:
      "a number, #number, id or id prefix (4+ hex); - reads JSON lines on stdin (each record's id or number)",
  },
} as const;
