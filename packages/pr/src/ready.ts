import { currentAuthor, ForgeError, formatTimestamp, isDraftPr, PRS, recordEdit, type PrJson } from "@forge/core";
import { defineCommand, emit, type Ctx, type Parsed } from "@forge/cli";
import { confirm, JSON_FLAGS, jsonRequest, note, prOrCurrent, prRender, Prs, wanted, refWithRepo } from "./_shared.js";

/**
 * gh's `pr ready [--undo]`: mark a draft ready for review, or turn it back
 * into a draft, as an edit record (`edits/<id>.md` with `isDraft`): pr.md is
 * not rewritten. A PR already in that state is left alone with a note.
 * @throws ForgeError for a PR that is not open (gh: only open drafts can be marked ready)
 */
export async function readyPr(
  ctx: Ctx,
  ref: string | undefined,
  undo: boolean,
  want = wanted(null, false)
): Promise<PrJson> {
  const prs = new Prs(ctx.io);
  const { pr, number } = await prs.get(await prOrCurrent(prs, ref));
  const title = pr.data.title as string;
  if (pr.data.state !== "open") {
    throw new ForgeError(
      `Pull request #${number} is closed. Only draft pull requests can be marked as "ready for review"`,
      "E_NOT_OPEN",
      1
    );
  }
  const draft = isDraftPr(pr);
  if (draft === undo) {
    note(ctx, `Pull request #${number} is already "${undo ? "in draft" : "ready for review"}"`);
    return prs.json(pr, number, want);
  }
  // A new edit record, not a rewrite of pr.md: no tracked file of the work tree changes (a `git checkout`
  // goes on as with gh), and two clones that both mark it merge without a conflict (the latest record wins).
  const author = await currentAuthor(ctx.io.env, ctx.io.cwd);
  const after = recordEdit(prs.store, PRS, pr, { author, now: formatTimestamp(), fields: ["isDraft"], isDraft: undo });
  const rec = await prs.json(after, number, want);
  confirm(ctx, undo ? "Converted to draft:" : "Marked ready for review:", { number, title });
  return rec;
}

export default defineCommand({
  meta: {
    name: "ready",
    description: "Mark a draft PR ready for review (--undo: back to draft)",
    help: {
      reads: [[".forge/prs/<id>/pr.md", "the PR (+ patch.diff, reviews/, comments/)"]],
      examples: ["forge-pr ready 4", "forge-pr ready 4 --undo"],
    },
  },
  args: {
    ref: {
      type: "positional",
      valueHint: "pr",
      description: "number, id or prefix (default: the current branch's PR)",
    },
    undo: { type: "boolean", description: "convert back to a draft" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    refWithRepo(args);
    const req = jsonRequest(args);
    const rec = await readyPr(ctx, args.ref as string | undefined, args.undo === true, wanted(req, false));
    await emit(ctx.io, ctx.out, req ? [rec] : [], { ...prRender(args, req, true), row: undefined });
  },
});
