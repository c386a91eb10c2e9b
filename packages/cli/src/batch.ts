/**
 * Refs from argv or from JSON lines on stdin (`-`), and the batch rule:
 * every record that succeeds is emitted, each failure gets one stderr line,
 * and the exit code is 1 if any failed.
 */
import { isForgeError, readJsonLines, refOfRecord } from "@forge/core";
import type { Ctx } from "./main.js";
import { oneLine } from "./main.js";

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
