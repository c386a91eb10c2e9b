/**
 * Send JSON-line records through the evidence lane, one at a time: each
 * record is recognised (CI run, merge record, act result, loop result, or
 * an EvidenceBundle as is), turned into a bundle, exported, transformed and
 * imported. Yields one outcome per non-blank line; a bad record is an error
 * for its line only and writes nothing.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  evidenceImportsDir,
  folderStamp,
  isForgeError,
  isStill,
  readJsonLines,
  stillFromMs,
  type Store,
} from "@forge/core";
import {
  BUNDLE_SCHEMA,
  type EvidenceBundle,
  exportBundle,
  importIds,
  type ImportLogEntry,
  importProjectionBatch,
  type ImportRecord,
  packNames,
  type Producer,
  transformEnvelopeV3,
} from "@forge/evidence";
import { RecordError } from "@forge/contract";
import { actResultBundle } from "./act_result.js";
import { checkActProvenance } from "./provenance.js";
import { ciRunBundle, isCiRun, parseCiRun } from "./ci_run.js";
import { loopResultBundle } from "./loop_result.js";
import { keepLaneView, type LaneLog, laneLog } from "./lane_view.js";
import { isMergeRecord, mergeBundle, parseMergeRecord, unrecordedMerge } from "./merge_record.js";

/** Options of `exportRecords`. */
export interface ExportOptions {
  scope: string;
  producer: Producer;
  now?: () => Date;
}

/**
 * One line's outcome: its import-log entry, a note (not evidence, nothing
 * written) or an error. `idle`: the last line the input has given so far
 * (the caller flushes what it has written: a lane kept open answers each
 * record as it comes).
 */
export type LineOutcome = (
  { line: number; entry: ImportLogEntry } | { line: number; note: string } | { line: number; error: string }
) & { idle?: true };

/** The record kinds forge-export reads. */
export type RecordKind = "ci_run" | "merge" | "act_result" | "loop_result" | "evidence_bundle";

/** Which kind a record is, or null when unknown. */
export function recordKind(v: Record<string, unknown>): RecordKind | null {
  if (v.kind === "act_result" || v.kind === "loop_result" || v.kind === "evidence_bundle") return v.kind;
  if (v.schema_version === BUNDLE_SCHEMA) return "evidence_bundle";
  if (isCiRun(v)) return "ci_run";
  if (isMergeRecord(v)) return "merge";
  return null;
}

/**
 * The bundle of one record, or a note when the record is not evidence.
 * @throws RecordError / InvalidBundleError naming the field
 */
export function bundleOf(v: Record<string, unknown>, scope: string): EvidenceBundle | { skip: string } {
  switch (recordKind(v)) {
    case "ci_run":
      return ciRunBundle(parseCiRun(v), scope);
    case "merge":
      return unrecordedMerge(v) ?? mergeBundle(parseMergeRecord(v), scope);
    case "act_result":
      return actResultBundle(v, scope);
    case "loop_result":
      return loopResultBundle(v, scope);
    case "evidence_bundle": {
      const { kind: _k, ...b } = v;
      return b as unknown as EvidenceBundle;
    }
    default:
      throw new RecordError(
        "kind",
        "unknown record (expected a CI run, merge record, act_result, loop_result or evidence bundle)"
      );
  }
}

/**
 * Send one record through the lane.
 * @throws RecordError, InvalidBundleError, InvalidBatchError (nothing written)
 */
export function exportRecord(
  store: Store,
  v: Record<string, unknown>,
  opts: ExportOptions,
  records?: ImportRecord[]
): ImportLogEntry | { skip: string } {
  const b = bundleOf(v, opts.scope);
  if ("skip" in b) return b;
  if (recordKind(v) === "act_result") checkActProvenance(store, v);
  return importProjectionBatch(store, transformEnvelopeV3(exportBundle(b, opts.producer)), { now: opts.now, records });
}

/**
 * Every line of `input` through the lane, in order.
 * @param input JSON lines (e.g. stdin)
 */
