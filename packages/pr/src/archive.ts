import { archiveEntity, PRS, type PrJson } from "@forge/core";
import { defineCommand, writeEach, emitBatch, type Batch, type Ctx, type Parsed, REF_ARG } from "@forge/cli";
import { JSON_FLAGS, jsonRequest, Prs, wanted, type Want, writtenRender } from "./_shared.js";

/**
 * Move each PR's folder (pr.md, patch.diff, reviews, comments) to
 * `.forge/archive/prs/`. Nothing is deleted and no number changes.
 */
export async function* archivePrs(ctx: Ctx, ref: string, batch: Batch, want: Want): AsyncGenerator<PrJson> {
  const prs = new Prs(ctx.io);
  yield* writeEach(ctx, prs, ref, batch, "Archived", (pr, number) =>
    prs.json(archiveEntity(prs.store, PRS, pr), number, want)
  );
}

export default defineCommand({
  meta: {
    name: "archive",
    description: "Archive pull requests (moved, never deleted)",
    help: {
      reads: [[".forge/prs/<id>/pr.md", "the PR (+ patch.diff, reviews/, comments/)"]],
      examples: ["forge-pr archive 4", "forge-pr list -s merged --json | forge-pr archive -"],
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
      (batch) => archivePrs(ctx, args.ref as string, batch, wanted(req, false)),
      writtenRender(args, req)
    );
  },
});
