/**
 * What every issue verb shares: opening the store, resolving refs to loaded
 * issues with their numbers, the JSON model, the flags and the renderers.
 */
import {
  entityOrder, ISSUE, ISSUE_FIELDS, issueToJson, ISSUES, loadComments, loadEntity, loadLabelDefs, loadMilestoneDefs, openStore,
  repoWebUrl, resolveRef, type IssueContext, type IssueJson, type LoadedEntity, type Order, type Store,
} from "@forge/core";
import { paint, useColor, type Ctx, type FlagDef, type Io, type JsonRequest, type Parsed, type RenderOptions, jsonFlags, jsonRequestOf } from "@forge/cli";

/** An open issue store with lazily loaded order and definitions. */
export class Issues {
  readonly store: Store;
  #order: Order | undefined;
  #defs: IssueContext | undefined;
  constructor(io: Io) {
    this.store = openStore({ cwd: io.cwd, env: io.env });
  }
  /** The ranked issues with the ones that could not be ranked. */
  async ranked(): Promise<Order> {
    return (this.#order ??= await entityOrder(this.store, ISSUES, ISSUE));
  }
  /** Label and milestone definitions. */
  async defs(): Promise<IssueContext> {
    return (this.#defs ??= {
      labels: await loadLabelDefs(this.store), milestones: await loadMilestoneDefs(this.store), baseUrl: await repoWebUrl(this.store.root, this.store.root),
    });
  }
  /** Resolve a ref and load the issue. */
  async get(ref: string): Promise<{ issue: LoadedEntity; number: number }> {
    const order = await this.ranked();
    // An id of an unreadable issue gets that file's error, not "no issue matches".
    const r = resolveRef(order, ref, "issue", order.errors);
    return { issue: await loadEntity(this.store, ISSUES, ISSUE, r.ref), number: r.number };
  }
  /** The gh-shaped JSON of a loaded issue. */
  async json(issue: LoadedEntity, number: number, withComments: boolean): Promise<IssueJson> {
    const comments = withComments ? await loadComments(this.store, issue) : undefined;
    return issueToJson(issue, number, await this.defs(), comments);
  }
}

/** `--json [fields]` and `--jq`, as gh spells them. */
export const JSON_FLAGS: Record<string, FlagDef> = jsonFlags(ISSUE_FIELDS);

/** The JSON request from `--json`/`--jq` (`--jq` alone means every field). */
export function jsonRequest(args: Parsed): JsonRequest | null {
  return jsonRequestOf(args, ISSUE_FIELDS);
}

/** Whether the request needs comments loaded. */
export function wantsComments(req: JsonRequest | null, byDefault: boolean): boolean {
  if (!req) return false;
  return req.fields ? req.fields.includes("comments") : byDefault;
}

/** A list row: `#12 title labels updated` on a TTY (coloured unless NO_COLOR), `12 STATE title labels updated` off it. */
export function issueRow(i: IssueJson, tty: boolean, color = false): string[] {
  const labels = i.labels.map((l) => l.name).join(", ");
  if (!tty) return [String(i.number), i.state, i.title, labels, i.updatedAt];
  return [paint(`#${i.number}`, i.state === "OPEN" ? 32 : 35, color), i.title, labels, i.updatedAt];
}

/** Render options for commands that print issue records. */
export function issueRender(args: Parsed, req: JsonRequest | null, single: boolean): RenderOptions<IssueJson> {
  return { json: req, jq: args.jq as string | undefined, single, row: issueRow, header: ["ID", "TITLE", "LABELS", "UPDATED"] };
}

/** Render options for a verb that writes: records only with --json/--jq (the confirmation goes to stderr). */
export function writtenRender(args: Parsed, req: JsonRequest | null): RenderOptions<IssueJson> {
  return { ...issueRender(args, req, args.ref !== "-"), row: undefined };
}

/** A confirmation line for stderr (gh prints these there, never on stdout). */
export function confirm(ctx: Ctx, verb: string, i: IssueJson): void {
  const tick = useColor(ctx.io) ? "\x1b[32m✓\x1b[0m " : "";
  ctx.io.stderr.write(`${tick}${verb} issue #${i.number} (${i.title})\n`);
}

/** The body from `--body` or `--body-file` (shared with every noun). */
export { listArg, readBody } from "@forge/cli";

