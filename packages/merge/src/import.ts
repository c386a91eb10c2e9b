/**
 * `forge-merge import <dir|zip>`: bring in a foreign `.forge/`. Every file
 * is validated first (any invalid file: one line, exit 1, nothing
 * written); then each entity is added, found unchanged, or reported as a
 * conflict and left as it is here. The non-conflicting entities are
 * written even when some conflict (exit 1 then): re-running the import
 * after resolving changes nothing that already came in. When anything came
 * in, a record in `merges/imports/` lists it (and the conflicts met); an
 * import that adds nothing writes no record. Evidence imports go through
 * the evidence lane, the only writer of `.forge/evidence/`: checked by it
 * with the rest (a refused one stops the import, nothing written),
 * `unchanged` when their batch is here already, loose or packed (the lane
 * is idempotent by batch id), a conflict when a damaged file here leaves
 * that unknown (named in a warning), else written by it. A pack there brings its
 * records as the loose imports they were.
 */
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import {
  atomicWrite,
  displayPath,
  evidenceImportsDir,
  formatFrontmatter,
  formatTimestamp,
  IMPORT_RECORD,
  importFile,
  mkdirInside,
  openStore,
  printable,
  toFrontmatter,
  validate,
  type Store,
} from "@forge/core";
import { defineCommand, emit, jsonFlags, jsonRequestOf, type Ctx, type Parsed } from "@forge/cli";
import { readForeign } from "./_foreign.js";
import { readIncoming, type Incoming } from "./_incoming.js";
import { applyPlan, planImport, type Planned } from "./_plan.js";

/** Options of `forge-merge import`. */
export interface ImportOptions {
  /** The foreign folder or zip. */
  source: string;
}

/** One line of output: an entity and what happened to it. */
export interface ImportLine {
  kind: string;
  id: string;
  result: "added" | "unchanged" | "conflict" | "skipped";
  reason?: string;
}

/** What an import did. */
export interface ImportResult {
  lines: ImportLine[];
  /** The (first) import record written, if any. */
  record: string | null;
  /** Unknown-field warnings from the foreign files; then one line per damaged evidence file here (`<file>: <why>`). */
  warnings: string[];
}

/**
 * Import a foreign store into the store found from `ctx.cwd`.
 * @throws UsageError for a source that is not a store; InvalidFileError for any
 *   invalid foreign file; ForgeError for a symlink, a bad zip or a cap passed —
 *   in each case before anything is written
 */
export async function importStore(
  ctx: { cwd: string; env: Record<string, string | undefined>; now?: () => string; newId?: () => string },
  opts: ImportOptions
): Promise<ImportResult> {
  const store = openStore({ cwd: ctx.cwd, env: ctx.env });
  const foreign = readForeign(resolve(ctx.cwd, opts.source));
  const { entities, skipped } = await readIncoming(foreign);
  const plan = await planImport(
    store,
    entities.filter((e) => e.kind !== "evidence")
  );
  const damaged: string[] = [];
  const evidence = await planEvidence(
    store,
    entities.filter((e) => e.kind === "evidence"),
    damaged
  );
  // The lane's folder is checked (SEC-02) with the others, before any entity is written.
  if (evidence.some((x) => x.result === "added")) mkdirInside(store, evidenceImportsDir(store));
  await applyPlan(store, plan);
  await applyEvidence(store, evidence);
  plan.push(...evidence);
  const lines: ImportLine[] = plan.map((x) =>
    x.reason
      ? { kind: x.inc.kind, id: x.inc.id, result: x.result, reason: x.reason }
      : { kind: x.inc.kind, id: x.inc.id, result: x.result }
  );
  lines.push(...skipped.map((s): ImportLine => ({ kind: "file", id: s.rel, result: "skipped", reason: s.reason })));
  const added = lines.filter((l) => l.result === "added").map((l) => `${l.kind}/${l.id}`);
  const conflicts = lines.filter((l) => l.result === "conflict").map((l) => `${l.kind}/${l.id}`);
  const records: string[] = [];
  if (added.length > 0) {
    const unchanged = lines.filter((l) => l.result === "unchanged").length;
    const createdAt = (ctx.now ?? formatTimestamp)();
    const parts = recordParts(added, conflicts);
    for (const [i, part] of parts.entries()) {
      const id = (ctx.newId ?? randomUUID)();
      const of = parts.length > 1 ? ` (record ${i + 1} of ${parts.length})` : "";
      const n = part.conflicts.length;
      writeImportRecord(
        store,
        {
          id,
          source: foreign.label,
          createdAt,
          unchanged: i === 0 ? unchanged : undefined,
          added: part.added,
          conflicts: part.conflicts,
        },
        `Imported ${part.added.length} entit${part.added.length === 1 ? "y" : "ies"} from ${foreign.label}${of}; ` +
          `${i === 0 ? unchanged : "see the first record for the"} unchanged; ${n} conflict${n === 1 ? "" : "s"} ` +
          `left as ${n === 1 ? "it was" : "they were"} here.\n`
      );
      lines.push({ kind: "import-record", id, result: "added" });
      records.push(id);
    }
  }
  const record = records[0] ?? null;
  return { lines, record, warnings: [...entities.flatMap((e) => e.warnings), ...damaged] };
}

