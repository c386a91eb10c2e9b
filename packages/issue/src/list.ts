import {
  cachedIssueFields,
  cachedIssueList,
  currentAuthor,
  displayPath,
  entityOrder,
  ForgeError,
  ISSUE,
  issueFilter,
  issueRecordSearchable,
  ISSUE_FIELDS,
  issueSearchItem,
  issueToJson,
  ISSUES,
  IssueStaging,
  loadComments,
  loadIssueGraph,
  loadEntity,
  loadEntityFast,
  matchSearch,
  parseSearch,
  recordCacheFile,
  searchNeedsComments,
  searchNeedsLinks,
  searchFilter,
  searchSetsState,
  sortBySearch,
  UsageError,
  type EntityRef,
  type IssueGraph,
  type IssueJson,
  type LoadedEntity,
  type SearchQuery,
  type Store,
} from "@forge/core";
import { defineCommand, emit, jsonMode, passesFilters, type Ctx, type Parsed, type RenderOptions } from "@forge/cli";
import {
  Issues,
  issueRender,
  ISSUE_ROW_FIELDS,
  JSON_FLAGS,
  jsonRequest,
  listArg,
  wantsComments,
  wantsLinks,
  withLinks,
} from "./_shared.js";

/** Options of `forge-issue list`. */
export interface ListIssueOptions {
  state: "open" | "closed" | "all";
  labels: string[];
  assignee?: string;
  author?: string;
  milestone?: string;
  search?: string;
  limit: number;
  /** Only ready work: open, no open blocker, no blocked ancestor. */
  ready: boolean;
  /** Add the link fields (blockedBy, blocking, parent, subIssues, subIssuesSummary). */
  links: boolean;
}

/**
 * argv → options.
 * @throws UsageError for a bad --limit
 */
export function parseListOptions(args: Parsed): ListIssueOptions {
  const raw = (args.limit as string | undefined) ?? "30";
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1)
    throw new UsageError(`invalid limit '${raw.slice(0, 20)}' (a positive integer)`);
  return {
    // gh drops its default `open` when the search names a state of its own (`is:closed`, `closed:…`).
    state: ((args.state as string | undefined) ??
      (args.search !== undefined && searchSetsState(parseSearch(args.search as string))
        ? "all"
        : "open")) as ListIssueOptions["state"],
    labels: listArg(args, "label"),
    assignee: args.assignee as string | undefined,
    author: args.author as string | undefined,
    milestone: args.milestone as string | undefined,
    search: args.search as string | undefined,
    limit: Number(raw),
    ready: args.ready === true,
    links: false,
  };
}

/**
 * The issues that match, newest first, at most `limit`. Walks the ranked
 * order from the newest and reads owning files only until `limit` matched;
 * reports each unreadable file it meets on stderr (exit 1) without stopping.
 */
export async function listIssues(
  ctx: Ctx,
  opts: ListIssueOptions,
  withComments: boolean
): Promise<{ records: IssueJson[]; failed: number }> {
  const tally = { failed: 0 };
  const records: IssueJson[] = [];
  for await (const r of streamIssues(ctx, opts, withComments, tally)) records.push(r);
  return { records, failed: tally.failed };
}

/**
 * `listIssues` as a stream: each matching issue is yielded as soon as it is
 * read (so `list | head -1` prints at once and memory stays flat); the
 * unreadable ones are counted in `tally.failed`.
 */
