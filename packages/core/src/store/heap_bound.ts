/**
 * A bound on V8's heap for a long pass that keeps something of each of many
 * files (a cold list's reading of every issue).
 * - The young generation: while most of what a scavenge finds is still
 *   alive, V8 doubles it, from 1 MiB up to 32 (as `getHeapSpaceStatistics`
 *   reports it), and the process's peak RSS follows: a cold list at 100,000
 *   issues peaked at 135 MiB grown, 94–96 MiB held at 2 MiB, 102 at 4.
 *   `--max-semi-space-size` is read only at start, and forge-issue's `#!`
 *   line passes no flag; `--semi-space-growth-factor`, read at each growth,
 *   can be set on the way (to 1: no more growth).
 * - The old generation: held young, more is promoted, and V8 lets the old
 *   generation grow to up to 4× what its last full collection kept before the
 *   next one: the walk after the pass (`list --json number,title`) peaked at
 *   118–128 MiB. `--heap-growing-percent=50` (read at each full collection)
 *   bounds that to 1.5×: 88 MiB, the full list's 86–88. With a thread reading
 *   ahead (`PreRead`, ~10 MiB of its own), a cold list at 100,000 issues
 *   peaked at 100–101 MiB at 50 % and 96–97 at 25 %, no slower: 25 %.
 * Held small, the scavenges are many: the pass is a few % slower (4 % at
 * 10,000 issues held at 1 MiB), so callers ask only for big passes.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";

/** The young generation a long pass holds: 2 MiB peaked at 86–88 MiB for a cold list of 100,000 issues. */
export const HELD_YOUNG = 2 << 20;

let bounded = false;

/**
 * Bound the heap, in this process, once the young generation holds `bytes`
 * (new space's size as V8 reports it: 1 MiB at start). Ask now and then
 * during the pass, from its start.
 *
 * A thread's isolate, as it is set up, puts the growth factor back to 2
 * (seen: a filtered list bounded before its thread started was held in no
 * run of 6): a pass with a thread asks once the thread runs, with `again`.
 * @param again set the bound even if it was set before (a thread may have undone it)
 * @returns true once it is bounded (the caller stops asking)
 */
export function boundHeap(bytes: number, again = false): boolean {
  if (bounded && !again) return true;
  if (youngCapacity() < bytes) return false;
  setFlagsFromString("--semi-space-growth-factor=1");
  setFlagsFromString("--heap-growing-percent=25");
  bounded = true;
  return true;
}

/** Set the bound again if it was set: a thread starting since may have undone it (see `boundHeap`). */
export function reboundHeap(): void {
  if (bounded) boundHeap(0, true);
}

/** The young generation's size now, in bytes. */
export function youngCapacity(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === "new_space")?.space_size ?? 0;
}
