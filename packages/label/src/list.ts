import { UsageError, type LabelDef } from "@forge/core";
import { defineCommand, emit, type Ctx, type Parsed } from "@forge/cli";
import { JSON_FLAGS, jsonRequest, LabelFile, labelJson, labelRow } from "./_shared.js";

/** Options of `forge-label list`. */
export interface ListLabelOptions {
  search?: string;
  /** `created`: the order of `labels.md` (labels are appended as they are made). */
  sort: "created" | "name";
  order: "asc" | "desc";
  limit: number;
}

/**
 * argv → options (gh's rules: `--sort`/`--order` do not go with `--search`).
 * @throws UsageError for a bad --limit or a clash
 */
export function parseListOptions(args: Parsed): ListLabelOptions {
  const raw = (args.limit as string | undefined) ?? "30";
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1)
    throw new UsageError(`invalid limit '${raw.slice(0, 20)}' (a positive integer)`);
  const search = args.search as string | undefined;
  if (search !== undefined && (args.sort !== undefined || args.order !== undefined)) {
    throw new UsageError("cannot specify --order or --sort with --search");
  }
  return {
    search,
    sort: (args.sort as ListLabelOptions["sort"] | undefined) ?? "created",
    order: (args.order as ListLabelOptions["order"] | undefined) ?? "asc",
    limit: Number(raw),
  };
}

/**
 * The labels, at most `limit`. Sorted like gh: by creation (the file's
 * order) or by name, ascending or descending; a search matches names and
 * descriptions, case-insensitively, best match first (the name itself, then
 * names, then descriptions).
 */
export async function listLabels(ctx: Ctx, opts: ListLabelOptions): Promise<LabelDef[]> {
  const all = (await LabelFile.open(ctx)).items.map(labelJson);
  let out: LabelDef[];
  if (opts.search !== undefined) {
    const q = opts.search.toLowerCase();
    const rank = (l: LabelDef): number =>
      l.name.toLowerCase() === q
        ? 0
        : l.name.toLowerCase().includes(q)
          ? 1
          : l.description.toLowerCase().includes(q)
            ? 2
            : 3;
    out = all
      .map((l, i) => ({ l, i, r: rank(l) }))
      .filter((x) => x.r < 3)
      .sort((a, b) => a.r - b.r || a.i - b.i)
      .map((x) => x.l);
  } else {
    out = opts.sort === "name" ? all.sort((a, b) => byName(a.name, b.name)) : all;
    if (opts.order === "desc") out.reverse();
  }
  return out.slice(0, opts.limit);
}

/** Case-insensitive, then exact, by UTF-16 code units (never the locale, so every machine agrees). */
function byName(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

export default defineCommand({
  meta: {
    name: "list",
    description: "List labels",
    help: {
      reads: [[".forge/labels.md", "the label definitions"]],
      examples: [
        "forge-label list",
        "forge-label list --sort name --order desc",
        "forge-label list -S doc --json name,color",
      ],
    },
  },
  args: {
    search: { type: "string", alias: "S", description: "only labels whose name or description contains this" },
    sort: {
      type: "enum",
      options: ["created", "name"],
      default: "created",
      description: "order by creation (labels.md order) or by name",
    },
    order: { type: "enum", options: ["asc", "desc"], default: "asc", description: "ascending or descending" },
    limit: { type: "string", alias: "L", description: "max (30)" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const labels = await listLabels(ctx, parseListOptions(args));
    await emit(ctx.io, ctx.out, labels, {
      json: req,
      jq: args.jq as string | undefined,
      row: labelRow,
      header: ["NAME", "DESCRIPTION", "COLOR"],
    });
  },
});