export async function* streamIssues(
  ctx: Ctx,
  opts: ListIssueOptions,
  withComments: boolean,
  tally: { failed: number }
): AsyncGenerator<IssueJson> {
  const issues = new Issues(ctx.io);
  const store = issues.store;
  let me: string | undefined;
  const who = async (v: string | undefined): Promise<string | undefined> =>
    v === "@me" ? (me ??= await currentAuthor(ctx.io.env, ctx.io.cwd)) : v;
  const assignee = await who(opts.assignee);
  const author = await who(opts.author);
  const order = await issues.ranked();
  for (const u of order.errors) {
    tally.failed++;
    ctx.log.error(u.error);
  }
  const q: SearchQuery | undefined = opts.search !== undefined ? parseSearch(opts.search) : undefined;
  const needComments = q !== undefined && searchNeedsComments(q);
  // The links of every issue, when the list looks at them (read once, from every owning file).
  let graph: IssueGraph | undefined;
  if (opts.ready || opts.links || (q !== undefined && searchNeedsLinks(q)))
    graph = await loadIssueGraph(store, order, () => undefined);
  const linksOf = (id: string): { blocked: boolean; blocking: boolean } | undefined =>
    graph && { blocked: graph.blocked(id), blocking: graph.blocking(id).some((b) => b.open) };
  const env = { me: q && opts.search!.includes("@me") ? await who("@me") : undefined };
  const match = async (e: LoadedEntity): Promise<boolean> => {
    const d = e.data;
    if (opts.state !== "all" && d.state !== opts.state) return false;
    if (opts.ready && !graph!.ready(e.ref.id)) return false;
    if (!passesFilters(d, { labels: opts.labels, assignee, author, milestone: opts.milestone })) return false;
    if (q) {
      const comments = needComments ? await loadComments(store, e) : undefined;
      if (!matchSearch(q, issueSearchItem(e, comments, linksOf(e.ref.id)), env)) return false;
    }
    return true;
  };
  // Newest first is the order backwards (an issue's number is its index + 1),
  // and reading stops once `limit` issues matched, as `git log -n` does
  // (unless `sort:` asks for another order: then every match is read first).
  const defs = await issues.defs();
  const linked = (r: IssueJson): IssueJson => (opts.links && graph ? withLinks(r, graph, defs.baseUrl) : r);
  const cap = q?.sort ? Infinity : opts.limit;
  const sorted: IssueJson[] = [];
  let n = 0;
  for (let i = order.length - 1; i >= 0 && n < cap; i--) {
    const ref = order.at(i)!.ref;
    if (ref.archived) continue;
    // Not ready: not read at all (the graph knows; most of a large tracker is blocked or closed).
    if (opts.ready && !graph!.ready(ref.id)) continue;
    const e = await readListed(ctx, store, ref, tally);
    if (!e || !(await match(e))) continue;
    n++;
    if (q?.sort)
      sorted.push(
        linked(
          withComments || q.sort.field === "comments" ? await issues.json(e, i + 1, true) : issueToJson(e, i + 1, defs)
        )
      );
    else yield linked(withComments ? await issues.json(e, i + 1, true) : issueToJson(e, i + 1, defs));
  }
  if (q?.sort) {
    const top = sortBySearch(q, sorted, (r, f) =>
      f === "comments" ? (r.comments?.length ?? 0) : f === "updated" ? r.updatedAt : r.createdAt
    ).slice(0, opts.limit);
    for (const r of top) {
      if (withComments) yield r;
      else {
        const { comments: _, ...rest } = r;
        yield rest as IssueJson;
      }
    }
  }
}

/**
 * A listed issue, read: its warnings told, or undefined when it cannot be read (told and counted in `tally.failed`).
 */
async function readListed(
  ctx: Ctx,
  store: Store,
  ref: EntityRef,
  tally: { failed: number }
): Promise<LoadedEntity | undefined> {
  let e: LoadedEntity;
  try {
    e = loadEntityFast(store, ISSUES, ISSUE, ref) ?? (await loadEntity(store, ISSUES, ISSUE, ref));
  } catch (err) {
    tally.failed++;
    ctx.log.error(err);
    return undefined;
  }
  for (const w of e.warnings) ctx.log.warn(w);
  return e;
}

/**
 * The list from the record cache (core's `cachedIssueList`) as JSON lines
 * of `fields`: the same walk and the same bytes as `emit` of `streamIssues`,
 * but an issue whose file's lstat is unchanged is written from its cached
 * JSON, not read.
 */
async function* cachedLines(
  ctx: Ctx,
  opts: ListIssueOptions,
  fields: string[],
  tally: { failed: number },
  query?: SearchQuery
): AsyncGenerator<Buffer> {
  const issues = new Issues(ctx.io);
  // The definitions (and the git call behind `url`) while the order is read.
  const defsP = issues.defs();
  defsP.catch(() => undefined);
  // Cold (a fresh clone, after a pull), the order reads every new file for its createdAt: each one's record is
  // made then, so the walk below opens no file twice.
  const staged = new IssueStaging(issues.store, defsP);
  const order = await entityOrder(issues.store, ISSUES, ISSUE, { onRead: staged.onRead });
  for (const u of order.errors) {
    tally.failed++;
    ctx.log.error(u.error);
  }
  const defs = await defsP;
  const me = async (v: string | undefined): Promise<string | undefined> =>
    v === "@me" ? await currentAuthor(ctx.io.env, ctx.io.cwd) : v;
  // As `streamIssues` filters, once any filter is set (an empty one alone, as before, filters nothing here).
  const any = opts.labels.length > 0 || !!opts.assignee || !!opts.author || !!opts.milestone;
  const filters = any
    ? issueFilter({
        labels: opts.labels,
        assignee: await me(opts.assignee),
        author: await me(opts.author),
        milestone: opts.milestone,
      })
    : undefined;
  // A search the records answer (the caller checked: `issueRecordSearchable`).
  const match = query
    ? searchFilter(query, { me: opts.search!.includes("@me") ? await me("@me") : undefined }, filters)
    : filters;
  const chunks = cachedIssueList(issues.store, order, defs, {
    state: opts.state,
    limit: opts.limit,
    fields,
    onError: (err) => {
      tally.failed++;
      ctx.log.error(err);
    },
    onWarning: (w) => ctx.log.warn(w),
    closed: () => ctx.out.closed,
    ready: opts.ready,
    match,
    staged,
  });
  yield* chunks;
}

