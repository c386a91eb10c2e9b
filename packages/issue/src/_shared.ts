/**
 * What every issue verb shares: opening the store, resolving refs to loaded
 * issues with their numbers, the JSON model, the flags and the renderers.
 */
import {
  ISSUE,
  ISSUE_FIELDS,
  ISSUE_LINK_FIELDS,
  issueToJson,
  ISSUES,
  loadComments,
  type IssueGraph,
  type IssueJson,
  type LoadedEntity,
} from "@forge/core";
import {
  confirmWrite,
  jsonFlags,
  jsonRequestOf,
  NounStore,
  paint,
  writtenRenderOf,
  type Ctx,
  type FlagDef,
  type Io,
  type JsonRequest,
  type Parsed,
  type RenderOptions,
} from "@forge/cli";

/** The issue store: the shared noun layer plus issue JSON. */
export class Issues extends NounStore {
  constructor(io: Io) {
    super(io, ISSUES, ISSUE, "issue");
  }
  /** Resolve a ref and load the issue. */
  async get(ref: string): Promise<{ issue: LoadedEntity; number: number }> {
    const { entity, number } = await this.resolve(ref);
    return { issue: entity, number };
  }
  /** The gh-shaped JSON of a loaded issue. */
  async json(issue: LoadedEntity, number: number, withComments: boolean): Promise<IssueJson> {
    const comments = withComments ? await loadComments(this.store, issue) : undefined;
    return issueToJson(issue, number, await this.defs(), comments);
  }
}

/** Every field `--json` takes: gh's issue fields and the link fields (given only when named). */
const ALL_FIELDS: readonly string[] = [...ISSUE_FIELDS, ...ISSUE_LINK_FIELDS].sort();

/** `--json [fields]` and `--jq`, as gh spells them. */
export const JSON_FLAGS: Record<string, FlagDef> = jsonFlags(ALL_FIELDS);

/** The JSON request from `--json`/`--jq` (`--jq` alone means every field). */
export function jsonRequest(args: Parsed): JsonRequest | null {
  return jsonRequestOf(args, ALL_FIELDS);
}

/** Whether the request names a link field (blockedBy, blocking, parent, subIssues, subIssuesSummary). */
export function wantsLinks(req: JsonRequest | null): boolean {
  return !!req?.fields?.some((f) => ISSUE_LINK_FIELDS.includes(f));
}

/** A record with its link fields, as GitHub's GraphQL shapes them. */
export function withLinks(r: IssueJson, g: IssueGraph, baseUrl: string | undefined): IssueJson {
  return { ...r, ...g.json(r.id, baseUrl ?? "") } as IssueJson;
}

/** Whether the request needs comments loaded. */
export function wantsComments(req: JsonRequest | null, byDefault: boolean): boolean {
  if (!req) return false;
  return req.fields ? req.fields.includes("comments") : byDefault;
}

/** The fields a list row shows (`issueRow`): a table is written from the record cache with these alone. */
export const ISSUE_ROW_FIELDS = ["labels", "number", "state", "title", "updatedAt"] as const;

/**
 * A list row: `#12 title labels updated` on a TTY (coloured unless NO_COLOR), `12 STATE title labels updated` off it.
 */
export function issueRow(
  i: Pick<IssueJson, (typeof ISSUE_ROW_FIELDS)[number]>,
  tty: boolean,
  color = false
): string[] {
  const labels = i.labels.map((l) => l.name).join(", ");
  if (!tty) return [String(i.number), i.state, i.title, labels, i.updatedAt];
  return [paint(`#${i.number}`, i.state === "OPEN" ? 32 : 35, color), i.title, labels, i.updatedAt];
}

/** Render options for commands that print issue records. */
export function issueRender(args: Parsed, req: JsonRequest | null, single: boolean): RenderOptions<IssueJson> {
  return {
    json: req,
    jq: args.jq as string | undefined,
    single,
    row: issueRow,
    header: ["ID", "TITLE", "LABELS", "UPDATED"],
  };
}

/** Render options for a verb that writes: records only with --json/--jq (the confirmation goes to stderr). */
export function writtenRender(args: Parsed, req: JsonRequest | null): RenderOptions<IssueJson> {
  return writtenRenderOf(issueRender(args, req, args.ref !== "-"));
}

/** A confirmation line for stderr (gh prints these there, never on stdout). */
export function confirm(ctx: Ctx, verb: string, i: IssueJson): void {
  confirmWrite(ctx, verb, "issue", i);
}

/** The body from `--body` or `--body-file` (shared with every noun). */
export { listArg, readBody } from "@forge/cli";
