
import {
  currentAuthor, entityFile, ISSUE, ISSUE_FIELDS, issueSearchItem, issueToJson, ISSUES, loadComments, loadEntity, loadEntityFast, matchSearch, openRecordCache, recordContext,
  parseSearch, searchNeedsComments, searchSetsState, sortBySearch, UsageError, type EntityRef, type IssueJson, type LoadedEntity,
  type SearchQuery, type Store,
} from "@forge/core";
import { defineCommand, emit, passesFilters, type Ctx, type JsonRequest, type Parsed } from "@forge/cli";
import { Issues, issueRender, JSON_FLAGS, jsonRequest, listArg, wantsComments } from "./_shared.js";

/** Options of `forge-issue list`. */
export interface ListIssueOptions {
  state: "open" | "closed" | "all";
  labels: string[];
  assignee?: string;
  author?: string;
  milestone?: string;
  search?: string;
  limit: number;
}

/**
 * argv → options.
 * @throws UsageError for a bad --limit
 */
export function parseListOptions(args: Parsed): ListIssueOptions {
  const raw = (args.limit as string | undefined) ?? "30";
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1) throw new UsageError(`invalid limit '${raw.slice(0, 20)}' (a positive integer)`);
  return {
    // gh drops its default `open` when the search names a state of its own (`is:closed`, `closed:…`).
    state: ((args.state as string | undefined) ?? (args.search !== undefined && searchSetsState(parseSearch(args.search as string)) ? "all" : "open")) as ListIssueOptions["state"],
    labels: listArg(args, "label"),
    assignee: args.assignee as string | undefined,
    author: args.author as string | undefined,
    milestone: args.milestone as string | undefined,
    search: args.search as string | undefined,
    limit: Number(raw),
  };
}

/**
 * The issues that match, newest first, at most `limit`. Walks the ranked
 * order from the newest and reads owning files only until `limit` matched;
 * reports each unreadable file it meets on stderr (exit 1) without stopping.
 */
