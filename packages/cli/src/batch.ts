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
export async function* eachRef<R>(ctx: Ctx, ref: string, batch: Batch, fn: (ref: string) => Promise<R | undefined>): AsyncGenerator<R> {
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
      ctx.io.stderr.write(`${ctx.prog}: ${oneLine(err.message)}\n`);
    }
  }
}

/**
 * The whole `run` of a batch verb: emit every record `records` yields
 * (it counts its failures in the batch it is given) and give the exit
 * code, 1 when any record failed.
 * @example run: ({ args, data: ctx }) => emitBatch(ctx, (batch) => archiveIssues(ctx, ref, batch), render)
 */
export async function emitBatch<R extends object>(ctx: Ctx, records: (batch: Batch) => AsyncIterable<R>, opts: RenderOptions<R>): Promise<number> {
  const batch: Batch = { failed: 0 };
  await emit(ctx.io, ctx.out, records(batch), opts);
  return batch.failed ? 1 : 0;
}

/** The positional every batch verb takes: a ref, or `-` for JSON lines on stdin. */
export const REF_ARG = { ref: { type: "positional", required: true, valueHint: "ref|-" } } as const;
