import { currentAuthor, loadEntity, originRepo, PR, PR_FIELDS, PRS, type PrJson } from "@forge/core";
import { defineCommand, emit, jsonRequestOf, type Ctx, type Parsed } from "@forge/cli";
import { JSON_FLAGS, Prs, wanted } from "./_shared.js";

/** gh's `pr status`: the current branch's PR, yours, and those asking for your review. */
export interface PrStatus {
  currentBranch: PrJson | null;
  createdBy: PrJson[];
  needsReview: PrJson[];
}

/**
 * The PR of the current branch (any state; open first), the open PRs the
 * author opened, and the open PRs whose requested reviewers name the author.
 */
export async function prStatus(
  ctx: Ctx,
  want = wanted({ fields: null }, false)
): Promise<PrStatus & { branch: string | null }> {
  const prs = new Prs(ctx.io);
  const me = await currentAuthor(ctx.io.env, ctx.io.cwd);
  const { currentBranch } = await import("./_git.js");
  const branch = await currentBranch(ctx.io.cwd).catch(() => null);
  const order = await prs.ranked();
  const out: PrStatus = { currentBranch: null, createdBy: [], needsReview: [] };
  let currentOpen = false;
  for (let i = order.length - 1; i >= 0; i--) {
    const ref = order.at(i)!.ref;
    if (ref.archived) continue;
    const e = await loadEntity(prs.store, PRS, PR, ref);
    const open = e.data.state === "open";
    const mine = open && e.data.author === me;
    const asked = open && ((e.data.reviewers as string[]) ?? []).includes(me);
    const cur = branch !== null && e.data.headRefName === branch && (!out.currentBranch || (open && !currentOpen));
    if (!mine && !asked && !cur) continue;
    const rec = await prs.json(e, i + 1, want);
    if (cur) {
      out.currentBranch = rec;
      currentOpen = open;
    }
    if (mine) out.createdBy.push(rec);
    if (asked && rec.reviewRequests?.some((r) => r.login === me) !== false) out.needsReview.push(rec);
  }
  return { ...out, branch };
}

function line(p: PrJson): string {
  const t = p.title.length > 50 ? p.title.slice(0, 49) + "…" : p.title;
  let s = `  #${p.number}  ${t} [${p.headRefName}]\n`;
  if (p.state !== "OPEN") return s.trimEnd() + ` - ${p.state === "MERGED" ? "Merged" : "Closed"}\n`;
  const parts: string[] = [];
  const c = p.statusCheckRollup[0];
  if (c)
    parts.push(
      c.conclusion === "SUCCESS"
        ? "✓ Checks passing"
        : c.status !== "COMPLETED"
          ? "- Checks pending"
          : "× All checks failing"
    );
  if (p.reviewDecision === "CHANGES_REQUESTED") parts.push("+ Changes requested");
  else if (p.reviewDecision === "REVIEW_REQUIRED") parts.push("- Review required");
  else if (p.reviewDecision === "APPROVED")
    parts.push(`✓ ${(p.latestReviews ?? []).filter((r) => r.state === "APPROVED").length} Approved`);
  if (parts.length) s += `  ${parts.join(" ")}\n`;
  return s;
}

/** gh's text (the same on and off a TTY, colour aside). */
export function formatPrStatus(s: PrStatus & { branch: string | null }, repo: string): string {
  const section = (title: string, list: PrJson[], none: string): string =>
    `${title}\n${list.length ? list.slice(0, 10).map(line).join("") : `  ${none}\n`}` +
    `${list.length > 10 ? `  And ${list.length - 10} more\n` : ""}\n`;
  const cur = s.currentBranch
    ? line(s.currentBranch)
    : s.branch === null
      ? "  There is no current branch\n"
      : `  There is no pull request associated with [${s.branch}]\n`;
  return (
    `\nRelevant pull requests in ${repo}\n\nCurrent branch\n${cur}\n` +
    section("Created by you", s.createdBy, "You have no open pull requests") +
    section("Requesting a code review from you", s.needsReview, "You have no pull requests to review")
  );
}

export default defineCommand({
  meta: {
    name: "status",
    description: "The current branch's PR, yours, and those awaiting your review",
    help: {
      reads: [[".forge/prs/<id>/pr.md", "the PR (+ patch.diff, reviews/, comments/)"]],
      env: [["FORGE_AUTHOR", "what @me means (default: git's forge.login, else user.name)"]],
      examples: ["forge-pr status", "forge-pr status --json number,title"],
    },
  },
  args: { ...JSON_FLAGS },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequestOf(args, PR_FIELDS);
    const s = await prStatus(
      ctx,
      wanted(
        { fields: req?.fields ? [...req.fields, "reviewRequests", "reviewDecision", "latestReviews"] : null },
        false
      )
    );
    if (req) {
      const pick = (p: PrJson | null): Record<string, unknown> | null =>
        p === null
          ? null
          : req.fields
            ? Object.fromEntries([...req.fields].sort().map((f) => [f, (p as unknown as Record<string, unknown>)[f]]))
            : { ...p };
      const rec = {
        createdBy: s.createdBy.map(pick),
        currentBranch: pick(s.currentBranch),
        needsReview: s.needsReview.map(pick),
      };
      await emit(ctx.io, ctx.out, [rec], { json: { fields: null }, jq: args.jq as string | undefined, single: true });
      return 0;
    }
    const r = await originRepo(ctx.io.cwd);
    const prs = new Prs(ctx.io);
    await ctx.out.write(formatPrStatus(s, r ? `${r.owner}/${r.name}` : (prs.store.root.split("/").pop() ?? "")));
    return 0;
  },
});
