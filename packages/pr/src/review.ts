import {
  addReview,
  currentAuthor,
  ForgeError,
  formatTimestamp,
  UsageError,
  type PrJson,
  type ReviewJson,
} from "@forge/core";
import { defineCommand, emitBatch, eachRef, type Batch, type Ctx, type Parsed, BODY_FLAGS, REF_ARG } from "@forge/cli";
import { confirm, JSON_FLAGS, jsonRequest, Prs, readBody, wanted, type Want, writtenRender } from "./_shared.js";

/** Options of `forge-pr review`. */
export interface ReviewPrOptions {
  ref: string;
  state: ReviewJson["state"];
  body: string;
}

/**
 * argv → options: exactly one of --approve, --request-changes, --comment;
 * a body for the last two (as gh).
 * @throws UsageError
 */
export async function parseReviewOptions(ctx: Ctx, args: Parsed): Promise<ReviewPrOptions> {
  const ref = args.ref as string;
  const picked = (["approve", "request-changes", "comment"] as const).filter((f) => args[f] === true);
  if (picked.length !== 1) throw new UsageError("need exactly one of --approve, --request-changes or --comment");
  const state =
    picked[0] === "approve" ? "APPROVED" : picked[0] === "request-changes" ? "CHANGES_REQUESTED" : "COMMENTED";
  const body = (await readBody(ctx, args, ref === "-")) ?? "";
  if (state !== "APPROVED" && body.trim() === "") throw new UsageError(`--${picked[0]} needs a --body`);
  return { ref, state, body };
}

const VERB: Record<ReviewJson["state"], string> = {
  APPROVED: "Approved",
  CHANGES_REQUESTED: "Requested changes to",
  COMMENTED: "Reviewed",
};

/** Add a review (a new file) to each PR; yield the PRs with their reviews. */
export async function* reviewPrs(ctx: Ctx, opts: ReviewPrOptions, batch: Batch, want: Want): AsyncGenerator<PrJson> {
  const prs = new Prs(ctx.io);
  const author = await currentAuthor(ctx.io.env, ctx.io.cwd);
  yield* eachRef(ctx, opts.ref, batch, async (ref) => {
    const { pr, number } = await prs.get(ref);
    const own = opts.state === "APPROVED" ? "approve" : opts.state === "CHANGES_REQUESTED" ? "request changes on" : "";
    // GitHub refuses both on one's own PR (gh prints the API's words); a comment review is allowed.
    if (own && pr.data.author === author)
      throw new ForgeError(`failed to create review: Can not ${own} your own pull request`, "E_OWN_PR", 1);
    addReview(prs.store, pr, { state: opts.state, body: opts.body, author, now: formatTimestamp() });
    const rec = await prs.json(pr, number, { ...want, reviews: true });
    confirm(ctx, VERB[opts.state], rec);
    return rec;
  });
}

export default defineCommand({
  meta: {
    name: "review",
    description: "Review a pull request",
    help: {
      reads: [[".forge/prs/<id>/pr.md", "the PR (+ patch.diff, reviews/, comments/)"]],
      env: [
        [
          "FORGE_AUTHOR",
          "who it is recorded as (default: git's forge.login, else user.name); also what @me means. " +
            "As on GitHub, one cannot approve or request changes on one's own PR",
        ],
      ],
      examples: [
        "forge-pr review 4 --approve",
        'forge-pr review 4 -r -b "needs a test"',
        "forge-pr review 4 -c -F notes.md",
      ],
    },
  },
  args: {
    ...REF_ARG,
    approve: { type: "boolean", alias: "a", description: "approve the PR" },
    "request-changes": { type: "boolean", alias: "r", description: "request changes (needs a body)" },
    comment: { type: "boolean", alias: "c", description: "a review that only comments (needs a body)" },
    ...BODY_FLAGS,
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const opts = await parseReviewOptions(ctx, args);
    return emitBatch(ctx, (batch) => reviewPrs(ctx, opts, batch, wanted(req, false)), writtenRender(args, req));
  },
});
