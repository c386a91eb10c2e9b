/**
 * gh's search syntax for issues and pull requests (GitHub's "Searching
 * issues and pull requests"), parsed once: qualifiers (`is:open`,
 * `label:"in progress"`, `created:>=2020-01-01`, `-author:bob`…), plain
 * words and quoted phrases. A qualifier GitHub does not know is a plain
 * word, as there. Pure: no I/O.
 */
import { UsageError } from "../errors.js";

/** The qualifiers forge understands (every other `key:value` is a plain word). */
export const SEARCH_QUALIFIERS: readonly string[] = [
  "is",
  "state",
  "type",
  "reason",
  "author",
  "assignee",
  "label",
  "milestone",
  "no",
  "in",
  "created",
  "updated",
  "closed",
  "merged",
  "sort",
  "review",
  "status",
  "head",
  "base",
  "draft",
  "mentions",
  "commenter",
  "involves",
];

/** One `key:value` term; `negated` for `-key:value`. */
export interface Qualifier {
  key: string;
  value: string;
  negated: boolean;
}

/** A date bound: the instant range `[from, to)` in RFC 3339 (either side open). */
export interface DateRange {
  from?: string;
  to?: string;
}

/** A parsed query. */
export interface SearchQuery {
  qualifiers: Qualifier[];
  /** Plain words and phrases, lowercased; each must occur (AND). */
  words: string[];
  /** Plain words negated with `-word`. */
  notWords: string[];
  /** `sort:`: the field and direction, when given. */
  sort?: { field: "created" | "updated" | "comments"; dir: "asc" | "desc" };
}

/**
 * Split a query into tokens as GitHub does: whitespace separates, double
 * quotes group (`label:"in progress"`, `"exact phrase"`).
 * @example tokenize('bug label:"in progress"') // ["bug", 'label:in progress']
 */
export function tokenize(text: string): Array<{ text: string; quoted: boolean }> {
  const out: Array<{ text: string; quoted: boolean }> = [];
  let cur = "";
  let quoted = false;
  let inQuote = false;
  let has = false;
  for (const ch of text) {
    if (ch === '"') {
      inQuote = !inQuote;
      quoted = true;
      has = true;
    } else if (!inQuote && /\s/.test(ch)) {
      if (has) out.push({ text: cur, quoted });
      cur = "";
      quoted = false;
      has = false;
    } else {
      cur += ch;
      has = true;
    }
  }
  if (has) out.push({ text: cur, quoted });
  return out;
}

/**
 * Parse a search string.
 * @throws UsageError for a bad date or a bad `sort:`/`is:` value that cannot match anything
 * @example parseSearch("crash -label:bug is:open").qualifiers //
 * [{key:"label",value:"bug",negated:true},{key:"is",value:"open",negated:false}]
 */
export function parseSearch(text: string): SearchQuery {
  const q: SearchQuery = { qualifiers: [], words: [], notWords: [] };
  for (const tok of tokenize(text)) {
    const m = /^(-?)([A-Za-z-]+):(.*)$/s.exec(tok.text);
    const key = m?.[2]!.toLowerCase();
    if (m && key && SEARCH_QUALIFIERS.includes(key) && m[3] !== "") {
      const value = m[3]!;
      const negated = m[1] === "-" && key !== "no";
      if (key === "sort") {
        q.sort = parseSort(value);
        continue;
      }
      if (["created", "updated", "closed", "merged"].includes(key)) parseDateRange(value);
      q.qualifiers.push({ key, value, negated });
      continue;
    }
    if (!tok.quoted && tok.text.startsWith("-") && tok.text.length > 1)
      q.notWords.push(tok.text.slice(1).toLowerCase());
    else if (tok.text.toUpperCase() !== "AND") q.words.push(tok.text.toLowerCase());
  }
  return q;
}

function parseSort(value: string): SearchQuery["sort"] {
  const m = /^(created|updated|comments)(?:-(asc|desc))?$/.exec(value.toLowerCase());
  if (!m) throw new UsageError(`invalid sort '${value.slice(0, 30)}' (created|updated|comments, -asc|-desc)`);
  return { field: m[1] as "created" | "updated" | "comments", dir: (m[2] ?? "desc") as "asc" | "desc" };
}

const DATE = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}(?::\d{2})?)(Z|[+-]\d{2}:\d{2})?)?$/;

/** A date or date-time as the instant range it names (a day is the whole day, UTC). */
function instant(s: string): { start: string; end: string } {
  const m = DATE.exec(s);
  if (!m) throw new UsageError(`invalid date '${s.slice(0, 30)}' (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)`);
  if (!m[2]) {
    const start = new Date(`${m[1]}T00:00:00Z`);
    if (Number.isNaN(start.getTime())) throw new UsageError(`invalid date '${s.slice(0, 30)}'`);
    return { start: iso(start), end: iso(new Date(start.getTime() + 86_400_000)) };
  }
  const t = new Date(`${m[1]}T${m[2]!.length === 5 ? m[2] + ":00" : m[2]}${m[3] ?? "Z"}`);
  if (Number.isNaN(t.getTime())) throw new UsageError(`invalid date '${s.slice(0, 30)}'`);
  return { start: iso(t), end: iso(new Date(t.getTime() + 1000)) };
}

function iso(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * A date qualifier's value as a range: `2020-01-01`, `>2020-01-01`,
 * `>=…`, `<…`, `<=…`, `a..b`, `a..*`, `*..b`.
 * @throws UsageError for a value that is not a date
 * @example parseDateRange(">=2020-01-02") // {from: "2020-01-02T00:00:00Z"}
 */
export function parseDateRange(value: string): DateRange {
  const range = /^(.+)\.\.(.+)$/.exec(value);
  if (range) {
    const a = range[1]!;
    const b = range[2]!;
    return { from: a === "*" ? undefined : instant(a).start, to: b === "*" ? undefined : instant(b).end };
  }
  const op = /^(>=|<=|>|<)?(.*)$/.exec(value)!;
  const t = instant(op[2]!);
  switch (op[1]) {
    case ">":
      return { from: t.end };
    case ">=":
      return { from: t.start };
    case "<":
      return { to: t.start };
    case "<=":
      return { to: t.end };
    default:
      return { from: t.start, to: t.end };
  }
}

/** Whether an RFC 3339 stamp falls in a range (a missing stamp never does). */
export function inRange(stamp: string | null | undefined, r: DateRange): boolean {
  if (!stamp) return false;
  const t = Date.parse(stamp);
  if (r.from !== undefined && t < Date.parse(r.from)) return false;
  if (r.to !== undefined && t >= Date.parse(r.to)) return false;
  return true;
}

/**
 * Whether a query asks for a state of its own, so a list's default
 * `--state open` steps aside (gh drops its default for `is:closed`,
 * `is:merged`, `state:closed`, `closed:…`, `merged:…`).
 */
export function searchSetsState(q: SearchQuery): boolean {
  return q.qualifiers.some(
    (x) =>
      (x.key === "is" && ["open", "closed", "merged", "unmerged"].includes(x.value.toLowerCase())) ||
      x.key === "state" ||
      x.key === "closed" ||
      x.key === "merged"
  );
}
