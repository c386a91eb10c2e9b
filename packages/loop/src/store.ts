/**
 * The loop store: `.forge/loops/<id>/loop.md` (frontmatter: the state;
 * body: the open round's prompt) and `events.jsonl`, read and checked by
 * the contract's loop files (`loadLoop`, shared with `forge fsck`). A
 * change holds the loop's lock, re-reads under it, appends the events,
 * then rewrites loop.md, each by an atomic rename.
 */
import { type LoadedLoop, loadLoop, loopIds, loopPaths } from "@forge/contract/loop";
import {
  AmbiguousRefError,
  atomicWrite,
  displayPath,
  ForgeError,
  formatFrontmatter,
  MAX_FILE_BYTES,
  NotFoundError,
  type Store,
  UsageError,
} from "@forge/core";
import { sha256 } from "./_util.js";
import { chainEvents, type LoopEvent } from "./events.js";
import { takeLock } from "./lock.js";
import { type LoopState, stateHashOf, stateToData } from "./state.js";

export { type LoadedLoop, loadLoop, loopIds, loopPaths, loopsDir, MAX_EVENTS_BYTES } from "@forge/contract/loop";

/**
 * Resolve a loop ref: a full id or a unique prefix (≥ 4 hex).
 * @throws UsageError (malformed), NotFoundError, AmbiguousRefError
 */
export function resolveLoop(store: Store, ref: string): string {
  if (!/^[0-9a-f-]{4,36}$/.test(ref))
    throw new UsageError(`invalid loop ref '${ref.slice(0, 40)}' (a loop id or a prefix of 4+ hex)`);
  const hits = loopIds(store).filter((id) => id.startsWith(ref));
  if (hits.length === 0) throw new NotFoundError(`no loop '${ref}'`);
  if (hits.length > 1) throw new AmbiguousRefError(`loop prefix '${ref}' matches ${hits.length} loops`);
  return hits[0]!;
}

/**
 * Write a new state: append `events`, then rewrite loop.md (both atomic).
 * The caller holds the lock and passes what it read under it.
 * @returns the state as written (sequence, hashes filled in) and the events with their sequence
 */
export function commitLoop(
  store: Store,
  before: LoadedLoop | null,
  next: LoopState,
  prompt: string,
  events: Array<Record<string, unknown>>
): { state: LoopState; events: LoopEvent[] } {
  const p = loopPaths(store, next.id);
  const last = before
    ? { sequence: before.state.eventSequence, hash: before.state.eventHash }
    : { sequence: 0, hash: "" };
  const chained = chainEvents(last, events);
  const state: LoopState = {
    ...next,
    eventSequence: chained.sequence,
    eventHash: chained.hash,
    promptHash: sha256(prompt),
  };
  state.stateHash = stateHashOf(state);
  const md = formatFrontmatter(stateToData(state), prompt);
  // Validate before write: a loop.md the reader would refuse is never written (nor are its events).
  if (Buffer.byteLength(md) > MAX_FILE_BYTES)
    throw new ForgeError(
      `${displayPath(store, p.md)}: the state would exceed ${MAX_FILE_BYTES / 1024} KiB; nothing written`,
      "E_TOO_BIG",
      1
    );
  atomicWrite(p.events, (before?.eventsText ?? "") + chained.text, before ? {} : { exclusive: true });
  atomicWrite(p.md, md, before ? {} : { exclusive: true });
  return { state, events: chained.events };
}

/**
 * Run `fn` holding the loop's lock, with the loop re-read under it.
 * @param note called with a note when a dead process's lock was broken
 */
export async function withLoop<T>(
  store: Store,
  id: string,
  note: (s: string) => void,
  fn: (l: LoadedLoop) => Promise<T>
): Promise<T> {
  const held = takeLock(loopPaths(store, id).lock, `loop ${id.slice(0, 8)}`);
  try {
    if (held.note) note(held.note);
    return await fn(await loadLoop(store, id));
  } finally {
    held.release();
  }
}
