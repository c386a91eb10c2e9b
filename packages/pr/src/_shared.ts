/**
 * What every pr verb shares: opening the store, resolving refs to loaded
 * pull requests with their numbers, the JSON model with the parts each
 * request needs (reviews, comments, the patch's stat), the flags and the
 * renderers.
 */
import {
  entityOrder,
  ISSUE,
  ISSUES,
  loadEntity,
  NotFoundError,
  UsageError,
  loadPrComments,
  loadReviews,
  MERGE_FIELDS,
  PATCH_FIELDS,
  patchCommits,
  patchStat,
  PR,
  PR_FIELDS,
  printable,
  prToJson,
  PRS,
  readPatch,
  resolveRef,
  REVIEW_FIELDS,
  type LoadedEntity,
  type PrJson,
  type PrParts,
} from "@forge/core";
import {
  confirmWrite,
  NounStore,
  paint,
  writtenRenderOf,
  type Ctx,
  type FlagDef,
  type Io,
  type JsonRequest,
  type Parsed,
  type RenderOptions,
  jsonFlags,
  jsonRequestOf,
} from "@forge/cli";

/** Which parts of a PR's JSON to load besides pr.md. */
export interface Want {
  reviews: boolean;
  comments: boolean;
  /** The patch's files, additions, deletions and commits. */
  stat: boolean;
  /** `mergeable` / `mergeStateStatus` (git checks the patch on the base's tip). */
  merge?: boolean;
  /** `mergeCommit`, from the merge records. */
  mergeCommit?: boolean;
}

/** Everything: what `view` shows. */
export const ALL: Want = { reviews: true, comments: true, stat: true, merge: true, mergeCommit: true };
/** Nothing beyond pr.md: what a human list row shows. */
export const NONE: Want = { reviews: false, comments: false, stat: false };

