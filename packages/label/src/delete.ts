import { UsageError } from "@forge/core";
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { removeLabelEverywhere } from "./_rename.js";
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
 * Delete a label as gh does: its definition leaves `labels.md`, then the
 * label leaves every issue and PR that carries it (each file rewritten on
 * its own, atomically; the definition goes first, so a stop half-way leaves
 * only labels no longer defined, which a second `delete` cannot reach but
 * `issue edit --remove-label` can).
 * @throws NotFoundError
 */
export async function deleteLabel(ctx: Ctx, opts: DeleteLabelOptions): Promise<void> {
  const f = await LabelFile.open(ctx);
  const i = f.get(opts.name);
  const [gone] = f.items.splice(i, 1);
  f.save();
  await removeLabelEverywhere(f.store, String(gone!.name));
  confirm(ctx, String(gone!.name), "deleted");
}

export default defineCommand({
  meta: {
    name: "delete",
    description: "Delete a label (it leaves every issue and PR, as in gh)",
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