/**
 * JSON lines as `emit` writes them: as they are, or as gh's one array (`FORGE_JSON=array`: `[` the lines joined by
 * commas `]`, `[]` when none).
 */
async function writeLines(ctx: Ctx, chunks: AsyncIterable<Buffer>, array: boolean): Promise<void> {
  let first = true;
  for await (const chunk of chunks) {
    if (array) {
      // Whole lines: each newline becomes the comma after its record, the last one held back.
      for (let k = chunk.indexOf(0x0a); k >= 0; k = chunk.indexOf(0x0a, k + 1)) chunk[k] = 0x2c;
      await ctx.out.write(first ? "[" : ",");
      await ctx.out.writeBytes(chunk.subarray(0, chunk.length - 1));
    } else await ctx.out.writeBytes(chunk);
    first = false;
  }
  if (array) await ctx.out.write(first ? "[]\n" : "]\n");
  await ctx.out.flush();
}

/**
 * A table off a TTY as `emit` writes it (the render's rows joined by tabs) from the cached lines of its columns, a
 * chunk's rows written at once (`emit` awaits a write per row).
 */
async function writeRows(ctx: Ctx, chunks: AsyncIterable<Buffer>, render: RenderOptions<IssueJson>): Promise<void> {
  for await (const records of recordsOf(chunks, ctx)) {
    if (ctx.out.closed) break;
    let text = "";
    for (const r of records) text += `${render.row!(r, false, false).join("\t")}\n`;
    await ctx.out.write(text);
  }
  await ctx.out.flush();
}

/** The records of JSON lines (the cached list's, of the fields asked for), for --jq or a table. */
async function* linesRecords(chunks: AsyncIterable<Buffer>, ctx: Ctx): AsyncGenerator<IssueJson> {
  for await (const records of recordsOf(chunks, ctx)) yield* records;
}

/**
 * Each chunk's records (its whole JSON lines).
 * @throws ForgeError (exit 1) for a line that is not JSON: a record cache made by hand, checksums and all
 */
async function* recordsOf(chunks: AsyncIterable<Buffer>, ctx: Ctx): AsyncGenerator<IssueJson[]> {
  for await (const chunk of chunks) {
    const out: IssueJson[] = [];
    for (let a = 0, b = chunk.indexOf(0x0a); b >= 0; a = b + 1, b = chunk.indexOf(0x0a, a)) {
      try {
        out.push(JSON.parse(chunk.toString("utf8", a, b)) as IssueJson);
      } catch {
        const store = new Issues(ctx.io).store;
        const file = displayPath(store, recordCacheFile(store, ISSUES));
        throw new ForgeError(
          `${file}: a record that is not JSON (delete the file: it is rebuilt)`,
          "E_INVALID_FILE",
          1
        );
      }
    }
    yield out;
  }
}

