import { defineCommand, type Ctx, type Parsed, REF_ARG } from "@forge/cli";
import { JSON_FLAGS } from "./_shared.js";
import { runMove } from "./move.js";

export default defineCommand({
  meta: {
    name: "done",
    description: "Move tasks to done (sets closedAt)",
    help: {
      reads: [[".forge/tasks/<id>/task.md", "the task (status: todo doing blocked done)"]],
      examples: ["forge-task done 3", "forge-task list -s doing --json | forge-task done -"],
    },
  },
  args: {
    ...REF_ARG,
    ...JSON_FLAGS,
  },
  run: ({ args, data }: { args: Parsed; data: Ctx }) =>
    runMove(data, args, { ref: args.ref as string, status: "done" }),
});
