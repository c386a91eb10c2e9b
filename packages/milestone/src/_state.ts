/**
 * close and reopen: the same change of `state`, in opposite directions.
 */
import { defineCommand, emit, type Ctx, type ForgeCommand, type Parsed } from "@forge/cli";
import { confirm, JSON_FLAGS, jsonRequest, MilestoneFile, milestoneRender, recordOf } from "./_shared.js";

/**
 * The close or reopen command. A milestone already in that state is left as
 * it is, with a note on stderr.
 */
export function stateCommand(to: "open" | "closed", description: string): ForgeCommand {
  return defineCommand({
    meta: {
      name: to === "closed" ? "close" : "reopen",
      description,
      help: {
        reads: [[".forge/milestones.md", "the milestone definitions"]],
        examples:
          to === "closed"
            ? ["forge-milestone close v1.2", "forge-milestone close 2"]
            : ["forge-milestone reopen v1.2", "forge-milestone reopen 2"],
      },
    },
    args: {
      milestone: {
        type: "positional",
        required: true,
        valueHint: "title|number",
        description: "a milestone: its title (exact, else any case) or number (2 or #2)",
      },
      ...JSON_FLAGS,
    },
    async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
      const req = jsonRequest(args);
      const f = await MilestoneFile.open(ctx);
      const i = f.get(args.milestone as string);
      const was = f.items[i]!.state === "closed" ? "closed" : "open";
      if (was !== to) {
        f.items[i] = { ...f.items[i]!, state: to };
        f.save();
      }
      const { rec, failed } = await recordOf(ctx, f, i, req);
      if (was === to) ctx.io.stderr.write(`! Milestone #${rec.number} (${rec.title}) is already ${to}\n`);
      else confirm(ctx, to === "closed" ? "Closed" : "Reopened", rec);
      await emit(ctx.io, ctx.out, [rec], milestoneRender(args, req, true));
      return failed ? 1 : 0;
    },
  });
}
