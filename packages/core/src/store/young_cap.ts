/**
 * A bound on V8's young generation for a long pass that keeps something of
 * each of many files (a cold list's reading of every issue). While most of
 * what a scavenge finds is still alive, V8 doubles the young generation,
 * from 1 MiB up to 32 (as `getHeapSpaceStatistics` reports it), and the
 * process's peak RSS follows: a cold list at 100,000 issues peaked at
 * 135 MiB grown, 94–96 MiB held at 2 MiB, 102 at 4. `--max-semi-space-size`
 * is read only at start, and forge-issue's `#!` line passes no flag;
 * `--semi-space-growth-factor`, read at each growth, can be set on the way
 * (to 1: no more growth). Held small, the scavenges are many: the pass is a
 * few % slower (4 % at 10,000 issues held at 1 MiB), so callers ask only for
 * big passes.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";

let capped = false;

/**
 * Stop the young generation growing, in this process, once it holds `bytes`
 * (new space's size as V8 reports it: 1 MiB at start). Ask now and then
 * during the pass, from its start.
 * @returns true once it is stopped (the caller stops asking)
 */
export function capYoungGeneration(bytes: number): boolean {
  if (capped) return true;
  if (youngCapacity() < bytes) return false;
  setFlagsFromString("--semi-space-growth-factor=1");
  capped = true;
  return true;
}

/** The young generation's size now, in bytes. */
export function youngCapacity(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === "new_space")?.space_size ?? 0;
}
