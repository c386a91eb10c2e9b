/**
 * close and reopen: the same walk over refs, a different state change.
 */
import { addComment, currentAuthor, formatTimestamp, type IssueJson } from "@forge/core";
import { changeStateEach, emitBatch, type Batch, type Ctx, type Parsed } from "@forge/cli";
import { Issues, JSON_FLAGS, jsonRequest, writtenRender } from "./_shared.js";
import { updateIssue, UsageError } from "@forge/core";

/** Options of `close` / `reopen`. */
export interface StateOptions {
  ref: string;
  comment?: string;
  /** gh's `--reason` of a close: stored as `completed` / `not_planned`. */
  reason?: "completed" | "not_planned";
}

/**
 * gh's `--reason completed|"not planned"` (checked case-insensitively; only
 * `not planned` means NOT_PLANNED, as gh maps it).
 * @throws UsageError for another value
 */
export function parseReason(v: string | undefined): StateOptions["reason"] {
  if (v === undefined) return undefined;
  const l = v.toLowerCase();
  if (l !== "completed" && l !== "not planned")
    throw new UsageError("invalid value for '--reason': valid values are {completed|not planned}");
  return l === "not planned" ? "not_planned" : "completed";
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
 * Set each issue's state (the shared noun layer's walk), adding the comment
 * first when asked. An issue already in that state is left as it is, with a
 * note on stderr.
 */
export async function* setIssueState(
  ctx: Ctx,
  opts: StateOptions,
  to: "open" | "closed",
  batch: Batch
): AsyncGenerator<IssueJson> {
  const issues = new Issues(ctx.io);
  const author = opts.comment !== undefined ? await currentAuthor(ctx.io.env, ctx.io.cwd) : "";
  const now = formatTimestamp();
  yield* changeStateEach(ctx, issues, opts.ref, batch, {
    to,
    verb: to === "closed" ? "Closed" : "Reopened",
    comment:
      opts.comment === undefined
        ? undefined
        : (e) => void addComment(issues.store, e, { body: opts.comment!, author, now }),
    apply: (e) =>
      updateIssue(e, (d) => {
        d.state = to;
        if (to === "closed") {
          d.closedAt = now;
          // gh's default: a close without --reason is recorded COMPLETED (GitHub's closeIssue stateReason default).
          d.stateReason = opts.reason ?? "completed";
        } else {
          delete d.closedAt;
          delete d.stateReason;
          d.reopenedAt = now;
        }
      }),
    json: (e, n) => issues.json(e, n, false),
  });
}

/** The whole `run` of close/reopen. */
export async function runSetState(ctx: Ctx, args: Parsed, to: "open" | "closed"): Promise<number> {
  const req = jsonRequest(args);
  const opts = {
    ref: args.ref as string,
    comment: args.comment as string | undefined,
    reason: parseReason(args.reason as string | undefined),
  };
  return emitBatch(ctx, (batch) => setIssueState(ctx, opts, to, batch), writtenRender(args, req));
}
