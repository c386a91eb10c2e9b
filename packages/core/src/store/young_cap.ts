/**
 * A bound on V8's young generation for a long pass that keeps something of
 * each of many files (a cold list's reading of every issue). While most of
 * what a scavenge finds is still alive, V8 doubles the semi-spaces, from
 * 1 MiB up to 16; the process's peak RSS follows (a cold list at 100,000
 * issues: 135 MiB grown, 94 MiB held). `--max-semi-space-size` is read only
 * at start, and forge-issue's `#!` line can pass no flag;
 * `--semi-space-growth-factor`, read at each growth, can be set on the way
 * (to 1: no growth). The scavenges are then many and small: the same pass
 * at 10,000 issues is ~4 % slower, so callers ask only for big passes.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";

let capped = false;

/** Stop the young generation growing from here on, in this process. */
export function capYoungGeneration(): void {
  if (capped) return;
  setFlagsFromString("--semi-space-growth-factor=1");
  capped = true;
}

/** One semi-space's capacity now, in bytes (for tests). */
export function youngCapacity(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === "new_space")?.space_size ?? 0;
}
