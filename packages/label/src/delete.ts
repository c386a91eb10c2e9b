import { UsageError } from "@forge/core";
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { confirm, LabelFile } from "./_shared.js";

/** Options of `forge-label delete`. */
export interface DeleteLabelOptions {
  name: string;
}

/**
 * argv → options. There is no prompt, so `--yes` is always required (gh
 * requires it whenever it cannot prompt).
 * @throws UsageError without --yes
 */
export function parseDeleteOptions(args: Parsed): DeleteLabelOptions {
  if (args.yes !== true) throw new UsageError("--yes required to delete a label");
  return { name: args.label as string };
}

/**
 * Remove a label's definition from `labels.md`. Issues and PRs that carry
 * the label keep it (as text, with no color or description).
 * @throws NotFoundError
 */
export async function deleteLabel(ctx: Ctx, opts: DeleteLabelOptions): Promise<void> {
  const f = await LabelFile.open(ctx);
  const i = f.get(opts.name);
  const [gone] = f.items.splice(i, 1);
  f.save();
  confirm(ctx, String(gone!.name), "deleted");
}

export default defineCommand({
  meta: {
    name: "delete",
    description: "Delete a label definition (issues keep the label)",
    help: {
      reads: [[".forge/labels.md", "the label definitions"]],
      examples: [
        "forge-label delete wontfix --yes",
        "forge-label list -S old --json name --jq '.[].name' | xargs -n1 forge-label delete --yes",
      ],
    },
  },
  args: {
    label: {
      type: "positional",
      required: true,
      valueHint: "name",
      description: "the label to delete (by name, any case)",
    },
    yes: { type: "boolean", description: "confirm" },
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    await deleteLabel(ctx, parseDeleteOptions(args));
  },
});