export async function listIssues(ctx: Ctx, opts: ListIssueOptions, withComments: boolean): Promise<{ records: IssueJson[]; failed: number }> {
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
export async function* streamIssues(ctx: Ctx, opts: ListIssueOptions, withComments: boolean, tally: { failed: number }): AsyncGenerator<IssueJson> {
  const issues = new Issues(ctx.io);
  const store = issues.store;
  let me: string | undefined;
  const who = async (v: string | undefined): Promise<string | undefined> => (v === "@me" ? (me ??= await currentAuthor(ctx.io.env, ctx.io.cwd)) : v);
  const assignee = await who(opts.assignee);
  const author = await who(opts.author);
  const order = await issues.ranked();
  for (const u of order.errors) {
    tally.failed++;
    ctx.log.error(u.error);
  }
  const q: SearchQuery | undefined = opts.search !== undefined ? parseSearch(opts.search) : undefined;
  const needComments = q !== undefined && searchNeedsComments(q);
  const env = { me: q && opts.search!.includes("@me") ? await who("@me") : undefined };
  const match = async (e: LoadedEntity): Promise<boolean> => {
    const d = e.data;
    if (opts.state !== "all" && d.state !== opts.state) return false;
    if (!passesFilters(d, { labels: opts.labels, assignee, author, milestone: opts.milestone })) return false;
    if (q) {
      const comments = needComments ? await loadComments(store, e) : undefined;
      if (!matchSearch(q, issueSearchItem(e, comments), env)) return false;
    }
    return true;
  };
  // Newest first is the order backwards (an issue's number is its index + 1),
  // and reading stops once `limit` issues matched, as `git log -n` does
  // (unless `sort:` asks for another order: then every match is read first).
  const defs = await issues.defs();
  const cap = q?.sort ? Infinity : opts.limit;
  const sorted: IssueJson[] = [];
  let n = 0;
  for (let i = order.length - 1; i >= 0 && n < cap; i--) {
    const ref = order.at(i)!.ref;
    if (ref.archived) continue;
    const e = await readListed(ctx, store, ref, tally);
    if (!e || !(await match(e))) continue;
    n++;
    if (q?.sort) sorted.push(withComments || q.sort.field === "comments" ? await issues.json(e, i + 1, true) : issueToJson(e, i + 1, defs));
    else yield withComments ? await issues.json(e, i + 1, true) : issueToJson(e, i + 1, defs);
  }
  if (q?.sort) {
    const top = sortBySearch(q, sorted, (r, f) => (f === "comments" ? r.comments?.length ?? 0 : f === "updated" ? r.updatedAt : r.createdAt)).slice(0, opts.limit);
    for (const r of top) {
      if (withComments) yield r;
      else {
        const { comments: _, ...rest } = r;
        yield rest as IssueJson;
      }
    }
  }
}

/** A listed issue, read: its warnings told, or undefined when it cannot be read (told and counted in `tally.failed`). */
async function readListed(ctx: Ctx, store: Store, ref: EntityRef, tally: { failed: number }): Promise<LoadedEntity | undefined> {
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
 * What the record cache keeps of an issue: its list record without the
 * fields its place gives (`number`, `url`) or comments, as the JSON text
 * of the fields before `number` and of those after it, joined by U+001F.
 * So a full record is two copies and its number, with no parse.
 */
const BEFORE = ISSUE_FIELDS.filter((f) => f < "number" && f !== "comments");
const AFTER = ISSUE_FIELDS.filter((f) => f > "number" && f !== "url");
const LAYOUT = `${BEFORE.join(",")}|${AFTER.join(",")}`;
const FULL = [...BEFORE, "number", ...AFTER, "url"].join(",");

/**
 * The sorted fields of a list that the record cache can answer: JSON lines
 * (no --jq), no comments, filtered by state alone; else undefined.
 */
function cachedFields(opts: ListIssueOptions, req: JsonRequest | null, jq: unknown): string[] | undefined {
  if (!req?.fields || jq !== undefined || opts.labels.length || opts.assignee || opts.author || opts.milestone || opts.search !== undefined) return undefined;
  const fields = [...req.fields].sort();
  return fields.includes("comments") ? undefined : fields;
}

/** The JSON text of some fields of a record, without the braces (`"a":1,"b":2`). */
function members(json: Record<string, unknown>, fields: readonly string[]): string {
  const o: Record<string, unknown> = {};
  for (const f of fields) o[f] = json[f];
  return JSON.stringify(o).slice(1, -1);
}

/**
 * `list --json` from the record cache (core's record_cache.ts): the same
 * walk and the same bytes as `emit` of `streamIssues`, but an issue whose
 * file's lstat is unchanged is written from its cached JSON, not read.
 */
async function writeCachedList(ctx: Ctx, opts: ListIssueOptions, fields: string[], tally: { failed: number }): Promise<void> {
  const issues = new Issues(ctx.io);
  const store = issues.store;
  // The definitions (and the git call behind `url`) while the order is read.
  const defsP = issues.defs();
  defsP.catch(() => undefined);
  const order = await issues.ranked();
  for (const u of order.errors) {
    tally.failed++;
    ctx.log.error(u.error);
  }
  const defs = await defsP;
  // Any walk may write (a walk cut short by --limit or a closed reader discards what it began: close(false)).
  const cache = openRecordCache(store, ISSUES, { layout: LAYOUT, context: recordContext([[...defs.labels], [...defs.milestones]]), write: true });
  const full = fields.join(",") === FULL;
  // `,"url":"<base>/issues/` (a number has nothing to escape).
  const url = Buffer.from(`,"url":${JSON.stringify(`${defs.baseUrl ?? ""}/issues/`).slice(0, -1)}`);
  const want = opts.state === "all" ? 0 : opts.state === "open" ? 0x4f : 0x43;
  const sink = new Sink(ctx);
  let n = 0;
  let i = order.length - 1;
  try {
    for (; i >= 0 && n < opts.limit && !ctx.out.closed; i--) {
      const { ref, createdAt } = order.at(i)!;
      if (ref.archived) continue;
      const key = `${createdAt} ${ref.id}`;
      let hit = ref.escapes ? undefined : cache.get(key, entityFile(store, ISSUES, ref.id));
      // The payload's two parts (the cache checks its blocks; a line without its separator, or that does not parse, is read from its file).
      const sep = hit ? hit.buf.indexOf(0x1f, hit.start) : -1;
      if (hit && !(sep > hit.start && sep < hit.end)) hit = undefined;
      // Its second part starts with `"state":"OPEN"` or `"state":"CLOSED"`.
      if (hit && want && hit.buf[sep + 10] !== want) continue;
      let json: Record<string, unknown> | undefined;
      if (hit && !full) {
        try {
          json = { ...JSON.parse(`{${hit.buf.toString("utf8", hit.start, sep)},${hit.buf.toString("utf8", sep + 1, hit.end)}}`), number: i + 1, url: `${defs.baseUrl ?? ""}/issues/${i + 1}` };
        } catch {
          hit = undefined;
        }
      }
      let made: string | undefined;
      if (!hit) {
        const e = await readListed(ctx, store, ref, tally);
        if (!e) continue;
        json = issueToJson(e, i + 1, defs) as unknown as Record<string, unknown>;
        made = `${members(json, BEFORE)}\x1f${members(json, AFTER)}`;
        cache.put(key, made, e.warnings.length === 0);
        if (want && json.state !== (want === 0x4f ? "OPEN" : "CLOSED")) continue;
      }
      n++;
      if (!full) sink.text(`{${members(json!, fields)}}\n`);
      else if (hit) sink.record(hit.buf, hit.start, sep, hit.end, i + 1, url);
      else {
        // The record is the payload's two parts around its number, and its url.
        const bytes = Buffer.from(made!);
        sink.record(bytes, 0, bytes.indexOf(0x1f), bytes.length, i + 1, url);
      }
      if (sink.full) await sink.flush();
    }
  } finally {
    cache.close(i < 0);
  }
  await sink.flush();
  await ctx.out.flush();
}

/** Bytes for stdout, written 128 KiB at a time (a 10,000-issue list is 7 MB: 55 writes, not 220). */
class Sink {
  readonly #ctx: Ctx;
  #buf = Buffer.allocUnsafe(1 << 18);
  #len = 0;
  constructor(ctx: Ctx) {
    this.#ctx = ctx;
  }
  get full(): boolean {
    return this.#len >= 1 << 17;
  }
  text(s: string): void {
    this.#room(s.length * 3);
    this.#len += this.#buf.write(s, this.#len, "utf8");
  }
  /**
   * A full record from a payload (`b[start, end)`, its parts split at `sep`):
   * `{` part one `,"number":n,` part two, the url up to its number, n, `"}`.
   * One bounds check, then bytes; the short pieces by hand (a call costs more).
   */
  record(b: Buffer, start: number, sep: number, end: number, n: number, url: Buffer): void {
    this.#room(end - start + url.length + 48);
    const buf = this.#buf;
    let at = this.#len;
    buf[at++] = 0x7b;
    at += b.copy(buf, at, start, sep);
    for (let k = 0; k < NUMBER.length; k++) buf[at++] = NUMBER[k]!;
    at = digits(buf, at, n);
    buf[at++] = 0x2c;
    at += b.copy(buf, at, sep + 1, end);
    at += url.copy(buf, at);
    at = digits(buf, at, n);
    buf[at++] = 0x22;
    buf[at++] = 0x7d;
    buf[at++] = 0x0a;
    this.#len = at;
  }
  #room(n: number): void {
    if (this.#len + n <= this.#buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.#buf.length * 2, this.#len + n));
    this.#buf.copy(next, 0, 0, this.#len);
    this.#buf = next;
  }
  async flush(): Promise<void> {
    if (this.#len === 0) return;
    const chunk = this.#buf.subarray(0, this.#len);
    this.#buf = Buffer.allocUnsafe(1 << 18);
    this.#len = 0;
    await this.#ctx.out.writeBytes(chunk);
  }
}

const NUMBER = Buffer.from(',"number":');

/** Write the decimal digits of a positive integer at `at`; the offset after them. */
function digits(buf: Buffer, at: number, n: number): number {
  let len = 1;
  for (let x = n; x >= 10; x = Math.floor(x / 10)) len++;
  for (let k = at + len - 1, x = n; k >= at; k--, x = Math.floor(x / 10)) buf[k] = 0x30 + (x % 10);
  return at + len;
}


export default defineCommand({
  meta: {
    name: "list", description: "List issues, newest first",
    help: { reads: [[".forge/issues/<id>/issue.md", "the issue (+ comments/<id>.md)"], [".forge/labels.md, .forge/milestones.md", "label colours and milestone titles"]], env: [["FORGE_AUTHOR", "what @me means (default: git's user.name)"]], examples: ["forge-issue list", "forge-issue list -s all -l bug -L 100 --json number,title,state", "forge-issue list -S \"is:open label:bug sort:created-asc\""] },
  },
  args: {
    state: { type: "enum", alias: "s", options: ["open", "closed", "all"], default: "open", description: "only issues in this state" },
    label: { type: "string", alias: "l", multiple: true, description: "only issues with every one of these labels (repeatable)" },
    assignee: { type: "string", alias: "a", description: "only issues assigned to this login (@me: you)" },
    author: { type: "string", alias: "A", description: "only issues opened by this login" },
    milestone: { type: "string", alias: "m", description: "only issues in this milestone (by title)" },
    search: { type: "string", alias: "S", description: "gh search syntax: is:, author:, label:, created:>…, sort:…" },
    limit: { type: "string", alias: "L", description: "max (30)" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const opts = parseListOptions(args);
    const tally = { failed: 0 };
    // Without a field list, `comments` is left out of list output (as costly as in gh, where it must be asked for).
    const shaped = req && !req.fields ? { fields: ISSUE_FIELDS.filter((f) => f !== "comments") } : req;
    const cached = cachedFields(opts, shaped, args.jq);
    if (cached) {
      await writeCachedList(ctx, opts, cached, tally);
      return tally.failed ? 1 : 0;
    }
    // Streamed: each record is written as soon as it matches (back-pressure through `emit`).
    await emit(ctx.io, ctx.out, streamIssues(ctx, opts, wantsComments(req, false), tally), issueRender(args, shaped, false));
    return tally.failed ? 1 : 0;
  },
});
