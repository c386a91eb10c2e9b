/**
 * A loop's files as forge-loop reads them: `.forge/loops/<id>/loop.md`
 * (frontmatter: the state; body: the open round's prompt) and
 * `events.jsonl`. Reading checks that both agree (the state's
 * `eventSequence`/`eventHash` are the timeline's head; its `stateHash` and
 * `promptHash` match what is there); any disagreement is
 * `storage_corruption`. A library, so that forge-loop and `forge fsck`
 * check a loop the same way (spec/loop-rounds.md).
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { displayPath, isUuid, parseFrontmatter, readStoreBytes, readStoreFile, type Store } from "@forge/core";
import { sha256, StorageCorruptionError } from "./_util.js";
import { type LoopEvent, parseEvents } from "./events.js";
import { type LoopState, stateFromData, stateHashOf } from "./state.js";

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
