import { UsageError, type LabelDef } from "@forge/core";
import { defineCommand, emit, type Ctx, type Parsed } from "@forge/cli";
import {
  checkDescription,
  checkName,
  confirm,
  JSON_FLAGS,
  jsonRequest,
  LabelFile,
  labelItem,
  labelJson,
  labelRender,
  normColor,
} from "./_shared.js";

/** Options of `forge-label edit`. */
export interface EditLabelOptions {
  name: string;
  newName?: string;
  color?: string;
  /** `""` removes the description. */
  description?: string;
}

/**
 * argv → options.
 * @throws UsageError when nothing would change or a value is bad
 */
export function parseEditOptions(args: Parsed): EditLabelOptions {
  const o: EditLabelOptions = {
    name: args.label as string,
    newName: args.name === undefined ? undefined : checkName(args.name as string),
    color: args.color === undefined ? undefined : normColor(args.color as string),
    description: args.description === undefined ? undefined : checkDescription(args.description as string),
  };
  if (o.newName === undefined && o.color === undefined && o.description === undefined) {
    throw new UsageError("specify at least one of --color, --description, or --name");
  }
  return o;
}

/**
 * Change a label's definition. A rename renames it on every issue and PR
 * that carries it too, as gh does (each file rewritten atomically).
 * @throws NotFoundError; ConflictError when the new name is taken
 */
export async function editLabel(ctx: Ctx, o: EditLabelOptions): Promise<LabelDef> {
  const f = await LabelFile.open(ctx);
  const i = f.get(o.name);
  const old = labelJson(f.items[i]!);
  if (o.newName !== undefined) f.checkFree(o.newName, i);
  const item = labelItem(o.newName ?? old.name, o.color ?? old.color, o.description ?? old.description, f.items[i]);
  if (item.color === "") delete item.color;
  f.items[i] = item;
  f.save();
  if (o.newName !== undefined && o.newName !== old.name) {
    const { renameLabelEverywhere } = await import("./_rename.js");
    const n = await renameLabelEverywhere(f.store, old.name, o.newName);
    if (n) ctx.io.stderr.write(`renamed on ${n} ${n === 1 ? "issue or pull request" : "issues and pull requests"}\n`);
  }
  confirm(ctx, old.name, "updated");
  return labelJson(item);
}

export default defineCommand({
  meta: {
    name: "edit",
    description: "Edit a label (a rename renames it on issues and PRs)",
    help: {
      reads: [
        [".forge/labels.md", "the label definitions"],
        [
          ".forge/issues/, .forge/prs/",
          "on a rename: every issue and PR carrying the label (each rewritten atomically)",
        ],
      ],
      examples: ["forge-label edit bug -n defect", 'forge-label edit bug -c 00ff00 -d "A defect"'],
    },
  },
  args: {
    label: {
      type: "positional",
      required: true,
      valueHint: "name",
      description: "the label to change (by name, any case)",
    },
    name: { type: "string", alias: "n", description: "new name" },
    color: { type: "string", alias: "c", description: "hex colour, e.g. d73a4a" },
    description: { type: "string", alias: "d", description: 'description ("" removes it)' },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const rec = await editLabel(ctx, parseEditOptions(args));
    await emit(ctx.io, ctx.out, [rec], labelRender(args, req, true));
  },
});
