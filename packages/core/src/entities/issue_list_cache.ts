/**
 * `forge-issue list` from the record cache (record_cache.ts): the same
 * walk and the same bytes as the verb's general path (newest first,
 * archived skipped, stopping once `limit` matched), but an issue whose
 * file's lstat is unchanged is written from its cached JSON, not read: a
 * full record copied byte for byte around its number, a field list (a
 * table's columns too) the members asked for (record_members.ts), neither
 * parsed.
 * Benchmarked: 10,000 issues, `list --json` ≤ 300 ms (tools/bench.ts).
 */
import { isAscii } from "node:buffer";
import { closeSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { FIRST_CHUNK, nextChunk } from "../jsonl/chunk_size.js";
import { cacheTemp, dropCacheTemp, writeAll } from "../store/cache_file.js";
import { boundHeap, HELD_YOUNG } from "../store/heap_bound.js";
import { folderStamp, type StampedStat } from "../store/stamp.js";
import { cacheDir, ISSUES, entityFile, statStore, type Store } from "../store/store.js";
import type { EntityRef } from "../store/entities_dir.js";
import { absentFolders, activityDirs, withScannedActivity } from "./activity.js";
import { ISSUE_FIELDS, issueToJson, type IssueContext } from "./issue.js";
import { IssueGraph, type LinkNode } from "./issue_links.js";
import { entityOfFrontmatter, loadEntity, loadEntityFast, type LoadedEntity } from "./load.js";
import { dropOrder, staleRank, type Order, type OrderOptions } from "./order.js";
import { NotFoundError } from "../errors.js";
import { handOverAfter, PRESTAT_AT, PreStat } from "./prestat.js";
import { MemberPicker } from "./record_members.js";
import {
  knownFile,
  openRecordCache,
  recordCacheFile,
  recordContext,
  type KnownFile,
  type RecordHit,
} from "./record_cache.js";
import { ISSUE } from "./schema.js";
import { issueRecordSearchItem } from "../search/items.js";
import { matchSearch, type SearchEnv, type SearchItem } from "../search/match.js";
import type { SearchQuery } from "../search/query.js";
import { foldedMember, foldedName, foldedString, sameName, type FoldedName } from "../search/fold.js";

/** What a cached list asks for, and where it tells what it meets. */
export interface CachedIssueListOptions {
  state: "open" | "closed" | "all";
  limit: number;
  /** The JSON fields, sorted; never `comments` (see `cachedIssueFields`). */
  fields: readonly string[];
  /** Told of each issue that cannot be read (it is skipped). */
  onError: (err: unknown) => void;
  /** Told of each warning of an issue read from its file. */
  onWarning: (warning: string) => void;
  /** Whether the reader has gone: the walk stops. */
  closed: () => boolean;
  /** Only ready work (open, no open blocker, no blocked ancestor: `IssueGraph.ready`). */
  ready?: boolean;
  /**
   * Only the records this accepts (the list's --label, --assignee, --author, --milestone, over the record's
   * JSON: `issueFilter`); not with `ready`.
   */
  match?: RecordFilter;
  /** The records a cold order pass made as it read the files (`IssueStaging`): those files are not read again. */
  staged?: IssueStaging;
  /**
   * When a walk hands lstats over to another thread (default `PRESTAT_AT`); `settle`: the walk waits for the
   * thread's end (tests: it never does otherwise).
   */
  ahead?: { after: number; left: number; settle?: boolean };
}

/** The list filters a cached list answers (`cachedIssueList`'s `match`): as `passesFilters` has them. */
export interface IssueFilters {
  labels: readonly string[];
  assignee?: string;
  author?: string;
  milestone?: string;
}

/**
 * A filter over a record's JSON, and `needles`: byte strings its cached
 * payload must hold for the filter to accept it (a record missing one is
 * passed over unparsed). Each is a member as JSON writes it, quotes
 * unescaped: inside a JSON string every quote is escaped, so only the
 * record's own structure can hold one. A payload that holds them all may
 * still be refused (a login that is the author's, not an assignee's; the
 * issue's `"title"`, not its milestone's): the filter decides.
 */
export type RecordFilter = ((record: Record<string, unknown>) => boolean) & {
  readonly needles: readonly Buffer[];
  /**
   * The labels looked for in the record's labels only (`"labels":[` to the end of its first part, where the milestone
   * after them holds no `"name"`), ignoring case: a label filter's, not the whole payload's ~800 bytes.
   */
  readonly labels?: readonly LabelNeedle[];
  /**
   * Lowercase ASCII words an all-ASCII payload must hold, ignoring case (a search's plain words: in the title or
   * body, which the payload holds as they are); a payload with any other byte is parsed.
   */
  readonly words?: readonly string[];
  /**
   * Whether the filter reads only what the owning file says (not `updatedAt`, which its record folders move): a
   * record it refuses needs no folder stamp.
   */
  readonly fileOnly?: boolean;
  /**
   * The filter's answer from the bytes of a cached payload that holds every needle, without parsing the record:
   * its first part `[start, sep)`, its second `[sep + 1, end)`; undefined when the bytes cannot tell (it is parsed).
   */
  readonly decide?: (buf: Buffer, start: number, sep: number, end: number) => boolean | undefined;
};

/**
 * A search (`-S`) the records answer (`issueRecordSearchable`) as a filter over
 * them, with `extra` (the list's other filters) as well.
 */
export function searchFilter(q: SearchQuery, env: SearchEnv, extra?: RecordFilter): RecordFilter {
  const words = q.words.filter(plainWord);
  // Words, and where they look (`in:`), read only the title and the body: the two strings are taken from the bytes
  // and matched as the record's would be, the rest of it unparsed (with a list filter the bytes decide too).
  const listed = extra?.decide;
  const textOnly = (!extra || listed !== undefined) && q.qualifiers.every((x) => x.key === "in");
  const raw = textOnly ? rawTextSearch(q) : undefined;
  return Object.assign(
    (r: Record<string, unknown>) => (!extra || extra(r)) && matchSearch(q, issueRecordSearchItem(r), env),
    {
      needles: extra?.needles ?? [],
      labels: extra?.labels,
      // None when the bytes decide the words (`raw`), in the title and body alone.
      words: raw ? [] : words,
      // Every qualifier a record answers is its file's but `updated:`.
      fileOnly: (!extra || extra.fileOnly === true) && !q.qualifiers.some((x) => x.key === "updated"),
      decide: textOnly
        ? (b: Buffer, start: number, sep: number, end: number) => {
            const passes = listed ? listed(b, start, sep, end) : true;
            return passes === true ? (raw?.(b, start, sep, end) ?? byText(q, env, b, start, sep, end)) : passes;
          }
        : undefined,
    }
  );
}

const BODY = Buffer.from('"body":"');
const TITLE = Buffer.from('"title":"');

/**
 * A text-only search (`searchFilter`) over a payload's title and body as
 * their JSON text is, where both are ASCII: what `matchSearch` answers, with
 * no string parsed per record. A word of plain ASCII (no quote, backslash or
 * control) is in the string where it is in its text at a place no escape
 * covers, ignoring case. Undefined for any other word or text (`byText`).
 */
export function rawTextSearch(
  q: SearchQuery
): ((b: Buffer, start: number, sep: number, end: number) => boolean | undefined) | undefined {
  if (!q.words.every(plainWord) || !q.notWords.every(plainWord)) return undefined;
  // As `matchSearch` has them: a negated qualifier (only `in:` here) holds for no record; un-negated `in:`s say where
  // the words look (`in:comments`: a record holds none).
  const refused = q.qualifiers.some((x) => x.negated);
  const where = q.qualifiers.flatMap((x) => x.value.toLowerCase().split(","));
  const inTitle = where.length === 0 || where.includes("title");
  const inBody = where.length === 0 || where.includes("body");
  const { words, notWords } = q;
  // A word holds no newline: found in the title or in the body is found in matchSearch's `title\nbody`.
  const holds = (title: string, body: string, w: string): boolean =>
    (inTitle && holdsText(title, w)) || (inBody && holdsText(body, w));
  return (b, start, sep, end) => {
    // The body is in the record's first part (before `number`), the title in its second (see `byText`).
    const body = rawText(b, start, sep, BODY);
    if (body === undefined) return undefined;
    const title = rawText(b, sep + 1, end, TITLE);
    if (title === undefined) return undefined;
    if (refused) return false;
    for (const w of words) if (!holds(title, body, w)) return false;
    for (const w of notWords) if (holds(title, body, w)) return false;
    return true;
  };
}

/** A word of printable ASCII with no quote or backslash: one a payload's JSON text holds as it is. */
function plainWord(w: string): boolean {
  return /^[\x20-\x7e]+$/.test(w) && !/["\\]/.test(w);
}

/** A byte past ASCII. */
const NOT_ASCII = /[^\x00-\x7f]/;

/**
 * The JSON text of the string member `key` in `b[from, to)`, between its quotes and lowercased, when it is all ASCII;
 * else undefined. Inside a JSON string every quote is escaped (as `memberString` finds its end).
 */
function rawText(b: Buffer, from: number, to: number, key: Buffer): string | undefined {
  const at = b.indexOf(key, from);
  if (at < 0 || at + key.length > to) return undefined;
  const open = at + key.length;
  for (let q = b.indexOf(0x22, open); q >= 0 && q < to; q = b.indexOf(0x22, q + 1)) {
    let k = q - 1;
    while (b[k] === 0x5c) k--;
    if ((q - 1 - k) % 2 !== 0) continue;
    const s = b.toString("latin1", open, q);
    return NOT_ASCII.test(s) ? undefined : s.toLowerCase();
  }
  return undefined;
}

/** Whether a string's lowercased ASCII JSON text `s` holds the plain lowercase word `w` where no escape covers it. */
function holdsText(s: string, w: string): boolean {
  for (let p = s.indexOf(w); p >= 0; p = s.indexOf(w, p + 1)) {
    // An escape that covers `p` begins at the last backslash before it (`w` holds none), within `\uXXXX`'s reach, and
    // that backslash begins one when the run of backslashes it ends is odd (else it ends a `\\`).
    const k = s.lastIndexOf("\\", p - 1);
    if (k < 0 || k < p - 5) return true;
    let j = k;
    while (j > 0 && s.charCodeAt(j - 1) === 0x5c) j--;
    if ((k - j) % 2 === 1) return true;
    if (p !== k + 1 && !(s.charCodeAt(k + 1) === 0x75 && p <= k + 5)) return true;
  }
  return false;
}

/** A text-only search (`searchFilter`) over a payload's title and body; undefined when either cannot be read. */
function byText(
  q: SearchQuery,
  env: SearchEnv,
  b: Buffer,
  start: number,
  sep: number,
  end: number
): boolean | undefined {
  // The body is in the record's first part (before `number`), the title in its second: the milestone's title is in
  // the first.
  const body = memberString(b, start, sep, BODY);
  if (body === undefined) return undefined;
  const title = memberString(b, sep + 1, end, TITLE);
  if (title === undefined) return undefined;
  // Only `in:` qualifiers: the matcher reads nothing else of the item.
  const item: SearchItem = {
    kind: "issue",
    state: "open",
    author: "",
    assignees: [],
    labels: [],
    createdAt: "",
    updatedAt: "",
    title,
    body,
  };
  return matchSearch(q, item, env);
}

/**
 * The string value of the member `key` (its name, colon and opening quote) in `b[from, to)`, or undefined. Inside a
 * JSON string every quote is escaped, so the key's bytes are found only as the record's own member; its value ends at
 * the first quote after an even run of backslashes.
 */
function memberString(b: Buffer, from: number, to: number, key: Buffer): string | undefined {
  const part = b.subarray(from, to);
  const at = part.indexOf(key);
  if (at < 0) return undefined;
  const open = at + key.length - 1;
  for (let q = part.indexOf(0x22, open + 1); q >= 0; q = part.indexOf(0x22, q + 1)) {
    let k = q - 1;
    while (part[k] === 0x5c) k--;
    if ((q - 1 - k) % 2 !== 0) continue;
    try {
      const v: unknown = JSON.parse(part.toString("utf8", open, q + 1));
      return typeof v === "string" ? v : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The filters over an issue's JSON record, as `passesFilters` (cli) applies
 * them to its file's data: every label by name, the assignee and author by
 * login, the milestone by title, each ignoring case (`sameName`: a record's
 * names, logins and title are its file's, as `issueToJson` copies them);
 * undefined when there is none.
 */
export function issueFilter(f: IssueFilters): RecordFilter | undefined {
  const { labels, assignee, author, milestone } = f;
  const labelsOnly = assignee === undefined && author === undefined && milestone === undefined;
  if (labels.length === 0 && labelsOnly) return undefined;
  // A name without a letter is found by its bytes in the whole payload (a login's or the milestone's title's): a
  // payload without them is passed over unparsed. Any other is looked for where the record holds it (`byMembers`).
  const folded = (v: string | undefined): FoldedName | undefined => (v === undefined ? undefined : foldedName(v));
  const [by, to, ms] = [folded(assignee), folded(author), folded(milestone)];
  const member = (k: string, n: FoldedName | undefined): Buffer[] =>
    n?.exact ? [Buffer.concat([Buffer.from(`"${k}":`), n.text])] : [];
  const needles = [...member("login", by), ...member("login", to), ...member("title", ms)];
  const wanted = labels.map(labelNeedle);
  return Object.assign(
    (r: Record<string, unknown>) => {
      const names = (r.labels as Array<{ name: string }>).map((l) => l.name);
      if (!labels.every((l) => names.some((n) => sameName(n, l)))) return false;
      if (assignee !== undefined && !(r.assignees as Array<{ login: string }>).some((a) => sameName(a.login, assignee)))
        return false;
      if (author !== undefined && !sameName((r.author as { login: string }).login, author)) return false;
      const title = (r.milestone as { title: string } | null)?.title;
      if (milestone !== undefined && (title === undefined || !sameName(title, milestone))) return false;
      return true;
    },
    // A label is the record's only object with a `name`, and a JSON string's own quotes are escaped, so a payload
    // whose labels hold `"name":"bug"` (or `"BUG"`) is labelled bug; the logins and the milestone's title are read
    // where they are.
    {
      needles,
      labels: wanted,
      fileOnly: true,
      decide: labelsOnly ? byLabels(wanted) : byMembers(wanted, by, to, ms),
    }
  );
}

/** A label a filter looks for: its name as `foldedString` finds it, and the member that holds it lowercased. */
export interface LabelNeedle {
  readonly name: FoldedName;
  /** `"name":"<the label, lowercased>"`: found as it is, the label is there. */
  readonly lower: Buffer;
}

const NAME = Buffer.from('"name":');

function labelNeedle(label: string): LabelNeedle {
  const name = foldedName(label);
  return { name, lower: Buffer.concat([NAME, name.text]) };
}

/** Whether the labels `labels` (from `"labels":[`) hold the label `l`, ignoring case; undefined: cannot tell. */
function holdsLabel(labels: Buffer, l: LabelNeedle): boolean | undefined {
  if (labels.indexOf(l.lower) >= 0) return true;
  return l.name.exact ? false : foldedMember(labels, 0, labels.length, NAME, l.name);
}

/** `"labels":[` (no JSON string holds it: its quotes would be escaped). */
const LABELS = Buffer.from('"labels":[');

/** The answer of a label filter from a record's bytes, its first part ending at `sep` (undefined: they cannot tell). */
function labelsAnswer(b: Buffer, start: number, sep: number, wanted: readonly LabelNeedle[]): boolean | undefined {
  if (wanted.length === 0) return true;
  // Searched back from the first part's end: past the milestone, not the body.
  const at = b.lastIndexOf(LABELS, sep);
  if (at < start) return undefined;
  // A view: a search in the whole buffer would run on through the lines after the record.
  const labels = b.subarray(at, sep);
  let all: boolean | undefined = true;
  for (const l of wanted) {
    const r = holdsLabel(labels, l);
    if (r === false) return false;
    if (r === undefined) all = undefined;
  }
  return all;
}

/** The answer of a filter of labels alone. */
const byLabels =
  (wanted: readonly LabelNeedle[]): NonNullable<RecordFilter["decide"]> =>
  (b, start, sep) =>
    labelsAnswer(b, start, sep, wanted);

const ASSIGNEES = Buffer.from('"assignees":[');
const LOGIN = Buffer.from('{"login":');
const AUTHOR = Buffer.from('],"author":{"login":');
const MILESTONE = Buffer.from('"milestone":');
const MS_NUMBER = Buffer.from('{"number":');
const TITLE_AT = Buffer.from(',"title":');
const NULL = Buffer.from("null");

/**
 * A filter's answer from where a record's first part holds its labels, assignees, author and milestone, which
 * `issueToJson` writes as `"assignees":[{"login":…},…],"author":{"login":…},…,"labels":[…],"milestone":{"number":…,
 * "title":…,…}` (or `null`) up to the part's end; undefined when the bytes are not laid out so, or cannot tell (the
 * record is parsed). Every value is a JSON string as `JSON.stringify` writes it (`foldedString`).
 */
function byMembers(
  wanted: readonly LabelNeedle[],
  assignee: FoldedName | undefined,
  author: FoldedName | undefined,
  milestone: FoldedName | undefined
): NonNullable<RecordFilter["decide"]> {
  return (b, start, sep) => {
    if (!startsAt(b, start, ASSIGNEES)) return undefined;
    // The assignees' array ends where the author begins (no string holds the quotes between).
    const close = b.indexOf(AUTHOR, start);
    if (close < 0 || close >= sep) return undefined;
    // A `false` decides; else an `undefined` does (the record is parsed).
    let all = labelsAnswer(b, start, sep, wanted);
    if (all === false) return false;
    const and = (r: boolean | undefined): boolean => {
      if (r === undefined) all = undefined;
      return r === false;
    };
    if (assignee && and(foldedMember(b, start, close, LOGIN, assignee))) return false;
    if (author && and(foldedString(b, close + AUTHOR.length, author, sep))) return false;
    if (milestone) {
      // The part's last member (searched back from its end: no string holds its quotes).
      const m = b.lastIndexOf(MILESTONE, sep);
      if (m < close) return undefined;
      const v = m + MILESTONE.length;
      if (startsAt(b, v, NULL) && v + NULL.length === sep) return false;
      if (!startsAt(b, v, MS_NUMBER)) return undefined;
      let d = v + MS_NUMBER.length;
      while (b[d]! >= 0x30 && b[d]! <= 0x39) d++;
      if (d === v + MS_NUMBER.length || !startsAt(b, d, TITLE_AT)) return undefined;
      if (and(foldedString(b, d + TITLE_AT.length, milestone, sep))) return false;
    }
    return all;
  };
}

/** Whether `b` holds `x` at `at`. */
function startsAt(b: Buffer, at: number, x: Buffer): boolean {
  return at >= 0 && at + x.length <= b.length && b.compare(x, 0, x.length, at, at + x.length) === 0;
}

/**
 * The sorted fields of a list the record cache can answer: no comments, no
 * filter but the state and those `issueFilter` reads; else undefined. Its
 * lines are the list's JSON lines, and the records for --jq or a table.
 * @param fields the fields asked for (--json's, or a table's columns); undefined: none
 * @param filtered whether a filter the cache cannot answer is set (a search; any filter with --ready)
 * @example cachedIssueFields(["title", "number"], false) // ["number", "title"]
 */
export function cachedIssueFields(fields: readonly string[] | undefined, filtered: boolean): string[] | undefined {
  if (!fields || filtered) return undefined;
  const sorted = [...fields].sort();
  return sorted.includes("comments") ? undefined : sorted;
}

/**
 * The list's JSON lines, in chunks of about 128 KiB (a 10,000-issue list is
 * 7 MB: 55 writes, not 220), for the caller to write as they come.
 * @param order the issues' ranked order (`entityOrder`); its errors are the caller's to tell
 * @param defs label and milestone definitions and the web address, as `issueToJson` takes them
 */
export async function* cachedIssueList(
  store: Store,
  order: Order,
  defs: IssueContext,
  opts: CachedIssueListOptions
): AsyncGenerator<Buffer> {
  // Any walk may write (a walk cut short by --limit or a closed reader discards what it began: close(false)).
  const context = recordContext([[...defs.labels], [...defs.milestones]]);
  const now = Date.now();
  const cache = openRecordCache(store, ISSUES, { layout: LAYOUT, context, write: true, now });
  const fields = opts.fields;
  const full = fields.join(",") === FULL;
  // `,"url":"<base>/issues/` (a number has nothing to escape).
  const url = Buffer.from(`,"url":${JSON.stringify(`${defs.baseUrl ?? ""}/issues/`).slice(0, -1)}`);
  const want = opts.state === "all" ? 0 : opts.state === "open" ? 0x4f : 0x43;
  if (opts.ready) {
    try {
      yield* readyList(store, order, defs, opts, cache, url, full);
    } finally {
      opts.staged?.close();
    }
    return;
  }
  const sink = new Sink(fields, url);
  const picker = full ? undefined : new MemberPicker(BEFORE, AFTER, fields);
  // The store as the walk's stats name it (relative: fewer names for the kernel to resolve); reads use `store`.
  const stats = statStore(store);
  let n = 0;
  let i = order.length - 1;
  // A walk that passes over issues (a filter, a state) lstats each one's file: a long one hands the oldest's
  // lstats over to another thread (prestat.ts), and holds its young generation (heap_bound.ts: the records a search
  // parses grew it to 16 MiB; peaks at 100,000 issues, `-l bug` 100–103 MiB → 78–82, `-S crash` 112–115 → 80–84,
  // the thread's 8 included). A cold walk has the order pass's stats.
  const handOver =
    (opts.match !== undefined || want !== 0) && !opts.staged?.size ? (opts.ahead ?? PRESTAT_AT) : undefined;
  const after = handOver && handOverAfter(handOver, opts.match !== undefined, opts.limit, order.length);
  // The state and a filter of what the owning file says (`fileOnly`) are tried before the record folders are stamped.
  const lightWalk = opts.match ? opts.match.fileOnly === true : want !== 0;
  let ahead: PreStat | undefined;
  let walked = 0;
  let long = false;
  try {
    for (; i >= 0 && n < opts.limit && !opts.closed(); i--) {
      const { ref, createdAt } = order.at(i)!;
      if (ref.archived) continue;
      if (handOver && ++walked === after && i >= handOver.left) {
        long = true;
        // Folder stamps ahead only for a walk that stamps them after its filter; another does with each lookup.
        ahead = PreStat.start(stats, ISSUES, order, i, lightWalk);
        if (handOver.settle) await ahead?.exited;
      }
      // Bounded once the thread runs (its first stat): bounded before it started, the young generation was not
      // held in 6 runs of 6 (as the thread's isolate is set up), while it started in 3 of 6; after, held in 10 of 10.
      if (long && (walked & 31) === 0 && ahead?.running !== false) long = !boundHeap(HELD_YOUNG, ahead !== undefined);
      const key = `${createdAt} ${ref.id}`;
      const pre = ref.escapes ? undefined : opts.staged?.get(ref.id);
      // The state and a filter of what the owning file says (`fileOnly`) are tried on a record the file's lstat
      // alone vouches for: its record folders (`updatedAt`) are stamped only when it passes (one lstat, not three,
      // for each issue a filter passes over). Else the file's and its folders' stamps, first.
      const light = !ref.escapes && !pre && lightWalk;
      const known = ref.escapes || pre ? undefined : ahead?.known(i);
      const file = entityFile(stats, ISSUES, ref.id);
      let hit = ref.escapes ? undefined : lookup(cache, file, key, pre, light, known);
      // Made by the order pass from the file it read (kept by the cache as if read here).
      if (!hit && pre && parts(pre)) {
        cache.putBytes(key, pre.buf, pre.start, pre.end);
        hit = pre;
      }
      // The payload's two parts (the cache checks its blocks; a line without its separator, or that does not parse,
      // is read from its file).
      const sep = hit ? hit.buf.indexOf(0x1f, hit.start) : -1;
      if (hit && !(sep > hit.start && sep < hit.end)) hit = undefined;
      // The links after the record's second part (read by --ready only): the record ends at `end`.
      const end = hit ? hit.buf.lastIndexOf(0x1f, hit.end - 1) : -1;
      if (hit && !(end > sep)) hit = undefined;
      // Its second part starts with `"state":"OPEN"` or `"state":"CLOSED"`.
      if (hit && want && hit.buf[sep + 10] !== want) continue;
      // A payload without a member the filter needs cannot match: passed over unparsed.
      if (hit && opts.match && !holdsAll(hit.buf, hit.start, sep, end, opts.match)) continue;
      let json: Record<string, unknown> | undefined;
      // A filter reads the record's fields, parsed even when it is copied as bytes, unless its bytes decide (`decide`:
      // a label filter's needles, the logins and milestone where the record holds them, a search's title and body).
      let decided = false;
      if (hit && opts.match?.decide) {
        const d = opts.match.decide(hit.buf, hit.start, sep, end);
        if (d === false) continue;
        decided = d === true;
      }
      // A field list the record's bytes answer (`MemberPicker`) is copied, not parsed, unless the filter reads fields.
      const parse = opts.match !== undefined && !decided;
      const picked = hit !== undefined && picker !== undefined && !parse && picker.scan(hit.buf, hit.start, sep, end);
      if (hit && !picked && (!full || parse)) {
        try {
          const text = `{${hit.buf.toString("utf8", hit.start, sep)},${hit.buf.toString("utf8", sep + 1, end)}}`;
          json = { ...JSON.parse(text), number: i + 1, url: `${defs.baseUrl ?? ""}/issues/${i + 1}` };
        } catch {
          hit = undefined;
        }
      }
      if (hit && opts.match && !decided && !opts.match(json!)) continue;
      // Their stamp as the thread took it ahead of the walk (prestat.ts), else taken now.
      if (hit && light && (ahead?.folders(i) ?? folderStamp(activityDirs(file, false)).value) !== cache.hitFolders) {
        // Passed, but a record was added to (or removed from) its folders since: read from its file, as a miss.
        cache.refuse();
        hit = undefined;
      }
      let made: string | undefined;
      if (!hit) {
        if (light) cache.stampFolders(activityDirs(file, false)); // before the folders are read
        const e = await readListed(store, ref, opts, createdAt);
        if (!e) continue;
        json = issueToJson(e, i + 1, defs) as unknown as Record<string, unknown>;
        made = `${members(json, BEFORE)}\x1f${members(json, AFTER)}`;
        cache.put(key, `${made}\x1f${linksText(e.data)}`, e.warnings.length === 0);
        if (want && json.state !== (want === 0x4f ? "OPEN" : "CLOSED")) continue;
        if (opts.match && !opts.match(json)) continue;
      }
      n++;
      if (!full && hit && picked) sink.picked(hit.buf, picker!, i + 1);
      else if (!full) sink.text(`{${members(json!, fields)}}\n`);
      else if (hit) sink.record(hit.buf, hit.start, sep, end, i + 1, url);
      else {
        // The record is the payload's two parts around its number, and its url.
        const bytes = Buffer.from(made!);
        sink.record(bytes, 0, bytes.indexOf(0x1f), bytes.length, i + 1, url);
      }
      if (sink.full) yield sink.take();
    }
    if (sink.length > 0) yield sink.take();
    // A cold walk cut short (--limit, a closed reader) still leaves the whole cache when the order pass made the
    // rest: kept without reading a file (the first one it would have to read ends it).
    if (opts.staged && opts.staged.size > 0) i = finishStaged(stats, order, cache, opts.staged, i);
  } finally {
    ahead?.stop();
    cache.close(i < 0);
    opts.staged?.close();
  }
}

/**
 * Walk on from `i` to keep what the order pass made: cache hits are kept,
 * staged records put; the first entity neither covers stops it.
 * @returns where it stopped (-1: the walk is complete)
 */
function finishStaged(
  store: Store,
  order: Order,
  cache: ReturnType<typeof openRecordCache>,
  staged: IssueStaging,
  i: number
): number {
  for (; i >= 0; i--) {
    const { ref, createdAt } = order.at(i)!;
    if (ref.archived) continue;
    if (ref.escapes) return i;
    const key = `${createdAt} ${ref.id}`;
    const pre = staged.get(ref.id);
    if (lookup(cache, entityFile(store, ISSUES, ref.id), key, pre)) continue;
    if (!pre || !parts(pre)) return i;
    cache.putBytes(key, pre.buf, pre.start, pre.end);
  }
  return i;
}

/**
 * The cache's line for an issue, when it still holds: vouched for by the
 * staged read's stamps, or by the file's and its record folders' (`activityDirs`:
 * comments and edits move `updatedAt`) taken now; with `fileOnly`, by the
 * file's alone (its folders are the caller's to check: `RecordCache.hitFolders`).
 * @param ahead the file's lstat another thread took (`PreStat`: of the file alone), in place of the lstat
 */
function lookup(
  cache: ReturnType<typeof openRecordCache>,
  file: string,
  key: string,
  pre: KnownFile | undefined,
  fileOnly = false,
  ahead?: StampedStat
): RecordHit | undefined {
  return pre ? cache.get(key, file, pre) : cache.get(key, file, ahead, fileOnly ? false : activityDirs(file, false));
}

/**
 * Whether the record `b[start, end)` (its first part ends at `sep`) may pass `m`: false when it lacks a needle, a
 * label or a word.
 */
function holdsAll(b: Buffer, start: number, sep: number, end: number, m: RecordFilter): boolean {
  const { needles, labels = [], words = [] } = m;
  if (labels.length > 0 && labelsAnswer(b, start, sep, labels) === false) return false;
  if (needles.length === 0 && words.length === 0) return true;
  // Within the record's bytes only (the buffer holds the lines after it too).
  const payload = b.subarray(start, end);
  for (const n of needles) if (payload.indexOf(n) < 0) return false;
  // Lowercasing is ASCII's only on ASCII text (`K`, the Kelvin sign, lowercases to `k`): other payloads are parsed.
  if (words.length === 0 || !isAscii(payload)) return true;
  const text = payload.toString("latin1").toLowerCase();
  for (const w of words) if (!text.includes(w)) return false;
  return true;
}

/** Whether a payload has its three parts (record, record, links). */
function parts(h: RecordHit): boolean {
  const sep = h.buf.indexOf(0x1f, h.start);
  const end = h.buf.lastIndexOf(0x1f, h.end - 1);
  return sep > h.start && sep < end && end < h.end;
}

/** Staged records in memory up to this many bytes; past it, in a temp file beside the cache. */
const STAGE_MEM = 1 << 20;

/**
 * The records a cold list's order pass makes as it reads each file once
 * (`entityOrder`'s `onRead`): the payload the record cache keeps, and the
 * file's lstat as taken before the read, for the list's walk to use in
 * place of reading the file again. Only clean records are staged (no
 * warning, no error): a file that has something to say is read by the walk,
 * which says it. At 100,000 issues the payloads are 70 MB: past 1 MiB they
 * go to a temp file in `.cache/`, removed by `close` (or, if the process
 * dies, by the next writer's `cacheTemp`).
 */
export class IssueStaging {
  readonly #store: Store;
  readonly #defs: Promise<IssueContext>;
  readonly #memLimit: number;
  readonly #index = new Map<string, number>();
  readonly #at: number[] = [];
  readonly #len: number[] = [];
  #mem: Buffer;
  #memLen = 0;
  #fileLen = 0;
  #fd: number | undefined;
  #tmp: string | undefined;
  #off = false;
  #read = Buffer.alloc(0);
  readonly #hit: RecordHit & KnownFile = { buf: Buffer.alloc(0), start: 0, end: 0, key: "", stamp: null };

  /**
   * @param defs what records are made with (awaited on the first file read only: a warm list never waits)
   * @param memLimit bytes kept in memory before the rest goes to the temp file (tests set it small)
   */
  constructor(store: Store, defs: Promise<IssueContext>, memLimit = STAGE_MEM) {
    this.#store = store;
    this.#defs = defs;
    this.#memLimit = memLimit;
    this.#mem = Buffer.allocUnsafe(Math.min(1 << 20, memLimit));
  }

  /** How many records are staged. */
  get size(): number {
    return this.#at.length;
  }

  /** `entityOrder`'s `onRead`: the file's record made and staged when it is clean. */
  readonly onRead: NonNullable<OrderOptions["onRead"]> = async (ref, fm, st, before, text, ahead) => {
    // An archived issue is never listed (its line would be dropped): its record, folders and activity are not made.
    if (this.#off || ref.archived) return;
    const defs = await this.#defs;
    const e = entityOfFrontmatter(this.#store, ISSUES, ISSUE, ref, fm, text);
    if (e.warnings.length > 0) return;
    // The record folders' stamps before they are read (issueToJson reads them for updatedAt), and what they hold:
    // taken by the thread ahead when it has, else now.
    const known = knownFile(st, before, activityDirs(e.path, false), ahead);
    if (ahead?.folders) withScannedActivity(e, ahead.folders.activity);
    const json = issueToJson(absentFolders(e, known.absent), 1, defs) as unknown as Record<string, unknown>;
    this.#add(ref.id, known, payloadOfFirst(json, e.data));
  };

  /** The staged payload of an issue (valid until the next call), with its file's lstat; undefined when none. */
  get(id: string): (RecordHit & KnownFile) | undefined {
    const k = this.#index.get(id);
    if (k === undefined) return undefined;
    const at = this.#at[k]!;
    const len = this.#len[k]!;
    const h = this.#hit;
    if (at >= this.#fileLen) {
      h.buf = this.#mem;
      h.start = at - this.#fileLen;
    } else {
      if (this.#read.length < len) this.#read = Buffer.allocUnsafe(Math.max(len, 1 << 16));
      try {
        if (readSync(this.#fd!, this.#read, 0, len, at) !== len) return undefined;
      } catch {
        return undefined;
      }
      h.buf = this.#read;
      h.start = 0;
    }
    // `<1: it vouches | 0: too recent><fileKey>\x1f<payload>`
    const sep = h.buf.indexOf(0x1f, h.start);
    h.key = h.buf.toString("latin1", h.start + 1, sep);
    h.stamp = h.buf[h.start] === 0x31 ? h.key : null;
    h.end = h.start + len;
    h.start = sep + 1;
    return h;
  }

  /** Remove the temp file (the records in memory stay readable). */
  close(): void {
    if (this.#fd !== undefined) {
      try {
        closeSync(this.#fd);
      } catch {
        // closed already
      }
    }
    this.#fd = undefined;
    this.#index.clear();
    this.#at.length = this.#len.length = 0;
    dropCacheTemp(this.#tmp);
    this.#tmp = undefined;
  }

  #add(id: string, known: KnownFile, payload: string): void {
    // The file's key before the payload, not beside it: 100,000 small objects would cost more than the bytes.
    const line = `${known.stamp === known.key ? "1" : "0"}${known.key}\x1f${payload}`;
    const n = Buffer.byteLength(line);
    if (this.#memLen + n > this.#mem.length) {
      if (this.#memLen + n > this.#memLimit && !this.#spill()) {
        this.#off = true;
        return;
      }
      if (this.#memLen + n > this.#mem.length) {
        const next = Buffer.allocUnsafe(Math.min(this.#memLimit, Math.max(this.#mem.length * 2, this.#memLen + n)));
        this.#mem.copy(next, 0, 0, this.#memLen);
        this.#mem = next.length >= this.#memLen + n ? next : Buffer.allocUnsafe(this.#memLen + n);
      }
    }
    this.#index.set(id, this.#at.length);
    this.#at.push(this.#fileLen + this.#memLen);
    this.#len.push(n);
    this.#memLen += this.#mem.write(line, this.#memLen, "utf8");
  }

  /** Move the records in memory to the temp file; false when it cannot be written (staging stops). */
  #spill(): boolean {
    try {
      if (this.#fd === undefined) {
        this.#tmp = cacheTemp(join(cacheDir(this.#store), `${ISSUES.plural}.staged`));
        this.#fd = openSync(this.#tmp, "wx+");
      }
      writeAll(this.#fd, this.#mem, this.#memLen);
      this.#fileLen += this.#memLen;
      this.#memLen = 0;
      return true;
    } catch {
      return false;
    }
  }
}

/** The payload the record cache keeps of an issue (see BEFORE): its record's two parts and its links. */
function payloadOf(json: Record<string, unknown>, d: Record<string, unknown>): string {
  return `${members(json, BEFORE)}\x1f${members(json, AFTER)}\x1f${linksText(d)}`;
}

/**
 * `payloadOf` a record `issueToJson` made as number 1 without comments (its keys in `FULL`'s order), in one
 * `JSON.stringify`: cut before `"number":1,` and before `"url":`. A string value cannot hold either cut (its quotes
 * are escaped), and a nested `number` is not followed by `"state"`.
 */
function payloadOfFirst(json: Record<string, unknown>, d: Record<string, unknown>): string {
  const text = JSON.stringify(json);
  const a = text.indexOf(`${NUMBER_ONE}"state":`);
  const b = text.lastIndexOf(',"url":');
  if (a < 0 || b < a) return payloadOf(json, d);
  return `${text.slice(1, a)}\x1f${text.slice(a + NUMBER_ONE.length, b)}\x1f${linksText(d)}`;
}
const NUMBER_ONE = ',"number":1,';

// --- internal ---

/**
 * What the record cache keeps of an issue: its list record without the
 * fields its place gives (`number`, `url`) or comments, as the JSON text
 * of the fields before `number` and of those after it, joined by U+001F.
 * So a full record is two copies and its number, with no parse.
 */
const BEFORE = ISSUE_FIELDS.filter((f) => f < "number" && f !== "comments");
const AFTER = ISSUE_FIELDS.filter((f) => f > "number" && f !== "url");
const LAYOUT = `${BEFORE.join(",")}|${AFTER.join(",")}|links`;
/** The cache's layout (its header names it), for another reader of its lines (issue_graph.ts reads the links). */
export const ISSUE_RECORD_LAYOUT = LAYOUT;
const FULL = [...BEFORE, "number", ...AFTER, "url"].join(",");

/** A listed issue, read: its warnings told, or undefined when it cannot be read (told). */
async function readListed(
  store: Store,
  ref: EntityRef,
  opts: CachedIssueListOptions,
  rankedBy?: string
): Promise<LoadedEntity | undefined> {
  let e: LoadedEntity;
  try {
    e = loadEntityFast(store, ISSUES, ISSUE, ref) ?? (await loadEntity(store, ISSUES, ISSUE, ref));
  } catch (err) {
    // Ranked, yet its file is gone: the order is wrong (the next reader ranks every file again).
    if (rankedBy !== undefined && err instanceof NotFoundError) dropOrder(store, ISSUES);
    opts.onError(err);
    return undefined;
  }
  for (const w of e.warnings) opts.onWarning(w);
  // Ranked by another createdAt than its file's (edited since): numbers may be wrong. Told (exit 1), listed.
  const stale = rankedBy === undefined ? undefined : staleRank(store, ISSUES, e, rankedBy);
  if (stale) opts.onError(stale);
  return e;
}

/** The JSON text of some fields of a record, without the braces (`"a":1,"b":2`). */
function members(json: Record<string, unknown>, fields: readonly string[]): string {
  const o: Record<string, unknown> = {};
  for (const f of fields) o[f] = json[f];
  return JSON.stringify(o).slice(1, -1);
}

/** Bytes for stdout, handed out in chunks of up to 128 KiB (`nextChunk`). */
class Sink {
  #buf = Buffer.allocUnsafe(1 << 18);
  #len = 0;
  #limit = FIRST_CHUNK;
  /** Whether a picked record has its number, and its url (`,"url":"<base>/issues/`, see `record`). */
  readonly #number: boolean;
  readonly #url: Buffer | undefined;
  /**
   * @param fields the fields asked for, sorted
   * @param url `,"url":"<base>/issues/`
   */
  constructor(fields: readonly string[], url: Buffer) {
    this.#number = fields.includes("number");
    this.#url = fields.includes("url") ? url : undefined;
  }
  get length(): number {
    return this.#len;
  }
  get full(): boolean {
    return this.#len >= this.#limit;
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
  /**
   * Some members of a record, as `members` would write them of its JSON:
   * `picker`'s last scan of `b` (part one's, its number, part two's, its url), `{…}` and a newline.
   */
  picked(b: Buffer, picker: MemberPicker, n: number): void {
    this.#room(picker.bytes + (this.#url?.length ?? 0) + 48);
    const buf = this.#buf;
    const from = this.#len;
    let at = from;
    buf[at++] = 0x7b;
    at = picker.copy(b, 0, buf, at);
    if (this.#number) {
      // `,"number":` without its comma when it comes first.
      for (let k = at === from + 1 ? 1 : 0; k < NUMBER.length; k++) buf[at++] = NUMBER[k]!;
      at = digits(buf, at, n);
    }
    const two = at;
    if (two > from + 1) buf[at++] = 0x2c;
    const after = picker.copy(b, 1, buf, at);
    at = after === at ? two : after;
    if (this.#url) {
      at += this.#url.copy(buf, at, at === from + 1 ? 1 : 0);
      at = digits(buf, at, n);
      buf[at++] = 0x22;
    }
    buf[at++] = 0x7d;
    buf[at++] = 0x0a;
    this.#len = at;
  }
  /** The bytes so far; the sink starts a new buffer. */
  take(): Buffer {
    this.#limit = nextChunk(this.#limit, 1 << 17);
    const chunk = this.#buf.subarray(0, this.#len);
    this.#buf = Buffer.allocUnsafe(1 << 18);
    this.#len = 0;
    return chunk;
  }
  #room(n: number): void {
    if (this.#len + n <= this.#buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.#buf.length * 2, this.#len + n));
    this.#buf.copy(next, 0, 0, this.#len);
    this.#buf = next;
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

/** An issue's links as the cache keeps them: `<parent>|<blocker>,<blocker>` (either side may be empty). */
function linksText(d: Record<string, unknown>): string {
  return `${(d.parent as string | undefined) ?? ""}|${((d.blockedBy as string[] | undefined) ?? []).join(",")}`;
}

/**
 * One open live issue of a --ready walk: its place, and where its record is:
 * `[at, at + len)` of the cache file as it was opened (`text` undefined), or
 * made from its file (`text`, latin1: a char a byte); `sep` within the record.
 */
interface ReadyEntry {
  i: number;
  id: string;
  at: number;
  len: number;
  sep: number;
  text?: string;
  /** A cached record's folder stamps, still to check (`RecordCache.hitFolders`): the walk checked its file only. */
  folders?: string;
}

/**
 * `--ready`: every issue is visited (a blocker can be older or newer than
 * what it blocks), its links and state taken from its cached record (or its
 * file), the graph built, and the ready ones written newest first, at most
 * `limit`. One lstat per issue: links and state are the owning file's, so
 * the record folders (`updatedAt`) are stamped only for the ready records,
 * as they are written; the records of open issues are kept as they pass
 * (the cache reuses its buffer).
 */
async function* readyList(
  store: Store,
  order: Order,
  defs: IssueContext,
  opts: CachedIssueListOptions,
  cache: ReturnType<typeof openRecordCache>,
  url: Buffer,
  full: boolean
): AsyncGenerator<Buffer> {
  const nodes: LinkNode[] = [];
  const open: ReadyEntry[] = [];
  // The cache file as the walk reads it: opened before it, the same inode (checked), kept open past its close.
  const file = cacheFileOf(store);
  const stats = statStore(store);
  let i = order.length - 1;
  try {
    for (; i >= 0 && !opts.closed(); i--) {
      const { ref, createdAt } = order.at(i)!;
      // Archived issues are never listed and never block (IssueGraph): not read.
      if (ref.archived) continue;
      const key = `${createdAt} ${ref.id}`;
      const pre = ref.escapes ? undefined : opts.staged?.get(ref.id);
      // Staged: its stamp (folders too) was taken as it was read. Else the file alone, its folders checked if ready.
      const path = entityFile(stats, ISSUES, ref.id);
      const hit = ref.escapes ? undefined : pre ? cache.get(key, path, pre) : cache.get(key, path, undefined, false);
      if (!hit && pre && parts(pre)) {
        // Made by the order pass from the file it read: kept, and its record kept here (it is in no cache file yet).
        cache.putBytes(key, pre.buf, pre.start, pre.end);
        const sep = pre.buf.indexOf(0x1f, pre.start);
        const end = pre.buf.lastIndexOf(0x1f, pre.end - 1);
        const isOpen = pre.buf[sep + 10] === 0x4f;
        nodes.push(nodeOf(ref.id, i, isOpen, pre.buf.toString("latin1", end + 1, pre.end)));
        if (isOpen)
          open.push({
            i,
            id: ref.id,
            at: 0,
            len: end - pre.start,
            sep: sep - pre.start,
            text: pre.buf.toString("latin1", pre.start, end),
          });
        continue;
      }
      const sep = hit ? hit.buf.indexOf(0x1f, hit.start) : -1;
      const end = hit ? hit.buf.lastIndexOf(0x1f, hit.end - 1) : -1;
      if (hit && sep > hit.start && end > sep) {
        const isOpen = hit.buf[sep + 10] === 0x4f;
        // `|` alone: no links (no string made).
        const links = hit.end - end === 2 ? "|" : hit.buf.toString("latin1", end + 1, hit.end);
        nodes.push(nodeOf(ref.id, i, isOpen, links));
        // Only where it is: the few ready records are read back from the cache file (a copy of every open one
        // costs more than the walk saves).
        if (isOpen)
          open.push({
            i,
            id: ref.id,
            at: cache.hitOffset,
            len: end - hit.start,
            sep: sep - hit.start,
            folders: pre ? undefined : cache.hitFolders,
          });
        continue;
      }
      if (!ref.escapes && !pre) cache.stampFolders(activityDirs(path, false));
      const e = await readListed(store, ref, opts);
      if (!e) continue;
      const json = issueToJson(e, i + 1, defs) as unknown as Record<string, unknown>;
      const made = `${members(json, BEFORE)}\x1f${members(json, AFTER)}`;
      const links = linksText(e.data);
      cache.put(key, `${made}\x1f${links}`, e.warnings.length === 0);
      const isOpen = json.state === "OPEN";
      nodes.push(nodeOf(ref.id, i, isOpen, links));
      if (isOpen) {
        const bytes = Buffer.from(made);
        open.push({
          i,
          id: ref.id,
          at: 0,
          len: bytes.length,
          sep: bytes.indexOf(0x1f),
          text: bytes.toString("latin1"),
        });
      }
    }
  } finally {
    cache.close(i < 0);
  }
  try {
    if (opts.closed() || opts.state === "closed") return;
    yield* readyRecords(store, order, defs, opts, new IssueGraph(nodes), open, file, url, full);
  } finally {
    if (file.fd !== undefined) closeSync(file.fd);
  }
}

/** The ready ones of the open records, written newest first, at most `limit`. */
async function* readyRecords(
  store: Store,
  order: Order,
  defs: IssueContext,
  opts: CachedIssueListOptions,
  g: IssueGraph,
  open: ReadyEntry[],
  file: { fd: number | undefined },
  url: Buffer,
  full: boolean
): AsyncGenerator<Buffer> {
  const sink = new Sink(opts.fields, url);
  const picker = full ? undefined : new MemberPicker(BEFORE, AFTER, opts.fields);
  let n = 0;
  for (const r of open) {
    if (n >= opts.limit) break;
    if (g.blocked(r.id)) continue;
    const b = r.text !== undefined ? Buffer.from(r.text, "latin1") : await recordAt(store, order, defs, opts, r, file);
    if (!b) continue;
    n++;
    if (full) sink.record(b, 0, r.sep, b.length, r.i + 1, url);
    else if (picker!.scan(b, 0, r.sep, b.length)) sink.picked(b, picker!, r.i + 1);
    else {
      const json = JSON.parse(`{${b.toString("utf8", 0, r.sep)},${b.toString("utf8", r.sep + 1)}}`);
      json.number = r.i + 1;
      json.url = `${defs.baseUrl ?? ""}/issues/${r.i + 1}`;
      sink.text(`{${members(json, opts.fields)}}\n`);
    }
    if (sink.full) yield sink.take();
  }
  if (sink.length > 0) yield sink.take();
}

const NONE: readonly string[] = [];

/** The cache file opened for reading (fd undefined when there is none). */
function cacheFileOf(store: Store): { fd: number | undefined } {
  try {
    return { fd: openSync(recordCacheFile(store, ISSUES), "r") };
  } catch {
    return { fd: undefined };
  }
}

/**
 * A ready record's bytes, read back from the cache file; when its record
 * folders moved since the line was made (a comment or an edit added or
 * pulled), or the bytes there are not this issue's record (the file was
 * replaced since the walk opened it), made again from the issue's own
 * file: a record is never invented.
 */
async function recordAt(
  store: Store,
  order: Order,
  defs: IssueContext,
  opts: CachedIssueListOptions,
  r: ReadyEntry,
  file: { fd: number | undefined }
): Promise<Buffer | undefined> {
  const current =
    r.folders === undefined || folderStamp(activityDirs(entityFile(store, ISSUES, r.id), false)).value === r.folders;
  if (current && file.fd !== undefined) {
    const b = Buffer.allocUnsafe(r.len);
    // Its own record: the separator where the walk saw it, and its id as a key (a body's quotes are escaped).
    if (
      readSync(file.fd, b, 0, r.len, r.at) === r.len &&
      b[r.sep] === 0x1f &&
      b.indexOf(`"id":"${r.id}"`) >= 0 &&
      b.indexOf(`"id":"${r.id}"`) < r.sep
    )
      return b;
  }
  const e = await readListed(store, order.at(r.i)!.ref, opts);
  if (!e) return undefined;
  const json = issueToJson(e, r.i + 1, defs) as unknown as Record<string, unknown>;
  return Buffer.from(`${members(json, BEFORE)}\x1f${members(json, AFTER)}`);
}

/** A graph node from a cached links part (`linksText`); no title (the ready walk needs none). */
function nodeOf(id: string, i: number, open: boolean, links: string): LinkNode {
  if (links === "|") return { id, number: i + 1, title: "", open, blockedBy: NONE, parent: undefined };
  const bar = links.indexOf("|");
  const parent = bar > 0 ? links.slice(0, bar) : undefined;
  const rest = bar >= 0 ? links.slice(bar + 1) : "";
  return { id, number: i + 1, title: "", open, blockedBy: rest === "" ? [] : rest.split(","), parent };
}
