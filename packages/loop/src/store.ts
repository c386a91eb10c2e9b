/**
 * The loop store: `.forge/loops/<id>/loop.md` (frontmatter: the state;
 * body: the open round's prompt) and `events.jsonl`. Reading checks that
 * both agree (the state's `eventSequence`/`eventHash` are the timeline's
 * head; its `stateHash` and `promptHash` match what is there); any
 * disagreement is `storage_corruption`. A change holds the loop's lock,
 * re-reads under it, appends the events, then rewrites loop.md, each by an
 * atomic rename.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import {
  AmbiguousRefError,
  atomicWrite,
  displayPath,
  ForgeError,
  formatFrontmatter,
  MAX_FILE_BYTES,
  isUuid,
  NotFoundError,
  parseFrontmatter,
  readStoreBytes,
  readStoreFile,
  type Store,
  UsageError,
} from "@forge/core";
import { sha256, StorageCorruptionError } from "./_util.js";
import { chainEvents, type LoopEvent, parseEvents } from "./events.js";
import { takeLock } from "./lock.js";
import { type LoopState, stateFromData, stateHashOf, stateToData } from "./state.js";

/** Events files above this are refused (bounded reads). */
export const MAX_EVENTS_BYTES = 32 * 1024 * 1024;

/** `.forge/loops/`. */
export function loopsDir(store: Store): string {
  return join(store.dir, "loops");
}

/** The paths of one loop. */
export function loopPaths(store: Store, id: string): { dir: string; md: string; events: string; lock: string } {
  const dir = join(loopsDir(store), id);
  return { dir, md: join(dir, "loop.md"), events: join(dir, "events.jsonl"), lock: join(dir, "loop.lock") };
}

/** A loop as read: state, prompt (loop.md's body), events and the raw events text. */
export interface LoadedLoop {
  state: LoopState;
  prompt: string;
  events: LoopEvent[];
  eventsText: string;
}

/** The ids of every loop folder. */
export function loopIds(store: Store): string[] {
  const dir = loopsDir(store);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter(isUuid).sort();
}

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
 * Read and verify one loop.
 * @throws StorageCorruptionError naming the file and line; NotFoundError
 */
export async function loadLoop(store: Store, id: string): Promise<LoadedLoop> {
  const p = loopPaths(store, id);
  const mdName = displayPath(store, p.md);
  const evName = displayPath(store, p.events);
  const text = readStoreFile(store, p.md);
  let state: LoopState;
  let prompt: string;
  try {
    const fm = await parseFrontmatter(text, mdName);
    state = stateFromData(fm.data);
    prompt = fm.body;
  } catch (err) {
    throw new StorageCorruptionError(mdName, (err as Error).message.replace(`${mdName}: `, ""));
  }
  if (state.id !== id) throw new StorageCorruptionError(mdName, `id ${state.id} is not the folder's`);
  if (stateHashOf(state) !== state.stateHash)
    throw new StorageCorruptionError(mdName, "the state does not match its stateHash (edited)");
  if (sha256(prompt) !== state.promptHash)
    throw new StorageCorruptionError(mdName, "the prompt does not match its promptHash (edited)");
  let eventsText: string;
  try {
    eventsText = readStoreBytes(store, p.events, MAX_EVENTS_BYTES).toString("utf8");
  } catch (err) {
    if ((err as { code?: string }).code === "E_NOT_FOUND") throw new StorageCorruptionError(evName, "missing");
    throw err;
  }
  const parsed = parseEvents(eventsText);
  if (parsed.error !== undefined) throw new StorageCorruptionError(evName, parsed.error);
  const events = parsed.events;
  const head = events[events.length - 1]!;
  if (head.event_sequence !== state.eventSequence || head.hash !== state.eventHash) {
    throw new StorageCorruptionError(
      evName,
      `ends at event ${head.event_sequence} but loop.md is at event ${state.eventSequence} (truncated or not written)`
    );
  }
  return { state, prompt, events, eventsText };
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
