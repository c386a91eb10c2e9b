import { defineCommand, eachRef, emit, jsonFlags, jsonRequestOf, useColor, type Ctx, type Parsed } from "@forge/cli";
import { mergePr, type MergeResult } from "./merge_pr.js";

/**
 * The human line for stderr (the JSON line is the contract; this is porcelain).
 * @example formatMerge({verdict: "conflict", conflicts: ["a.txt"], …}) // "pull request #2 conflicts with main: a.txt (record 1234abcd)"
 */
export function formatMerge(r: MergeResult, tick = ""): string {
  const pr = `pull request #${r.pr.number}`;
  const rec = r.record ? ` (record ${r.record.slice(0, 8)})` : "";
  switch (r.verdict) {
    case "merged": {
      const issues = r.closedIssues.length ? `; closed ${r.closedIssues.map((i) => (i.number ? `#${i.number}` : i.id.slice(0, 8))).join(" ")}` : "";
      const co = r.checkout === "updated" ? "checkout updated" : `only the ref moved; the checkout is not on ${r.base}`;
      return `${tick}Merged ${pr} into ${r.base} at ${r.commit!.slice(0, 12)} (${co})${issues}${rec}`;
    }
    case "conflict":
      return `${pr} conflicts with ${r.base}: ${r.conflicts.map(shown).join(" ")}${rec}; ${r.base} unchanged`;
    case "ci-failed":
      return `${pr}: CI failed${r.failedStep ? ` at step ${r.failedStep}` : ""}${rec}; ${r.base} unchanged`;
    case "already-merged": {
      const l = r.landed;
      const by = l ? ` by pull request ${l.number ? `#${l.number}` : l.pr.slice(0, 8)} (record ${l.record.slice(0, 8)}, same ${l.by})` : "";
      return `${pr} is already merged${by}; nothing was changed`;
    }
  }
}

/** Every `--json` field of a merge outcome. */
export const MERGE_FIELDS: readonly string[] = [
  "base", "baseRefName", "checkout", "ciRun", "closedIssues", "commit", "conflicts", "createdAt", "failedStep", "id", "landed", "patchId", "patchSha256",
  "pr", "record", "resolved", "verdict",
];

/** The JSON line: keys sorted, like every forge record. */
export function mergeJson(r: MergeResult): Record<string, unknown> {
  const o = r as unknown as Record<string, unknown>;
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
}

export default defineCommand({
  meta: {
    name: "pr", description: "Merge a PR: check, apply in a worktree, CI, advance base",
    help: {
      reads: [[".forge/prs/<id>/patch.diff", "the PR's patch (must match its patchSha256)"], [".forge/merges/", "merge records: a patch already merged is refused"], [".forge/ci/ci.env, .forge/ci/steps/", "the CI run on the merge commit (see forge-ci run --help)"]],
      env: [["FORGE_AUTHOR", "who the record names (default: git's user.name)"]],
      examples: ["forge-merge 4", "forge-merge pr 4 --json verdict,commit", "forge-pr list --label ready --json | forge-merge - --json"],
      notes: ["Exit 0 only for verdict merged; a conflict or red CI writes a record and exits 1, the base unchanged."],
    },
  },
  args: {
    ref: { type: "positional", required: true, valueHint: "pr|-", description: "a PR (number, #number, id or id prefix); - merges the PRs named by JSON lines on stdin, one after another" },
    ...jsonFlags(MERGE_FIELDS),
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const ref = args.ref as string;
    const req = jsonRequestOf(args, MERGE_FIELDS);
    const batch = { failed: 0 };
    const records = eachRef(ctx, ref, batch, async (one) => {
      const r = await mergePr({ cwd: ctx.io.cwd, env: ctx.io.env }, { ref: one });
      const tick = r.verdict === "merged" && useColor(ctx.io) ? "\x1b[32m✓\x1b[0m " : "";
      ctx.io.stderr.write(r.verdict === "merged" ? `${formatMerge(r, tick)}\n` : `${ctx.prog}: ${formatMerge(r)}\n`);
      if (r.verdict !== "merged") batch.failed++;
      return mergeJson(r);
    });
    await emit(ctx.io, ctx.out, records, { json: req, jq: args.jq as string | undefined, single: ref !== "-" });
    return batch.failed ? 1 : 0;
  },
});

/** A name safe on one stderr line: control characters shown as `?`. */
function shown(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.slice(0, 200).replace(/[\x00-\x1f\x7f]/g, "?");
}
