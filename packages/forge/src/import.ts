/**
 * `forge import gh [--json] FILE…`: bring a GitHub repository's issues and
 * pull requests in from files of gh's JSON (`gh issue list --json … -L N`,
 * `gh pr list --json …`, `gh issue view N --json … --comments`) or GitHub's
 * REST shapes (issues, comments, labels). The work is core's `importGh`;
 * here: the files read (capped), one line per entity on stdout, the notes
 * (gh's truncation, what forge leaves out) and conflicts on stderr, exit 1
 * when anything conflicts. `-` reads stdin.
 */
import { randomUUID } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import {
  findStore,
  formatTimestamp,
  importGh,
  InvalidFileError,
  MAX_IMPORT_BYTES,
  printable,
  storeAt,
  UsageError,
  type GhImportLine,
  type GhInput,
} from "@forge/core";
import { type Io, Out } from "@forge/cli";

/** Options of `forge import gh`. */
export interface ImportGhOptions {
  files: string[];
  json: boolean;
}

/** The short help (`-h`). */
export const IMPORT_HELP =
  "usage: forge import gh [--json] <file|->…\n" +
  "Import issues and PRs from gh's --json output (or GitHub REST JSON); conflicts are kept\n";

/**
 * argv → options.
 * @throws UsageError for an unknown source, flag, or no file
 */
export function parseImportOptions(argv: string[]): ImportGhOptions {
  const [source, ...rest] = argv;
  if (source !== "gh") throw new UsageError(`unknown import source '${printable(source ?? "", 40)}' (forge import gh)`);
  const o: ImportGhOptions = { files: [], json: false };
  for (const a of rest) {
    if (a === "--json") o.json = true;
    else if (a.startsWith("-") && a !== "-") throw new UsageError(`unknown flag '${printable(a, 40)}'`);
    else o.files.push(a);
  }
  if (o.files.length === 0) throw new UsageError("no file to import (forge import gh <file|->…)");
  return o;
}

/**
 * Run the import in the store found from `io`.
 * @returns the exit code: 0, or 1 when anything conflicted
 */
export async function runImport(io: Io, o: ImportGhOptions, stdin: () => Promise<string>): Promise<number> {
  const store = storeAt(findStore({ cwd: io.cwd, env: io.env }));
  const inputs: GhInput[] = [];
  for (const f of o.files)
    inputs.push({ file: f === "-" ? "(stdin)" : f, text: f === "-" ? await stdin() : readInput(io.cwd, f) });
  const r = await importGh(store, inputs, { now: formatTimestamp(), recordId: randomUUID() });
  for (const n of r.notes) io.stderr.write(`forge import: ${printable(n, 400)}\n`);
  const conflicts = r.lines.filter((l) => l.result === "conflict");
  for (const c of conflicts)
    io.stderr.write(`forge import: conflict: ${c.kind} ${printable(c.url, 200)}: ${c.reason ?? ""}\n`);
  const out = new Out(io.stdout);
  for (const l of r.lines) await out.write(o.json ? JSON.stringify(l satisfies GhImportLine) + "\n" : row(l));
  await out.flush();
  const n = (k: GhImportLine["result"]): number => r.lines.filter((l) => l.result === k).length;
  io.stderr.write(
    `forge import: ${n("added")} added, ${n("unchanged")} unchanged, ` +
      `${n("conflict")} conflicts, ${n("skipped")} skipped` +
      (r.record ? ` (record: ${r.record})` : "") +
      "\n"
  );
  return conflicts.length > 0 ? 1 : 0;
}

function row(l: GhImportLine): string {
  return `${l.kind}\t${printable(l.url, 200)}\t${l.result}\t${printable(l.reason ?? "", 200)}\n`;
}

/** A file's text, refused past the import cap before it is read. */
function readInput(cwd: string, f: string): string {
  const path = resolve(cwd, f);
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    throw new UsageError(`cannot read '${printable(f, 80)}'`);
  }
  if (size > MAX_IMPORT_BYTES)
    throw new InvalidFileError(printable(f, 80), `larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MiB`);
  return readFileSync(path, "utf8");
}
