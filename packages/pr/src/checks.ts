import { ForgeError, UsageError } from "@forge/core";
import { defineCommand, emit, jsonFlags, jsonRequestOf, type Ctx, type Parsed } from "@forge/cli";
import { CHECK_FIELDS, checksExit, elapsed, prChecks, type CheckRow } from "./_checks.js";
import { prOrCurrent, Prs, refWithRepo } from "./_shared.js";

/** Options of `forge-pr checks`. */
export interface ChecksOptions {
  ref?: string;
  required: boolean;
  watch: boolean;
  /** Seconds between polls with --watch. */
  interval: number;
  failFast: boolean;
}

/**
 * argv → options (gh's rules for --interval and --fail-fast).
 * @throws UsageError
 */
export function parseChecksOptions(args: Parsed): ChecksOptions {
  const watch = args.watch === true;
  if (args.interval !== undefined && !watch)
    throw new UsageError("cannot use `--interval` flag without `--watch` flag");
  if (args["fail-fast"] === true && !watch)
    throw new UsageError("cannot use `--fail-fast` flag without `--watch` flag");
  const raw = (args.interval as string | undefined) ?? "10";
  if (!/^[0-9]+$/.test(raw)) throw new UsageError(`invalid interval '${raw.slice(0, 20)}' (seconds)`);
  return {
    ref: args.ref as string | undefined,
    required: args.required === true,
    watch,
    interval: Number(raw),
    failFast: args["fail-fast"] === true,
  };
}

/**
 * The checks of a PR (every forge check is required: the steps are the
 * CI). With `watch`, polls until none is pending (or one fails, with failFast).
 * @throws ForgeError when there are no checks (gh: exit 1)
 */
export async function checksOf(ctx: Ctx, o: ChecksOptions): Promise<{ rows: CheckRow[]; number: number }> {
  for (;;) {
    const prs = new Prs(ctx.io);
    const { pr, number } = await prs.get(await prOrCurrent(prs, o.ref));
    const rows = await prChecks(prs.store, pr);
    const branch = pr.data.headRefName as string;
    if (rows.length === 0)
      throw new ForgeError(
        o.required
          ? `no required checks reported on the '${branch}' branch`
          : `no checks reported on the '${branch}' branch`,
        "E_NO_CHECKS",
        1
      );
    const code = checksExit(rows);
    if (!o.watch || code !== 8 || (o.failFast && rows.some((r) => r.bucket === "fail"))) return { rows, number };
    await new Promise((r) => setTimeout(r, o.interval * 1000));
  }
}

/** gh's rows: `NAME\tBUCKET\tELAPSED\tURL\tDESCRIPTION` (a cancelled check prints as fail). */
export function checkRow(c: CheckRow): string[] {
  return [c.name, c.bucket === "cancel" ? "fail" : c.bucket, elapsed(c), c.link, c.description];
}

/** gh's TTY summary above the table. */
export function checksSummary(rows: readonly CheckRow[]): string {
  const n = (b: string): number => rows.filter((r) => r.bucket === b).length;
  const head = n("fail")
    ? "Some checks were not successful"
    : n("pending")
      ? "Some checks are still pending"
      : n("cancel")
        ? "Some checks were cancelled"
        : "All checks were successful";
  return (
    `${head}\n${n("cancel")} cancelled, ${n("fail")} failing, ${n("pass")} successful, ${n("skipping")} ` +
    `skipped, and ${n("pending")} pending checks\n\n`
  );
}

export default defineCommand({
  meta: {
    name: "checks",
    description: "Show a PR's CI checks (exit 1 failing, 8 pending)",
    help: {
      reads: [
        [".forge/prs/<id>/pr.md", "the PR (+ patch.diff, reviews/, comments/)"],
        [".forge/ci/runs/<id>/", "run records and step logs (machine state, gitignored)"],
      ],
      examples: ["forge-pr checks 4", "forge-pr checks 4 --watch --fail-fast", "forge-pr checks --json name,state"],
    },
  },
  args: {
    ref: {
      type: "positional",
      valueHint: "pr",
      description: "number, id or prefix (default: the current branch's PR)",
    },
    required: { type: "boolean", description: "only required checks (every forge step is)" },
    watch: { type: "boolean", description: "wait until no check is pending" },
    interval: { type: "string", alias: "i", description: "seconds between polls with --watch (10)" },
    "fail-fast": { type: "boolean", description: "with --watch, stop at the first failure" },
    ...jsonFlags(CHECK_FIELDS),
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    refWithRepo(args);
    const req = jsonRequestOf(args, CHECK_FIELDS);
    const { rows } = await checksOf(ctx, parseChecksOptions(args));
    if (!req && ctx.io.stdout.isTTY) await ctx.out.write(checksSummary(rows));
    await emit(ctx.io, ctx.out, rows, {
      json: req,
      jq: args.jq as string | undefined,
      row: checkRow,
      header: ["NAME", "STATUS", "ELAPSED", "URL", "DESCRIPTION"],
    });
    // gh: with --json the rows are the answer, exit 0 whatever their states.
    return req ? 0 : checksExit(rows);
  },
});
