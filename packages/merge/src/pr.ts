import { defineCommand, eachRef, emit, jsonFlags, jsonRequestOf, useColor, type Ctx, type Parsed } from "@forge/cli";
import { formatMerge, MERGE_FIELDS, mergeJson, mergePr } from "@forge/merging";

export default defineCommand({
  meta: {
    name: "pr",
    description: "Merge a PR: check, apply in a worktree, CI, advance base",
    help: {
      reads: [
        [".forge/prs/<id>/patch.diff", "the PR's patch (must match its patchSha256)"],
        [".forge/merges/", "merge records: a patch already merged is refused"],
        [".forge/ci/ci.env, .forge/ci/steps/", "the CI run on the merge commit (see forge-ci run --help)"],
      ],
      env: [["FORGE_AUTHOR", "who the record names (default: git's forge.login, else user.name)"]],
      examples: [
        "forge-merge 4",
        "forge-merge pr 4 --json verdict,commit",
        "forge-pr list --label ready --json | forge-merge - --json",
      ],
      notes: ["Exit 0 only for verdict merged; a conflict or red CI writes a record and exits 1, the base unchanged."],
    },
  },
  args: {
    ref: {
      type: "positional",
      required: true,
      valueHint: "pr|-",
      description:
        "a PR (number, #number, id or id prefix); - merges the PRs named by JSON lines on stdin, one after another",
    },
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
