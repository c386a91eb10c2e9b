import {
  isDraftPr,
  currentAuthor,
  loadEntity,
  loadEntityFast,
  loadPrComments,
  loadReviews,
  matchSearch,
  parseSearch,
  PR,
  prSearchItem,
  PRS,
  reviewDecision,
  searchNeedsComments,
  searchNeedsReviews,
  searchSetsState,
  sortBySearch,
  UsageError,
  type LoadedEntity,
  type PrJson,
  type SearchEnv,
  type SearchQuery,
} from "@forge/core";
import { defineCommand, emit, passesFilters, type Ctx, type Parsed } from "@forge/cli";
import { JSON_FLAGS, jsonRequest, LIST_DEFAULT_FIELDS, listArg, prRender, Prs, wanted, type Want } from "./_shared.js";

/** Options of `forge-pr list`. */
export interface ListPrOptions {
  /** `closed` includes merged PRs, as in gh. */
  state: "open" | "closed" | "merged" | "all";
  labels: string[];
  author?: string;
  assignee?: string;
  base?: string;
  head?: string;
  search?: string;
  /** `--draft`: only drafts (gh's filter). */
  draft?: boolean;
  limit: number;
}

/**
 * argv → options.
 * @throws UsageError for a bad --limit
 */
export function parseListOptions(args: Parsed): ListPrOptions {
  const raw = (args.limit as string | undefined) ?? "30";
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1)
    throw new UsageError(`invalid limit '${raw.slice(0, 20)}' (a positive integer)`);
  return {
    state: ((args.state as string | undefined) ??
      (args.search !== undefined && searchSetsState(parseSearch(args.search as string))
        ? "all"
        : "open")) as ListPrOptions["state"],
    labels: listArg(args, "label"),
    author: args.author as string | undefined,
    assignee: args.assignee as string | undefined,
    base: args.base as string | undefined,
    head: args.head as string | undefined,
    search: args.search as string | undefined,
    draft: args.draft === true ? true : undefined,
    limit: Number(raw),
  };
}

/** Whether a PR passes the filters (`me` already expanded in author/assignee). */
export function matches(e: LoadedEntity, o: ListPrOptions): boolean {
  const d = e.data;
  if (e.ref.archived) return false;
  if (o.state === "closed" ? d.state === "open" : o.state !== "all" && d.state !== o.state) return false;
  if (!passesFilters(d, { labels: o.labels, author: o.author, assignee: o.assignee })) return false;
  if (o.base !== undefined && d.baseRefName !== o.base) return false;
  if (o.head !== undefined && d.headRefName !== o.head) return false;
  if (o.draft && !isDraftPr(e)) return false;
  return true;
}

/**
 * The PRs that match, newest first, at most `limit`. Walks the ranked order
 * from the newest and reads pr.md files only until `limit` matched (as
 * `forge-issue list` does), then the reviews, comments and patch of each
 * listed PR, as `want` asks. Each unreadable file is reported on stderr
 * (exit 1) without stopping.
 */
export async function listPrs(
  ctx: Ctx,
  opts: ListPrOptions,
  want: Want
): Promise<{ records: PrJson[]; failed: number }> {
  const prs = new Prs(ctx.io);
  const store = prs.store;
  let me: string | undefined;
  const who = async (v: string | undefined): Promise<string | undefined> =>
    v === "@me" ? (me ??= await currentAuthor(ctx.io.env, ctx.io.cwd)) : v;
  const o = { ...opts, author: await who(opts.author), assignee: await who(opts.assignee) };
  const order = await prs.ranked();
  let failed = 0;
  for (const u of order.errors) {
    failed++;
    ctx.log.error(u.error);
  }
  const q: SearchQuery | undefined = o.search !== undefined ? parseSearch(o.search) : undefined;
  const env: SearchEnv = { me: q && o.search!.includes("@me") ? await who("@me") : undefined };
  const searched = async (e: LoadedEntity): Promise<boolean> => {
    if (!q) return true;
    const comments = searchNeedsComments(q) ? await loadPrComments(store, e) : undefined;
    const reviews = searchNeedsReviews(q) ? await loadReviews(store, e) : undefined;
    const sha = /(^|\s)[0-9a-f]{7,40}(\s|$)/.test(o.search!);
    const mergeCommit = sha ? await prs.mergeCommitOf(e) : undefined;
    const parts = {
      comments,
      mergeCommit,
      reviewDecision: reviews && reviewDecision(reviews, (e.data.reviewers as string[]) ?? []),
      reviewed: reviews && reviews.length > 0,
    };
    return matchSearch(q, prSearchItem(e, parts), env);
  };
  const cap = q?.sort ? Infinity : o.limit;
  let records: PrJson[] = [];
  for (let i = order.length - 1; i >= 0 && records.length < cap; i--) {
    const ref = order.at(i)!.ref;
    if (ref.archived) continue;
    try {
      const e = loadEntityFast(store, PRS, PR, ref) ?? (await loadEntity(store, PRS, PR, ref));
      for (const w of e.warnings) ctx.log.warn(w);
      if (matches(e, o) && (await searched(e)))
        records.push(await prs.json(e, i + 1, q?.sort?.field === "comments" ? { ...want, comments: true } : want));
    } catch (err) {
      failed++;
      ctx.log.error(err);
    }
  }
  if (q?.sort)
    records = sortBySearch(q, records, (r, f) =>
      f === "comments" ? (r.comments?.length ?? 0) : f === "updated" ? r.updatedAt : r.createdAt
    ).slice(0, o.limit);
  return { records, failed };
}

export default defineCommand({
  meta: {
    name: "list",
    description: "List pull requests, newest first",
    help: {
      reads: [[".forge/prs/<id>/pr.md", "the PR (+ patch.diff, reviews/, comments/)"]],
      env: [["FORGE_AUTHOR", "what @me means (default: git's forge.login, else user.name)"]],
      examples: [
        "forge-pr list",
        "forge-pr list -s all -B main --json number,title,state",
        "forge-pr list --state open --json | forge-ci run -",
      ],
    },
  },
  args: {
    state: {
      type: "enum",
      alias: "s",
      options: ["open", "closed", "merged", "all"],
      default: "open",
      description: "only PRs in this state",
    },
    label: {
      type: "string",
      alias: "l",
      multiple: true,
      description: "only PRs with every one of these labels (repeatable)",
    },
    author: { type: "string", alias: "A", description: "only PRs opened by this login" },
    assignee: { type: "string", alias: "a", description: "only PRs assigned to this login (@me: you)" },
    base: { type: "string", alias: "B", description: "only PRs into this base branch" },
    head: { type: "string", alias: "H", description: "only PRs from this head branch" },
    search: {
      type: "string",
      alias: "S",
      description: "gh search syntax: is:, author:, review:, status:, head:, a SHA…",
    },
    draft: { type: "boolean", alias: "d", description: "only drafts" },
    limit: { type: "string", alias: "L", description: "max (30)" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const { records, failed } = await listPrs(ctx, parseListOptions(args), wanted(req, false));
    // Without a field list, `comments` is left out of list output (gh makes you ask for it).
    const shaped = req && !req.fields ? { fields: [...LIST_DEFAULT_FIELDS] } : req;
    await emit(ctx.io, ctx.out, records, prRender(args, shaped, false));
    return failed ? 1 : 0;
  },
});