/** What one import record may list: about 192 KiB of names, well inside the 256 KiB a store file may be (SEC-01). */
export const RECORD_BUDGET = 192 * 1024;

/**
 * Split the names an import record lists into records that each stay
 * within `budget` bytes of names: a big import writes several records
 * (every record still readable by forge), each name in exactly one.
 * @example recordParts(["issue/a"], ["label/b"]) // [{added: ["issue/a"], conflicts: ["label/b"]}]
 */
export function recordParts(
  added: string[],
  conflicts: string[],
  budget = RECORD_BUDGET
): Array<{ added: string[]; conflicts: string[] }> {
  const parts = [{ added: [] as string[], conflicts: [] as string[] }];
  let size = 0;
  const put = (key: "added" | "conflicts", name: string): void => {
    const cost = Buffer.byteLength(name) + 8;
    let last = parts.at(-1)!;
    if (size + cost > budget && last.added.length + last.conflicts.length > 0) {
      parts.push((last = { added: [], conflicts: [] }));
      size = 0;
    }
    last[key].push(name);
    size += cost;
  };
  for (const a of added) put("added", a);
  for (const c of conflicts) put("conflicts", c);
  return parts;
}

// --- internal ---

/**
 * Evidence imports against the lane's log here: `unchanged` when the batch is here already (its loose file, or a
 * record of a pack here), `added` when it is not, and a conflict (nothing written) when a damaged file here leaves it
 * unknown (`batchesHere`); each damaged file is one line in `warnings`.
 */
async function planEvidence(store: Store, entities: Incoming[], warnings: string[]): Promise<Planned[]> {
  if (entities.length === 0) return [];
  const { batchesHere } = await import("@forge/evidence");
  const { states, damaged } = batchesHere(
    store,
    entities.map((inc) => inc.record!.batch_id)
  );
  warnings.push(...damaged);
  return entities.map((inc, i): Planned => {
    const s = states[i]!;
    if (s.state === "unknown") return { inc, result: "conflict", reason: `${s.why} (run forge fsck)` };
    return { inc, result: s.state === "here" ? "unchanged" : "added" };
  });
}

/** Hand each added evidence import to the lane, in order. */
async function applyEvidence(store: Store, planned: Planned[]): Promise<void> {
  const added = planned.filter((x) => x.result === "added");
  if (added.length === 0) return;
  const { importForeignRecord } = await import("@forge/evidence");
  for (const x of added) importForeignRecord(store, x.inc.record!);
}

function writeImportRecord(store: Store, data: Record<string, unknown>, body: string): void {
  const path = importFile(store, data.id as string);
  const v = validate(IMPORT_RECORD, data, displayPath(store, path));
  atomicWrite(path, formatFrontmatter(toFrontmatter(IMPORT_RECORD, v.data), body), { exclusive: true });
}

/** Every `--json` field of an import line. */
export const IMPORT_FIELDS: readonly string[] = ["id", "kind", "reason", "result"];

/** A row for human output: kind, id, result (and the reason of a conflict or skip). */
function importRow(l: ImportLine): string[] {
  return [l.kind, l.id, l.result, l.reason ?? ""];
}

export default defineCommand({
  meta: {
    name: "import",
    description: "Bring in a foreign .forge/ (folder or zip); conflicts are kept",
    help: {
      reads: [
        [
          "<dir|zip>/.forge/",
          "every entity, validated first; CI steps, ci.env, release build steps are skipped (code and settings are " +
            "not imported)",
        ],
      ],
      examples: ["forge-merge import ../other-clone", "forge-merge import store.zip --json kind,id,result"],
      notes: [
        "Exit 1 if any entity conflicts (never overwritten); the rest is still written. A record of what was added: " +
          ".forge/merges/imports/<id>.md.",
      ],
    },
  },
  args: {
    source: {
      type: "positional",
      required: true,
      valueHint: "dir|zip",
      description: "a folder holding .forge/ (or being one), or a zip of either",
    },
    ...jsonFlags(IMPORT_FIELDS),
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequestOf(args, IMPORT_FIELDS);
    const r = await importStore({ cwd: ctx.io.cwd, env: ctx.io.env }, { source: args.source as string });
    for (const w of r.warnings) ctx.io.stderr.write(`${ctx.prog}: ${w}\n`);
    const conflicts = r.lines.filter((l) => l.result === "conflict");
    for (const c of conflicts)
      ctx.io.stderr.write(
        `${ctx.prog}: conflict: ${c.kind} ${printable(c.id, 200)}: ${c.reason} (kept as it is here)\n`
      );
    await emit(ctx.io, ctx.out, r.lines, {
      json: req,
      jq: args.jq as string | undefined,
      row: importRow,
      header: ["KIND", "ID", "RESULT", "NOTE"],
    });
    return conflicts.length > 0 ? 1 : 0;
  },
});
