/**
 * What every milestone verb shares: reading and rewriting `milestones.md`,
 * finding a milestone by title or number, checking titles and due dates, the
 * JSON model (GitHub's milestone fields) and the renderers.
 */
import {
  DefFile,
  isTimestamp,
  ISSUE,
  ISSUES,
  listEntityRefs,
  loadDefList,
  loadEntity,
  loadEntityFast,
  NotFoundError,
  openStore,
  UsageError,
  type Store,
} from "@forge/core";
import {
  paint,
  useColor,
  type Ctx,
  type FlagDef,
  type JsonRequest,
  type Parsed,
  type RenderOptions,
  jsonFlags,
  jsonRequestOf,
} from "@forge/cli";

/** A milestone as JSON (GitHub's milestone fields; keys sorted). */
export interface MilestoneJson {
  closed: boolean;
  closedIssues?: number;
  description: string;
  dueOn: string | null;
  /** The 1-based position in `milestones.md`. */
  number: number;
  openIssues?: number;
  state: "OPEN" | "CLOSED";
  title: string;
}

/** Every `--json` field of a milestone. */
export const MILESTONE_FIELDS: readonly string[] = [
  "closed",
  "closedIssues",
  "description",
  "dueOn",
  "number",
  "openIssues",
  "state",
  "title",
];

/** `milestones.md` being edited (see DefFile), looked up by title or number. */
export class MilestoneFile extends DefFile {
  /** Open the store and read `milestones.md` (absent: no milestones). */
  static async open(ctx: Ctx): Promise<MilestoneFile> {
    const store = openStore({ cwd: ctx.io.cwd, env: ctx.io.env });
    const f = new MilestoneFile(store, "milestones", await loadDefList(store, "milestones"));
    for (const w of f.list.warnings) ctx.log.warn(w);
    return f;
  }
  /**
   * The index a ref names: a title, else a number (`2` or `#2`, the position
   * in the file).
   * @throws NotFoundError
   */
  get(ref: string): number {
    const i = this.find(ref);
    if (i >= 0) return i;
    const n = /^#?([1-9][0-9]{0,8})$/.exec(ref);
    if (n && Number(n[1]) <= this.items.length) return Number(n[1]) - 1;
    throw new NotFoundError(`no milestone ${JSON.stringify(ref)}`);
  }
}

/** Issue counts per milestone title, live issues only. */
export type IssueCounts = Map<string, { open: number; closed: number }>;

/** A stored milestone as JSON; counts only when given. */
export function milestoneJson(m: Record<string, unknown>, index: number, counts?: IssueCounts): MilestoneJson {
  const closed = m.state === "closed";
  const title = String(m.title);
  const c = counts?.get(title);
  const out: MilestoneJson = {
    closed,
    closedIssues: c?.closed ?? 0,
    description: (m.description as string | undefined) ?? "",
    dueOn: (m.dueOn as string | undefined) ?? null,
    number: index + 1,
    openIssues: c?.open ?? 0,
    state: closed ? "CLOSED" : "OPEN",
    title,
  };
  if (!counts) {
    delete out.closedIssues;
    delete out.openIssues;
  }
  return out;
}

/**
 * Count the live issues of every milestone (archived issues do not count,
 * as GitHub does not count deleted ones). Each unreadable issue is reported
 * on stderr and counted in `failed`.
 */
export async function countIssues(ctx: Ctx, store: Store): Promise<{ counts: IssueCounts; failed: number }> {
  const counts: IssueCounts = new Map();
  let failed = 0;
  for (const ref of listEntityRefs(store, ISSUES)) {
    if (ref.archived) continue;
    try {
      const e = loadEntityFast(store, ISSUES, ISSUE, ref) ?? (await loadEntity(store, ISSUES, ISSUE, ref));
      const ms = e.data.milestone as string | undefined;
      if (ms === undefined) continue;
      const c = counts.get(ms) ?? { open: 0, closed: 0 };
      if (e.data.state === "closed") c.closed++;
      else c.open++;
      counts.set(ms, c);
    } catch (err) {
      failed++;
      ctx.log.error(err);
    }
  }
  return { counts, failed };
}

