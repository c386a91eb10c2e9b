import { defineCommand, type Ctx, type Parsed, REF_ARG } from "@forge/cli";
import { JSON_FLAGS } from "./_shared.js";
import { runMove } from "./move.js";

export default defineCommand({
  meta: { name: "done", description: "Move tasks to done (sets closedAt)" },
  args: {
    ...REF_ARG,
    ...JSON_FLAGS,
  },
  run: ({ args, data }: { args: Parsed; data: Ctx }) => runMove(data, args, { ref: args.ref as string, status: "done" }),
});
