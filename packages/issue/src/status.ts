import {
  currentAuthor,
  ISSUE,
  ISSUE_FIELDS,
  issueToJson,
  ISSUES,
  loadEntity,
  originRepo,
  type IssueJson,
} from "@forge/core";
import { defineCommand, emit, jsonRequestOf, type Ctx, type Parsed } from "@forge/cli";
import { Issues, JSON_FLAGS } from "./_shared.js";

/** gh's `issue status` sections: open issues, most recently updated first, 10 each. */
export interface IssueStatus {
  assigned: IssueJson[];
  mentioned: IssueJson[];
  createdBy: IssueJson[];
}

/** Per section: how many gh shows. */
const SHOWN = 10;

/**
 * The open issues assigned to, mentioning (`@me` in title, body or a
 * comment) and opened by the current author.
 */
export async function issueStatus(ctx: Ctx): Promise<IssueStatus & { more: Record<keyof IssueStatus, number> }> {
  const issues = new Issues(ctx.io);
  const me = await currentAuthor(ctx.io.env, ctx.io.cwd);
  const order = await issues.ranked();
  const out: IssueStatus = { assigned: [], mentioned: [], createdBy: [] };
  const defs = await issues.defs();
  for (let i = order.length - 1; i >= 0; i--) {
    const ref = order.at(i)!.ref;
    if (ref.archived) continue;
    const e = await loadEntity(issues.store, ISSUES, ISSUE, ref);
    if (e.data.state !== "open") continue;
    const rec = issueToJson(e, i + 1, defs);
    if ((e.data.assignees as string[]).includes(me)) out.assigned.push(rec);
    if (e.data.author === me) out.createdBy.push(rec);
    const text = `${rec.title}\n${rec.body}`;
    if (text.includes(`@${me}`) || (await issues.json(e, i + 1, true)).comments!.some((c) => c.body.includes(`@${me}`)))
      out.mentioned.push(rec);
  }
  const more = { assigned: 0, mentioned: 0, createdBy: 0 };
  for (const k of Object.keys(out) as Array<keyof IssueStatus>) {
    out[k].sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : b.number - a.number));
    more[k] = Math.max(0, out[k].length - SHOWN);
    out[k] = out[k].slice(0, SHOWN);
  }
  return { ...out, more };
}

/** gh's text: the three sections, rows `  N\tSTATE\tTITLE\tLABELS\tUPDATED`. */
export function formatIssueStatus(s: IssueStatus & { more: Record<keyof IssueStatus, number> }, repo: string): string {
  const section = (title: string, list: IssueJson[], more: number, none: string): string => {
    const rows = list
      .map((i) => `  ${i.number}\t${i.state}\t${i.title}\t${i.labels.map((l) => l.name).join(", ")}\t${i.updatedAt}\n`)
      .join("");
    return `${title}\n${list.length ? rows : `  There are no issues ${none}\n`}${more ? `  And ${more} more\n` : ""}\n`;
  };
  return (
    `\nRelevant issues in ${repo}\n\n` +
    section("Issues assigned to you", s.assigned, s.more.assigned, "assigned to you") +
    section("Issues mentioning you", s.mentioned, s.more.mentioned, "mentioning you") +
    section("Issues opened by you", s.createdBy, s.more.createdBy, "opened by you")
  );
}

/** The `OWNER/REPO` a status header names: origin's, else the repository folder's name. */
export async function repoLabel(root: string): Promise<string> {
  const r = await originRepo(root);
  return r ? `${r.owner}/${r.name}` : (root.split("/").pop() ?? root);
}

export default defineCommand({
  meta: {
    name: "status",
    description: "Open issues assigned to, mentioning and opened by you",
    help: {
      reads: [
        [".forge/issues/<id>/issue.md", "the issue (+ comments/<id>.md)"],
        [".forge/labels.md, .forge/milestones.md", "label colours and milestone titles"],
      ],
      env: [["FORGE_AUTHOR", "what @me means (default: git's forge.login, else user.name)"]],
      examples: ["forge-issue status", "forge-issue status --json"],
    },
  },
  args: { ...JSON_FLAGS },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequestOf(args, ISSUE_FIELDS);
    const s = await issueStatus(ctx);
    if (req) {
      const pick = (i: IssueJson): Record<string, unknown> =>
        req.fields
          ? Object.fromEntries([...req.fields].sort().map((f) => [f, (i as unknown as Record<string, unknown>)[f]]))
          : { ...i };
      const rec = {
        assigned: s.assigned.map(pick),
        createdBy: s.createdBy.map(pick),
        mentioned: s.mentioned.map(pick),
      };
      await emit(ctx.io, ctx.out, [rec], { json: { fields: null }, jq: args.jq as string | undefined, single: true });
      return 0;
    }
    await ctx.out.write(formatIssueStatus(s, await repoLabel(new Issues(ctx.io).store.root)));
    return 0;
  },
});
