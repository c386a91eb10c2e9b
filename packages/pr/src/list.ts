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
import { defineCommand, emit, jsonMode, passesFilters, type Ctx, type Parsed } from "@forge/cli";
import { PrListCache, RecordSink, recordText, type PrFilterData } from "./_list_cache.js";
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
  return !e.ref.archived && matchesData(e.data, o, () => isDraftPr(e));
}

/**
 * Whether a live PR's fields (pr.md's, or the record cache's copy of those list reads) pass the filters.
 * @param draft whether it is a draft (default: the cached copy's `isDraft`, derived from its edits when it was kept)
 */
export function matchesData(
  d: Record<string, unknown> | PrFilterData,
  o: ListPrOptions,
  draft: () => boolean = () => d.isDraft === true
): boolean {
  if (o.state === "closed" ? d.state === "open" : o.state !== "all" && d.state !== o.state) return false;
  if (!passesFilters(d as Record<string, unknown>, { labels: o.labels, author: o.author, assignee: o.assignee }))
    return false;
  if (o.base !== undefined && d.baseRefName !== o.base) return false;
  if (o.head !== undefined && d.headRefName !== o.head) return false;
  if (o.draft && !draft()) return false;
  return true;
}

/**
 * The PRs that match, newest first, at most `limit`, as they are made. Walks the ranked order
 * from the newest and reads pr.md files only until `limit` matched (as
 * `forge-issue list` does), then the reviews, comments and patch of each
 * listed PR, as `want` asks. Each unreadable file is reported on stderr
 * (exit 1) without stopping. Without `-S`, comments or the merge check, a
 * PR whose files are unchanged comes from the record cache (_list_cache.ts).
 * The walk stops once the reader has gone (`ctx.out.closed`); a `sort:` qualifier gathers them first.
 * @param lines JSON text of these sorted fields, one record a line, yielded as bytes (the first line alone, then about
 *   4 KiB, up to 128 KiB at a time) instead of records; not with `-S`
 * @param tally counts what could not be read
 */
export async function* listPrs(
  ctx: Ctx,
  opts: ListPrOptions,
  want: Want,
  lines: readonly string[] | undefined,
  tally: { failed: number }
): AsyncGenerator<PrJson | Buffer> {
  const prs = new Prs(ctx.io);
  const store = prs.store;
  // The definitions (and the git call behind `url`) while the order is read.
  const defsP = prs.defs();
  defsP.catch(() => undefined);
  let me: string | undefined;
  const who = async (v: string | undefined): Promise<string | undefined> =>
    v === "@me" ? (me ??= await currentAuthor(ctx.io.env, ctx.io.cwd)) : v;
  const o = { ...opts, author: await who(opts.author), assignee: await who(opts.assignee) };
  const order = await prs.ranked();
  await defsP;
  for (const u of order.errors) {
    tally.failed++;
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
  // A sort needs them all before the first; else each record goes as it is made.
  const sorted: PrJson[] | undefined = q?.sort ? [] : undefined;
  let made = 0;
  // `lines`: JSON text of these sorted fields, one record a line; else records.
  const text = new RecordSink();
  const out = lines && !q ? lines : undefined;
  const whole = out !== undefined && out.join(",") === FULL;
  const count = (): number => made + text.count;
  const cache =
    !q && !want.comments && !want.merge
      ? new PrListCache(store, await prs.defs(), want.reviews && want.stat)
      : undefined;
  const base = cache ? `${(await prs.defs()).baseUrl ?? ""}/pull/` : "";
  let mergeCommit: ((id: string) => string) | undefined;
  let i = order.length - 1;
  try {
    for (; i >= 0 && count() < cap; i--) {
      // The lines made so far go out (the first at once); none are made once the reader has gone.
      yield* text.ready();
      if (ctx.out.closed) return;
      const { ref, createdAt } = order.at(i)!;
      if (ref.archived) continue;
      const key = `${createdAt} ${ref.id}`;
      const hit = cache?.get(key, ref);
      let json: PrJson | undefined;
      if (hit) {
        if (!matchesData(hit.data, o)) continue;
        if (want.mergeCommit) mergeCommit ??= await prs.mergeCommitText();
        const closing = hit.closes.length === 0 ? "[]" : await prs.closingText(hit.closes);
        if (whole) {
          text.cached(hit, i + 1, base + (i + 1), closing, mergeCommit?.(ref.id));
          continue;
        }
        json = JSON.parse(recordText(hit, i + 1, base + (i + 1), closing, mergeCommit?.(ref.id))) as PrJson;
      } else {
        try {
          const e = loadEntityFast(store, PRS, PR, ref) ?? (await loadEntity(store, PRS, PR, ref));
          for (const w of e.warnings) ctx.log.warn(w);
          if (!matches(e, o) || !(await searched(e))) continue;
          json = await prs.json(e, i + 1, q?.sort?.field === "comments" ? { ...want, comments: true } : want);
          cache?.put(key, e, json);
        } catch (err) {
          tally.failed++;
          ctx.log.error(err);
          continue;
        }
      }
      if (out) text.text(JSON.stringify(project(json as unknown as Record<string, unknown>, out)));
      else {
        made++;
        if (sorted) sorted.push(json);
        else yield json;
      }
    }
  } finally {
    cache?.close(i < 0);
  }
  if (sorted)
    yield* sortBySearch(q!, sorted, (r, f) =>
      f === "comments" ? (r.comments?.length ?? 0) : f === "updated" ? r.updatedAt : r.createdAt
    ).slice(0, o.limit);
  yield* text.take();
}

/** The records of `listPrs` (made without `lines`: no bytes). */
async function* recordsOf(made: AsyncGenerator<PrJson | Buffer>): AsyncGenerator<PrJson> {
  for await (const r of made) if (!Buffer.isBuffer(r)) yield r;
}

/** The fields of a full list record, sorted (`--json` without a field list). */
const FULL = [...LIST_DEFAULT_FIELDS].sort().join(",");

/** Only `sorted` fields, in that order (as `emit` keeps them). */
function project(rec: Record<string, unknown>, sorted: readonly string[]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const k of sorted) o[k] = rec[k];
  return o;
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
    // Without a field list, `comments` is left out of list output (gh makes you ask for it).
    const shaped = req && !req.fields ? { fields: [...LIST_DEFAULT_FIELDS] } : req;
    // JSON lines are made here (the record cache's text is written as it is); gh's one array and --jq go through emit.
    const lines =
      shaped?.fields && args.jq === undefined && jsonMode(ctx.io) === "lines" ? [...shaped.fields].sort() : undefined;
    const opts = parseListOptions(args);
    const tally = { failed: 0 };
    const made = listPrs(ctx, opts, wanted(req, false), lines, tally);
    if (lines && opts.search === undefined) {
      for await (const chunk of made) if (Buffer.isBuffer(chunk)) await ctx.out.writeBytes(chunk);
      await ctx.out.flush();
    } else await emit(ctx.io, ctx.out, recordsOf(made), prRender(args, shaped, false));
    return tally.failed ? 1 : 0;
  },
});
