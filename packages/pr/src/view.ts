import type { PrJson } from "@forge/core";
import {
  defineCommand,
  emitBatch,
  eachRef,
  type Batch,
  type Ctx,
  type Parsed,
  formatFields,
  commentLines,
} from "@forge/cli";
import {
  ALL,
  JSON_FLAGS,
  jsonRequest,
  prOrCurrent,
  Prs,
  stateWord,
  wanted,
  type Want,
  refWithRepo,
} from "./_shared.js";

/** Options of `forge-pr view`. */
export interface ViewPrOptions {
  /** Absent: the current branch's PR, as gh picks it. */
  ref?: string;
  want: Want;
}

/**
 * A PR as text (gh's raw, non-TTY layout): fields, body, the files the
 * patch changes, then reviews and comments, each after a `--` line.
 */
export function formatPr(p: PrJson, tty: boolean): string {
  const reviewers = (p.reviews ?? []).map((r) => `${r.author.login} (${r.state})`).join(", ");
  const lines = [
    `title:\t${p.title}`,
    `state:\t${stateWord(p)}`,
    `author:\t${p.author.login}`,
    `labels:\t${p.labels.map((l) => l.name).join(", ")}`,
    `assignees:\t${p.assignees.map((a) => a.login).join(", ")}`,
    `reviewers:\t${reviewers}`,
    `milestone:\t${p.milestone?.title ?? ""}`,
    `number:\t${p.number}`,
    `id:\t${p.id}`,
    `base:\t${p.baseRefName}`,
    `head:\t${p.headRefName}`,
    `ci:\t${p.ci ?? ""}`,
    `closes:\t${p.closingIssuesReferences.map((c) => (c.number === null ? c.id : `#${c.number}`)).join(", ")}`,
    `additions:\t${p.additions ?? 0}`,
    `deletions:\t${p.deletions ?? 0}`,
    "--",
    p.body,
    "--",
  ];
  for (const f of p.files ?? []) lines.push(`+${f.additions}\t-${f.deletions}\t${f.path}`);
  for (const r of p.reviews ?? [])
    lines.push(
      "--",
      `review:\t${r.state}`,
      `author:\t${r.author.login}`,
      `submittedAt:\t${r.submittedAt}`,
      "--",
      r.body
    );
  lines.push(...commentLines(p.comments ?? []));
  return formatFields(lines, tty);
}

/**
 * `view --comments` off a TTY, as gh prints it: the reviews (but empty
 * COMMENTED ones) and comments, oldest first, each as `author`,
 * `association`, `edited`, `status` lines, then the body between `--` lines.
 */
export function formatPrComments(p: PrJson): string {
  const items = [
    ...(p.reviews ?? [])
      .filter((r) => r.state !== "COMMENTED" || r.body.trim() !== "")
      .map((r) => ({
        at: r.submittedAt,
        login: r.author.login,
        status: r.state.toLowerCase().replace("_", " "),
        body: r.body,
      })),
    ...(p.comments ?? []).map((c) => ({ at: c.createdAt, login: c.author.login, status: "none", body: c.body })),
  ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return items
    .map((i) => `author:\t${i.login}\nassociation:\tnone\nedited:\tfalse\nstatus:\t${i.status}\n--\n${i.body}\n--\n`)
    .join("");
}

/** Load one PR (or each ref on stdin) with the parts asked for. */
export function viewPrs(ctx: Ctx, opts: ViewPrOptions, batch: Batch): AsyncGenerator<PrJson> {
  const prs = new Prs(ctx.io);
  return eachRef(ctx, opts.ref ?? "", batch, async (ref) => {
    const { pr, number } = await prs.get(await prOrCurrent(prs, opts.ref === undefined ? undefined : ref));
    for (const w of pr.warnings) ctx.log.warn(w);
    return prs.json(pr, number, opts.want);
  });
}

export default defineCommand({
  meta: {
    name: "view",
    description: "Show a pull request: body, files, reviews, comments",
    help: {
      reads: [[".forge/prs/<id>/pr.md", "the PR (+ patch.diff, reviews/, comments/)"]],
      examples: [
        "forge-pr view 4",
        "forge-pr view 4 --comments",
        "forge-pr view --json number,reviewDecision,statusCheckRollup",
      ],
    },
  },
  args: {
    ref: {
      type: "positional",
      valueHint: "ref|-",
      description: "number, id, prefix or - (default: the current branch's PR)",
    },
    comments: { type: "boolean", alias: "c", description: "show the reviews and comments" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    refWithRepo(args);
    const req = jsonRequest(args);
    const ref = args.ref as string | undefined;
    return emitBatch(ctx, (batch) => viewPrs(ctx, { ref, want: req ? wanted(req, true) : ALL }, batch), {
      json: req,
      jq: args.jq as string | undefined,
      single: ref !== "-",
      text: args.comments === true ? formatPrComments : formatPr,
    });
  },
});
