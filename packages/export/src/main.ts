/**
 * forge-export's command: a filter, not a noun with verbs, run by the cli
 * kit's `mainCommand()` (the same strict flags, help, error mapper and
 * back-pressured stdout as every verb). It always reads JSON lines on stdin
 * (`-` is accepted and means the same).
 */
import { openStore, UsageError } from "@forge/core";
import { defineCommand, type Ctx, type FlagsDef, oneLine, type Parsed } from "@forge/cli";
import { isScope } from "@forge/evidence";
import { canonicalJson } from "@forge/kernel";
import { exportRecords } from "./export_records.js";

/** The version every executable reports. */
export const VERSION = "0.1.0";

/** forge-export's flags. */
export const FLAGS: FlagsDef = {
  stdin: {
    type: "positional",
    valueHint: "-",
    description: "records come as JSON lines on stdin (the default; - says so)",
  },
  scope: {
    type: "string",
    valueHint: "scope",
    default: "default",
    description: "the evidence scope the bundles go to (letters, digits, . _ : -)",
  },
  json: { type: "boolean", description: "JSON lines out: always so; accepted like every other verb's --json" },
};

/** Options of one run. */
export interface ExportCliOptions {
  scope: string;
}

/**
 * argv → options.
 * @throws UsageError for a bad scope or an argument other than `-`
 */
export function parseExportOptions(args: Record<string, unknown>): ExportCliOptions {
  if (args.stdin !== undefined && args.stdin !== "-")
    throw new UsageError(`unexpected argument '${String(args.stdin).slice(0, 40)}' (records come on stdin)`);
  const scope = (args.scope as string | undefined) ?? "default";
  if (!isScope(scope)) throw new UsageError(`invalid scope '${scope.slice(0, 40)}' (letters, digits, . _ : -)`);
  return { scope };
}

/**
 * Send every JSON line on stdin through the lane.
 * @returns the exit code: 0, 1 if any record failed
 */
export async function exportRun(ctx: Ctx, opts: ExportCliOptions, now?: () => Date): Promise<number> {
  const { io, out, prog } = ctx;
  const store = openStore({ cwd: io.cwd, env: io.env });
  let failed = 0;
  for await (const r of exportRecords(store, io.stdin as AsyncIterable<Buffer>, {
    scope: opts.scope,
    producer: { name: prog, version: VERSION },
    now,
  })) {
    if ("entry" in r) await out.write(canonicalJson(r.entry) + "\n");
    else if ("note" in r) io.stderr.write(`${prog}: ${oneLine(r.note)}\n`);
    else {
      failed++;
      io.stderr.write(`${prog}: ${oneLine(r.error)}\n`);
    }
    // The last record the input has given so far: its answer goes out now (a lane kept open, forge-pilot's, waits for
    // it).
    if (r.idle) await out.flush();
    if (out.closed) break;
  }
  return failed > 0 ? 1 : 0;
}

export default defineCommand({
  meta: {
    name: "forge-export",
    version: VERSION,
    description: "Send JSON lines on stdin (CI runs, merges, act and loop results) through the evidence lane",
    help: {
      reads: [
        ["stdin", "forge-ci list --json, forge-merge --json, act and loop result lines, evidence bundles"],
        [".forge/evidence/imports/", "the import log (each import idempotent by its batch id)"],
      ],
      examples: [
        "forge-ci list --json | forge-export",
        "forge-merge 4 --json | forge-export --scope release-1.2",
        "forge-ci list --json | forge-export --json > imports.jsonl",
      ],
      notes: [
        "Writes one import-log line per record on stdout; a record that cannot be exported is one stderr line (its " +
          "stdin line), exit 1.",
        "forge-export pack [--json] packs the loose import files into one checked file; no answer changes " +
          "(forge-pilot packs at the end of each run).",
      ],
    },
  },
  args: FLAGS,
  run: ({ args, data: ctx }: { args: Parsed; data: Ctx }) => exportRun(ctx, parseExportOptions(args)),
});