export async function* exportRecords(
  store: Store,
  input: AsyncIterable<Buffer | string>,
  opts: ExportOptions
): AsyncGenerator<LineOutcome> {
  // The log is read once and kept current in memory (a pipe of 100 runs must not re-read it 100 times) —
  // read ahead, before the first record arrives: a lane started before its input (forge-pilot's) reads it
  // while it waits, and the first record only checks that the imports folder has not changed since.
  // Then the scope's fold is compiled too (lane_view.ts).
  let ahead = readAhead(store, opts.scope);
  // node:crypto is loaded on first use (scripts/bundle.mjs): now, while the lane waits, not when its first record
  // hashes its bundle;
  // so is its random source (the first randomBytes, ~4 ms), which names the import's temp file.
  createHash("sha256");
  randomBytes(4);
  // A lane started just after an import (the folder changed within the racy window) reads ahead once the
  // folder has been still long enough, if its first record has not come by then.
  const later = ahead === undefined ? readAheadLater(store, opts.scope, (a) => (ahead = a)) : undefined;
  let lane: LaneLog | undefined;
  // A lane started before its input (forge-pilot's, kept open for a whole run) keeps the view current
  // before it answers the last record it has: the next observation, which starts on that answer, reads it.
  let keeps = false;
  // The lane waited for this line (the last one came as the input's last so far): imports made meanwhile by others are
  // read.
  let waited = false;
  try {
    for await (const l of readJsonLines(input)) {
      clearTimeout(later);
      let out: LineOutcome;
      if (l.error) {
        out = { line: l.line, error: l.error.message };
      } else {
        try {
          if (!lane) {
            // A lane that read ahead reads again, and compiles, when the log changed since (it keeps the view all the
            // same).
            keeps = ahead !== undefined;
            lane = ahead && importsStamp(store) === ahead.stamp ? ahead.lane : laneLog(store, opts.scope, keeps);
          } else if (waited && !knowsEveryImport(store, lane)) {
            lane = laneLog(store, opts.scope, keeps);
          }
          const r = exportRecord(store, l.value, opts, lane.records);
          out = "skip" in r ? { line: l.line, note: `stdin line ${l.line}: ${r.skip}` } : { line: l.line, entry: r };
        } catch (err) {
          // A corrupt import log is the store's problem, not this record's: stop (exit 1, one line).
          if (!isForgeError(err) || err.code === "E_INVALID_FILE") throw err;
          const kind = recordKind(l.value);
          out = {
            line: l.line,
            error: `stdin line ${l.line}: ${kind ? kind.replace("_", " ") + ": " : ""}${(err as Error).message}`,
          };
        }
      }
      if (l.idle && lane && keeps) keepLaneView(store, opts.scope, lane, true);
      waited = l.idle === true;
      yield l.idle ? { ...out, idle: true } : out;
    }
    if (lane) keepLaneView(store, opts.scope, lane);
  } finally {
    clearTimeout(later);
  }
}

/** Whether the lane's log holds every import file there is (none made since by another process). */
function knowsEveryImport(store: Store, lane: LaneLog): boolean {
  // Every import is a loose file first; a pack holds only imports that were (packImports).
  if (!packNames(store).every((n) => lane.packs.has(n))) return false;
  const ids = importIds(store);
  if (ids.length > lane.records.length) return false;
  const known = new Set(lane.records.map((r) => r.batch_id));
  return ids.every((id) => known.has(id));
}

/**
 * A timer that reads the log ahead once the imports folder has been still long enough; undefined when none can help.
 */
function readAheadLater(
  store: Store,
  scope: string,
  done: (ahead: ReturnType<typeof readAhead>) => void
): NodeJS.Timeout | undefined {
  const stamp = folderStamp([evidenceImportsDir(store)]);
  const wait = stamp.value === "" ? -1 : stillFromMs(stamp) - Date.now();
  if (wait <= 0 || wait > 2_500) return undefined;
  const timer = setTimeout(() => done(readAhead(store, scope)), wait);
  timer.unref();
  return timer;
}

/**
 * The import log, read before any record is asked for, with the stamp of
 * the imports folder (inode, mtime) taken before the read. Imports are
 * files created once, so a folder whose stamp still matches holds no new
 * one. undefined when the stamp cannot vouch (the folder changed in the
 * last clock tick or so, as git's "racy clean" rule) or the log cannot be
 * read: the first record reads it then, and reports what is wrong.
 */
function readAhead(store: Store, scope: string): { lane: LaneLog; stamp: string } | undefined {
  const stamp = importsStamp(store);
  if (stamp === undefined) return undefined;
  try {
    return { lane: laneLog(store, scope, true), stamp };
  } catch {
    return undefined;
  }
}

/** The imports folder's stamp; undefined when it changed too recently to vouch for anything (or cannot be read). */
function importsStamp(store: Store): string | undefined {
  const stamp = folderStamp([evidenceImportsDir(store)]);
  return isStill(stamp) ? stamp.value : undefined;
}