export default defineCommand({
  meta: {
    name: "list",
    description: "List issues, newest first",
    help: {
      reads: [
        [".forge/issues/<id>/issue.md", "the issue (+ comments/<id>.md)"],
        [".forge/labels.md, .forge/milestones.md", "label colours and milestone titles"],
      ],
      env: [["FORGE_AUTHOR", "what @me means (default: git's forge.login, else user.name)"]],
      examples: [
        "forge-issue list",
        "forge-issue list -s all -l bug -L 100 --json number,title,state",
        'forge-issue list -S "is:open label:bug sort:created-asc"',
        "forge-issue list -s all -L 1000 --html > board.html",
        "forge-issue list --ready --json number,title,blockedBy",
      ],
    },
  },
  args: {
    state: {
      type: "enum",
      alias: "s",
      options: ["open", "closed", "all"],
      default: "open",
      description: "only issues in this state",
    },
    label: {
      type: "string",
      alias: "l",
      multiple: true,
      description: "only issues with every one of these labels (repeatable)",
    },
    assignee: { type: "string", alias: "a", description: "only issues assigned to this login (@me: you)" },
    author: { type: "string", alias: "A", description: "only issues opened by this login" },
    milestone: { type: "string", alias: "m", description: "only issues in this milestone (by title)" },
    search: {
      type: "string",
      alias: "S",
      description: "gh search syntax: is:, author:, label:, created:>…, sort:…; is:blocked, is:blocking, is:ready",
    },
    ready: { type: "boolean", description: "only ready work: open, no open blocker, no blocked parent (bd ready)" },
    limit: { type: "string", alias: "L", description: "max (30)" },
    html: { type: "boolean", description: "a static kanban board as one HTML page" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const opts = parseListOptions(args);
    opts.links = wantsLinks(req);
    const tally = { failed: 0 };
    if (args.html === true) {
      if (req) throw new UsageError("--json and --html: choose one");
      const { issueBoardHtml } = await import("./board_html.js");
      const { records, failed } = await listIssues(ctx, opts, false);
      // Blocked cards from the links (every issue read: a blocker may be outside the filtered list).
      const issues = new Issues(ctx.io);
      const graph = await loadIssueGraph(issues.store, await issues.ranked());
      await ctx.out.write(issueBoardHtml(records, (id) => graph.blockedBy(id).map((n) => n.number)));
      return failed ? 1 : 0;
    }
    // Without a field list, `comments` is left out of list output (as costly as in gh, where it must be asked for).
    const shaped = req && !req.fields ? { fields: ISSUE_FIELDS.filter((f) => f !== "comments") } : req;
    // The record cache answers --label, --assignee, --author and --milestone (`issueFilter`), and a search over
    // what a record holds (`searchFilter`); any other search goes to the files, as does any filter with --ready.
    const query = opts.search !== undefined && !opts.ready ? parseSearch(opts.search) : undefined;
    const recordSearch = query !== undefined && issueRecordSearchable(query);
    const filtered =
      (opts.search !== undefined && !recordSearch) ||
      (opts.ready && (opts.labels.length > 0 || !!opts.assignee || !!opts.author || !!opts.milestone));
    // The record cache answers --json's fields, and the records --jq or a table reads (a table: its columns alone).
    const cached = opts.links
      ? undefined
      : cachedIssueFields(shaped ? (shaped.fields ?? undefined) : ISSUE_ROW_FIELDS, filtered);
    if (cached) {
      const render = issueRender(args, shaped, false);
      // JSON (lines, or gh's one array), unless --jq; else records for jq or a table. A bad FORGE_JSON fails first.
      const array = shaped && args.jq === undefined ? jsonMode(ctx.io) === "array" : undefined;
      // A `sort:` (by created or updated: `issueRecordSearchable`) sorts every match, its key read with the fields.
      const sort = recordSearch ? query!.sort : undefined;
      if (sort) {
        const key = sort.field === "updated" ? "updatedAt" : "createdAt";
        const fields = cached.includes(key) ? cached : [...cached, key].sort();
        const all: IssueJson[] = [];
        const lines = cachedLines(ctx, { ...opts, limit: Infinity }, fields, tally, query);
        for await (const r of linesRecords(lines, ctx)) all.push(r);
        const top = sortBySearch(query!, all, (r, f) => (f === "updated" ? r.updatedAt : r.createdAt));
        await emit(ctx.io, ctx.out, top.slice(0, opts.limit), render);
        return tally.failed ? 1 : 0;
      }
      const lines = cachedLines(ctx, opts, cached, tally, recordSearch ? query : undefined);
      if (array !== undefined) await writeLines(ctx, lines, array);
      else if (shaped || ctx.io.stdout.isTTY === true) await emit(ctx.io, ctx.out, linesRecords(lines, ctx), render);
      else await writeRows(ctx, lines, render);
      return tally.failed ? 1 : 0;
    }
    // Streamed: each record is written as soon as it matches (back-pressure through `emit`).
    await emit(
      ctx.io,
      ctx.out,
      streamIssues(ctx, opts, wantsComments(req, false), tally),
      issueRender(args, shaped, false)
    );
    return tally.failed ? 1 : 0;
  },
});
