/**
 * close and reopen: the same walk over refs, a different state change. A
 * merged PR is neither closed nor reopened (gh refuses both).
 */
import {
  addPrComment,
  ConflictError,
  currentAuthor,
  formatTimestamp,
  PR,
  updateEntity,
  type PrJson,
} from "@forge/core";
import { changeStateEach, emitBatch, type Batch, type Ctx, type Parsed } from "@forge/cli";
import { deleteHead } from "./_delete_branch.js";
import { JSON_FLAGS, jsonRequest, Prs, wanted, type Want, writtenRender } from "./_shared.js";

/** Options of `close` / `reopen`. */
export interface StateOptions {
  ref: string;
  comment?: string;
  /** close `-d`: delete the local head branch of each PR closed now. */
  deleteBranch?: boolean;
}

/** Flags shared by close and reopen. */
export const STATE_ARGS = {
  ref: {
    type: "positional",
    required: true,
    valueHint: "ref|-",
    description:
      "a number, #number, id or id prefix (4+ hex); - reads JSON lines on stdin (each record's id or number)",
  },
  comment: { type: "string", alias: "c", description: "add a comment" },
  ...JSON_FLAGS,
} as const;

/**
 * Set each PR's state (the shared noun layer's walk), adding the comment
 * first when asked. A PR already in that state is left as it is, with a
 * note on stderr.
 * @throws ConflictError (per record) for a merged PR
 */
export async function* setPrState(
  ctx: Ctx,
  opts: StateOptions,
  to: "open" | "closed",
  batch: Batch,
  want: Want
): AsyncGenerator<PrJson> {
  const prs = new Prs(ctx.io);
  const author = opts.comment !== undefined ? await currentAuthor(ctx.io.env, ctx.io.cwd) : "";
  const now = formatTimestamp();
  const closed: Array<{ head: string; base: string }> = [];
  const each = changeStateEach(ctx, prs, opts.ref, batch, {
    to,
    verb: to === "closed" ? "Closed" : "Reopened",
    refuse: (pr, number) => {
      if (pr.data.state === "merged") {
        throw new ConflictError(
          `pull request #${number} can't be ${to === "closed" ? "closed" : "reopened"} because it was already merged`
        );
      }
    },
    comment:
      opts.comment === undefined
        ? undefined
        : (pr) => void addPrComment(prs.store, pr, { body: opts.comment!, author, now }),
    apply: (pr) => {
      if (opts.deleteBranch) closed.push({ head: pr.data.headRefName as string, base: pr.data.baseRefName as string });
      return updateEntity(PR, pr, (d) => {
        d.state = to;
        if (to === "closed") d.closedAt = now;
        else delete d.closedAt;
      });
    },
    json: (pr, n) => prs.json(pr, n, want),
  });
  // gh: the branch goes after `Closed pull request …`, only for a PR closed now (not one already closed).
  for await (const rec of each) {
    for (const b of closed.splice(0)) await deleteHead(ctx, b.head, b.base, "Deleted branch");
    yield rec;
  }
}

/** The whole `run` of close/reopen. */
export async function runSetState(ctx: Ctx, args: Parsed, to: "open" | "closed"): Promise<number> {
  const req = jsonRequest(args);
  return emitBatch(
    ctx,
    (batch) =>
      setPrState(
        ctx,
        {
          ref: args.ref as string,
          comment: args.comment as string | undefined,
          deleteBranch: args["delete-branch"] === true,
        },
        to,
        batch,
        wanted(req, false)
      ),
    writtenRender(args, req)
  );
}
