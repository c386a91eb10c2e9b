/**
 * forge-export's shell: a filter, not a noun with verbs, so it has its own
 * small adapter over the cli kit (the same help renderer, strict flags,
 * error mapper and back-pressured stdout as `main()`). It always reads
 * JSON lines on stdin (`-` is accepted and means the same).
 */
import { openStore, UsageError } from "@forge/core";
import { bindPositionals, type FlagsDef, oneLine, Out, parseArgv, processIo, reportError, type Io } from "@forge/cli";
import { isScope } from "@forge/evidence";
import { canonicalJson } from "@forge/kernel";
import { exportRecords } from "./export_records.js";

/** The version every executable reports. */
export const VERSION = "0.1.0";

const PROG = "forge-export";

/** forge-export's flags. */
export const FLAGS: FlagsDef = {
  stdin: { type: "positional", valueHint: "-", description: "JSON lines on stdin (the default)" },
  scope: { type: "string", description: "bundle scope (default: default)" },
};

/** The help text (DESIGN §6: ≤ 8 lines, ≤ 250 bytes). */
export const HELP = [
  "usage: forge-export [-] [--scope <key>]",
  "Send CI runs, merges, act and loop results through the evidence lane",
  "reads JSON lines on stdin; prints one import-log entry per line",
].join("\n") + "\n";

/** Options of one run. */
export interface ExportCliOptions {
  scope: string;
}

/**
 * argv → options.
 * @throws UsageError for a bad scope or an argument other than `-`
 */
export function parseExportOptions(args: Record<string, unknown>): ExportCliOptions {
  if (args.stdin !== undefined && args.stdin !== "-") throw new UsageError(`unexpected argument '${String(args.stdin).slice(0, 40)}' (records come on stdin)`);
  const scope = (args.scope as string | undefined) ?? "default";
  if (!isScope(scope)) throw new UsageError(`invalid scope '${scope.slice(0, 40)}' (letters, digits, . _ : -)`);
  return { scope };
}

/**
 * Run forge-export with `argv`.
 * @returns the exit code: 0, 1 if any record failed, 2 for usage
 */
export async function exportMain(argv: string[], io: Io = processIo(), now?: () => Date): Promise<number> {
  const out = new Out(io.stdout);
  try {
    if (argv[0] === "-v" || argv[0] === "--version") {
      await out.write(`${PROG} ${VERSION}\n`);
      await out.flush();
      return 0;
    }
    const args = parseArgv(argv, FLAGS);
    if (args.help) {
      await out.write(HELP);
      await out.flush();
      return 0;
    }
    bindPositionals(args, FLAGS);
    const opts = parseExportOptions(args);
    const store = openStore({ cwd: io.cwd, env: io.env });
    let failed = 0;
    for await (const r of exportRecords(store, io.stdin as AsyncIterable<Buffer>, { scope: opts.scope, producer: { name: PROG, version: VERSION }, now })) {
      if ("entry" in r) await out.write(canonicalJson(r.entry) + "\n");
      else if ("note" in r) io.stderr.write(`${PROG}: ${oneLine(r.note)}\n`);
      else {
        failed++;
        io.stderr.write(`${PROG}: ${oneLine(r.error)}\n`);
      }
      if (out.closed) break;
    }
    await out.flush();
    return failed > 0 ? 1 : 0;
  } catch (err) {
    await out.flush().catch(() => undefined);
    return reportError(io, PROG, err);
  }
}