/** The PR store: the shared noun layer plus issue numbers, merge records and PR JSON. */
export class Prs extends NounStore {
  #issueNumbers: Map<string, number> | undefined;
  #mergeCommits: Map<string, string> | undefined;
  constructor(io: Io) {
    super(io, PRS, PR, "pull request");
  }
  /** Resolve a ref and load the PR. */
  async get(ref: string): Promise<{ pr: LoadedEntity; number: number }> {
    const { entity, number } = await this.resolve(ref);
    return { pr: entity, number };
  }
  /** The commit forge-merge made for this PR, if it merged it. */
  async mergeCommitOf(pr: LoadedEntity): Promise<string | null> {
    const { mergeCommits } = await import("./_mergeable.js");
    this.#mergeCommits ??= await mergeCommits(this.store);
    return this.#mergeCommits.get(pr.ref.id) ?? null;
  }
  /** Resolve an issue ref (for `--issue`) to its id. */
  async issueId(ref: string): Promise<string> {
    const order = await entityOrder(this.store, ISSUES, ISSUE);
    return resolveRef(order, ref, "issue", order.errors).ref.id;
  }
  /** The issue with number `n`, if there is one. */
  async issueByNumber(n: number): Promise<string | undefined> {
    const order = await entityOrder(this.store, ISSUES, ISSUE);
    return n >= 1 ? order.at(n - 1)?.ref.id : undefined;
  }
  /** Issue id → number, read only when a PR closes an issue. */
  async issueNumbers(pr: LoadedEntity): Promise<Map<string, number>> {
    if ((pr.data.closes as string[]).length === 0) return this.#issueNumbers ?? new Map();
    return (this.#issueNumbers ??= await this.#allIssueNumbers());
  }
  async #allIssueNumbers(): Promise<Map<string, number>> {
    const order = await entityOrder(this.store, ISSUES, ISSUE);
    return new Map(order.entries.map((e, i) => [e.ref.id, i + 1]));
  }
  /** `closingIssuesReferences`' JSON text for these issue ids, numbered as the issues are now (a cached record's). */
  async closingText(ids: readonly string[]): Promise<string> {
    if (ids.length === 0) return "[]";
    const numbers = (this.#issueNumbers ??= await this.#allIssueNumbers());
    return JSON.stringify(ids.map((id) => ({ id, number: numbers.get(id) ?? null })));
  }
  /** `mergeCommit`'s JSON text for a PR id (a cached record's), from the merge records read once. */
  async mergeCommitText(): Promise<(id: string) => string> {
    const { mergeCommits } = await import("./_mergeable.js");
    const merged = (this.#mergeCommits ??= await mergeCommits(this.store));
    return (id) => {
      const oid = merged.get(id);
      return oid === undefined ? "null" : JSON.stringify({ oid });
    };
  }
  /**
   * The gh-shaped JSON of a loaded PR with the parts asked for.
   * @throws InvalidFileError for a bad review, comment or patch file
   */
  async json(pr: LoadedEntity, number: number, want: Want): Promise<PrJson> {
    const parts: PrParts = {};
    if (want.reviews) parts.reviews = await loadReviews(this.store, pr);
    if (want.comments) parts.comments = await loadPrComments(this.store, pr);
    if (want.stat || want.merge) {
      const bytes = readPatch(this.store, pr);
      if (want.stat) {
        const text = bytes.toString("utf8");
        parts.stat = patchStat(text);
        parts.commits = patchCommits(text);
      }
      if (want.merge) {
        const { mergeableOf } = await import("./_mergeable.js");
        parts.merge = await mergeableOf(this.cwd, pr, bytes);
        if (!parts.reviews) parts.reviews = await loadReviews(this.store, pr);
      }
    }
    if (want.mergeCommit) parts.mergeCommit = await this.mergeCommitOf(pr);
    const defs = await this.defs();
    return prToJson(pr, number, { ...defs, issueNumbers: await this.issueNumbers(pr) }, parts);
  }
}

/** `--json [fields]` and `--jq`, as gh spells them. */
export const JSON_FLAGS: Record<string, FlagDef> = jsonFlags(PR_FIELDS);

/** The JSON request from `--json`/`--jq` (`--jq` alone means every field). */
export function jsonRequest(args: Parsed): JsonRequest | null {
  return jsonRequestOf(args, PR_FIELDS);
}

/**
 * The parts a JSON request needs. Without a field list every part is
 * loaded, except comments unless `comments` says so (gh's rule for lists).
 */
export function wanted(req: JsonRequest | null, comments: boolean): Want {
  if (!req) return NONE;
  const f = req.fields;
  if (!f) return { reviews: true, comments, stat: true, merge: comments, mergeCommit: true };
  return {
    reviews: f.some((x) => REVIEW_FIELDS.includes(x)),
    comments: f.includes("comments"),
    stat: f.some((x) => PATCH_FIELDS.includes(x)),
    merge: f.some((x) => MERGE_FIELDS.includes(x)),
    mergeCommit: f.includes("mergeCommit"),
  };
}

/**
 * The fields of `list --json` without a field list: all but the costly ones gh makes you name (comments, the merge
 * check).
 */
export const LIST_DEFAULT_FIELDS: readonly string[] = PR_FIELDS.filter(
  (f) => f !== "comments" && !MERGE_FIELDS.includes(f)
);

/** gh's state word for a row: drafts show as DRAFT. */
export function stateWord(p: PrJson): string {
  return p.isDraft && p.state === "OPEN" ? "DRAFT" : p.state;
}

const COLORS: Record<string, number> = { OPEN: 32, DRAFT: 90, MERGED: 35, CLOSED: 31 };

/** A list row: number, state, CI verdict, title, branch (`#12` and colour on a TTY). */
export function prRow(p: PrJson, tty: boolean, color = false): string[] {
  const state = stateWord(p);
  if (!tty) return [String(p.number), state, p.ci ?? "", p.title, p.headRefName];
  return [paint(`#${p.number}`, COLORS[state] ?? 0, color), state, p.ci ?? "-", p.title, p.headRefName];
}

/** Render options for commands that print PR records. */
export function prRender(args: Parsed, req: JsonRequest | null, single: boolean): RenderOptions<PrJson> {
  return {
    json: req,
    jq: args.jq as string | undefined,
    single,
    row: prRow,
    header: ["ID", "STATE", "CI", "TITLE", "BRANCH"],
  };
}

/** Render options for a verb that writes: records only with --json/--jq (the confirmation goes to stderr). */
export function writtenRender(args: Parsed, req: JsonRequest | null): RenderOptions<PrJson> {
  return writtenRenderOf(prRender(args, req, args.ref !== "-"));
}

/** A confirmation line for stderr (gh prints these there, never on stdout). */
export function confirm(ctx: Ctx, verb: string, p: { number: number; title: string }): void {
  confirmWrite(ctx, verb, "pull request", p);
}

/** A note for stderr, when nothing needed doing. */
export function note(ctx: Ctx, text: string): void {
  ctx.io.stderr.write(`! ${text}\n`);
}

/** The body from `--body` or `--body-file` (shared with every noun). */
export { listArg, readBody } from "@forge/cli";

/** Text safe to quote in a one-line message: core's `printable` at the cap of a name, 60 characters. */
export function shown(s: string): string {
  return printable(s, 60);
}

/**
 * The PR a verb names, or with no ref the PR of the current branch, as gh
 * picks it: the open one first, then the newest.
 * @throws UsageError on a detached HEAD; NotFoundError when the branch has no PR
 */
export async function prOrCurrent(prs: Prs, ref: string | undefined): Promise<string> {
  if (ref !== undefined) return ref;
  const { currentBranch } = await import("./_git.js");
  const branch = await currentBranch(prs.cwd);
  const order = await prs.ranked();
  let best: { n: number; open: boolean } | undefined;
  for (let i = order.length - 1; i >= 0; i--) {
    const r = order.at(i)!.ref;
    if (r.archived) continue;
    const e = await loadEntity(prs.store, PRS, PR, r);
    if (e.data.headRefName !== branch) continue;
    const open = e.data.state === "open";
    if (!best || (open && !best.open)) best = { n: i + 1, open };
    if (open) break;
  }
  if (!best) throw new NotFoundError(`no pull requests found for branch "${shown(branch)}"`);
  return String(best.n);
}

/**
 * gh: with `--repo`, a verb that would pick the current branch's PR needs
 * the PR named (the branch belongs to this checkout, not to the repo flag).
 * @throws UsageError
 */
export function refWithRepo(args: Parsed): void {
  if (args.ref === undefined && typeof args.repo === "string")
    throw new UsageError("argument required when using the --repo flag");
}
