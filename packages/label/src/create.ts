import { ConflictError, type LabelDef } from "@forge/core";
import { defineCommand, emit, type Ctx, type Parsed } from "@forge/cli";
import {
  checkDescription,
  checkName,
  confirm,
  defaultColor,
  JSON_FLAGS,
  jsonRequest,
  LabelFile,
  labelItem,
  labelJson,
  labelRender,
  normColor,
} from "./_shared.js";

/** Options of `forge-label create`. */
export interface CreateLabelOptions {
  name: string;
  /** Stored form; gh's palette color picked from the name when none was given. */
  color: string;
  description: string;
  /** Update the label if it exists (gh `--force`). */
  force: boolean;
}

/**
 * argv → options.
 * @throws UsageError for a bad name, color or description
 */
export function parseCreateOptions(args: Parsed): CreateLabelOptions {
  const name = checkName(args.label as string);
  const color = args.color as string | undefined;
  return {
    name,
    color: color === undefined ? defaultColor(name) : normColor(color),
    description: checkDescription((args.description as string | undefined) ?? ""),
    force: args.force === true,
  };
}

/**
 * Append a label to `labels.md`; with `force`, an existing one (same name
 * but for case) gets the new color and description instead, as in gh.
 * @throws ConflictError when it exists and `force` is off
 */
export async function createLabel(ctx: Ctx, opts: CreateLabelOptions): Promise<LabelDef> {
  const f = await LabelFile.open(ctx);
  const i = f.find(opts.name);
  if (i >= 0 && !opts.force) {
    throw new ConflictError(
      `label with name ${JSON.stringify(String(f.items[i]!.name))} already exists; use --force to update its color ` +
        `and description`
    );
  }
  const item = labelItem(
    i >= 0 ? String(f.items[i]!.name) : opts.name,
    opts.color,
    opts.description,
    i >= 0 ? f.items[i] : {}
  );
  if (i >= 0) f.items[i] = item;
  else f.items.push(item);
  f.save();
  confirm(ctx, String(item.name), i >= 0 ? "updated" : "created");
  return labelJson(item);
}

export default defineCommand({
  meta: {
    name: "create",
    description: "Create a label",
    help: {
      reads: [[".forge/labels.md", "the label definitions"]],
      examples: [
        'forge-label create triage -c d73a4a -d "Needs a first look"',
        "forge-label create bug -c ff0000 --force",
      ],
    },
  },
  args: {
    label: {
      type: "positional",
      required: true,
      valueHint: "name",
      description: "the new label's name (unique ignoring case)",
    },
    color: { type: "string", alias: "c", description: "RRGGBB" },
    description: { type: "string", alias: "d", description: "a one-line description" },
    force: { type: "boolean", alias: "f", description: "update it if it exists" },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const rec = await createLabel(ctx, parseCreateOptions(args));
    await emit(ctx.io, ctx.out, [rec], labelRender(args, req, true));
  },
});
