import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { runLogs } from "@forge/runner";
import { RUNS_READ } from "./_shared.js";

export default defineCommand({
  meta: {
    name: "log",
    description: "Print a run's step logs",
    help: {
      reads: RUNS_READ,
      examples: ["forge-ci log 3", "forge-ci log 3 20-test", "forge-ci log 3 | grep -i error"],
    },
  },
  args: {
    run: {
      type: "positional",
      required: true,
      valueHint: "run",
      description: "a run: its number, or its id or an id prefix",
    },
    step: {
      type: "positional",
      valueHint: "step",
      description:
        "one step's log as written (NN-name); none: every step's, each line led by the step's name and a tab",
    },
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    for await (const chunk of runLogs(ctx, args.run as string, args.step as string | undefined)) {
      if (typeof chunk === "string") await ctx.out.write(chunk);
      else await ctx.out.writeBytes(chunk);
      if (ctx.out.closed) break;
    }
    await ctx.out.flush();
  },
});