/** Whether a request needs the issue counts. */
export function wantsCounts(req: JsonRequest | null): boolean {
  return (
    req !== null && (req.fields === null || req.fields.includes("openIssues") || req.fields.includes("closedIssues"))
  );
}

// Control characters, and the separators YAML 1.1 or JavaScript read as line breaks.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * Check a milestone title: one line, no space at either end. Anything else,
 * YAML syntax included, is stored literally.
 * @throws UsageError
 */
export function checkTitle(title: string): string {
  if (title.trim() === "") throw new UsageError("milestone title must not be empty");
  if (CONTROL.test(title)) throw new UsageError("milestone title must be one line of printable text");
  if (title.trim() !== title) throw new UsageError("milestone title must not start or end with a space");
  return title;
}

/**
 * Check a description: one line of printable text.
 * @throws UsageError
 */
export function checkDescription(d: string): string {
  if (CONTROL.test(d)) throw new UsageError("milestone description must be one line of printable text");
  return d;
}

/**
 * A due date as stored: `YYYY-MM-DD` (or a full store timestamp) becomes
 * RFC 3339 at 00:00:00Z; `""` means none.
 * @throws UsageError for anything else, or a day that does not exist
 * @example parseDue("2026-03-01") // "2026-03-01T00:00:00Z"
 */
export function parseDue(s: string): string | undefined {
  if (s === "") return undefined;
  const ts = /^\d{4}-\d{2}-\d{2}$/.test(s) ? `${s}T00:00:00Z` : s;
  if (!isTimestamp(ts)) throw new UsageError(`invalid due date '${s.slice(0, 30)}' (YYYY-MM-DD)`);
  return ts;
}

/** `--json [fields]` and `--jq`, as gh spells them. */
export const JSON_FLAGS: Record<string, FlagDef> = jsonFlags(MILESTONE_FIELDS);

/** The JSON request from `--json`/`--jq` (`--jq` alone means every field). */
export function jsonRequest(args: Parsed): JsonRequest | null {
  return jsonRequestOf(args, MILESTONE_FIELDS);
}

/** A row: `#1 title due description` on a TTY, `1 STATE title due description` off it. */
export function milestoneRow(m: MilestoneJson, tty: boolean, color = false): string[] {
  const due = m.dueOn ? m.dueOn.slice(0, 10) : "";
  if (!tty) return [String(m.number), m.state, m.title, due, m.description];
  return [paint(`#${m.number}`, m.closed ? 35 : 32, color), m.title, due, m.description];
}

/** Render options for commands that print milestone records (writes print on stdout only with --json/--jq). */
export function milestoneRender(
  args: Parsed,
  req: JsonRequest | null,
  single: boolean,
  rows = false
): RenderOptions<MilestoneJson> {
  return {
    json: req,
    jq: args.jq as string | undefined,
    single,
    row: rows ? milestoneRow : undefined,
    header: ["ID", "TITLE", "DUE", "DESCRIPTION"],
  };
}

/** A confirmation line for stderr. */
export function confirm(ctx: Ctx, verb: string, m: MilestoneJson): void {
  const tick = useColor(ctx.io) ? "\x1b[32m✓\x1b[0m " : "";
  ctx.io.stderr.write(`${tick}${verb} milestone #${m.number} (${m.title})\n`);
}

/** One milestone's JSON for a write's output, with counts when the request needs them. */
export async function recordOf(
  ctx: Ctx,
  f: MilestoneFile,
  i: number,
  req: JsonRequest | null
): Promise<{ rec: MilestoneJson; failed: number }> {
  if (!wantsCounts(req)) return { rec: milestoneJson(f.items[i]!, i), failed: 0 };
  const { counts, failed } = await countIssues(ctx, f.store);
  return { rec: milestoneJson(f.items[i]!, i, counts), failed };
}
