import { ConflictError, patchSha256, replacePatch, type PrJson } from "@forge/core";
import { defineCommand, eachRef, emitBatch, type Batch, type Ctx, type Parsed, REF_ARG } from "@forge/cli";
import { checkBranch, leftOutLine, makePatch } from "./_git.js";
import { confirm, JSON_FLAGS, jsonRequest, note, Prs, wanted, type Want, writtenRender } from "./_shared.js";

/**
 * Remake each PR's patch from its base and head branches (after the head
 * moved): a new `patch.diff` and digest, the old digest appended to
 * `previousPatchSha256` (the old bytes stay in git's history), `ci`
 * cleared. A PR whose patch is unchanged is left alone, with a note.
 * @throws ConflictError (per record) for a merged PR; the errors of `makePatch`
 */
export async function* updatePrs(ctx: Ctx, ref: string, batch: Batch, want: Want): AsyncGenerator<PrJson> {
  const prs = new Prs(ctx.io);
  const cwd = ctx.io.cwd;
  yield* eachRef(ctx, ref, batch, async (r) => {
    const { pr, number } = await prs.get(r);
    if (pr.data.state === "merged")
      throw new ConflictError(`pull request #${number} can't be updated because it was already merged`);
    const base = await checkBranch(cwd, pr.data.baseRefName as string);
    const head = await checkBranch(cwd, pr.data.headRefName as string);
    const patch = await makePatch(cwd, base, head, prs.store.real);
    const left = leftOutLine(patch.left);
    if (left) note(ctx, left);
    if (patchSha256(patch.bytes) === pr.data.patchSha256) {
      const rec = await prs.json(pr, number, want);
      note(ctx, `Pull request #${number} (${rec.title}) is up to date with ${head}`);
      return rec;
    }
    const rec = await prs.json(
      replacePatch(prs.store, pr, { bytes: patch.bytes, baseSha: patch.baseSha, headSha: patch.headSha }),
      number,
      want
    );
    confirm(ctx, "Updated", rec);
    return rec;
  });
}

export default defineCommand({
  meta: {
    name: "update",
    description: "Remake a pull request's patch after its head moved",
    help: {
      reads: [[".forge/prs/<id>/pr.md", "the PR (+ patch.diff, reviews/, comments/)"]],
      examples: ["forge-pr update 4", "forge-pr list --json | forge-pr update -"],
    },
  },
  args: {
    ...REF_ARG,
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    return emitBatch(
      ctx,
      (batch) => updatePrs(ctx, args.ref as string, batch, wanted(req, false)),
      writtenRender(args, req)
    );
  },
});
