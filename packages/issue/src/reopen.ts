import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { runSetState, STATE_ARGS } from "./_state.js";

export default defineCommand({
  meta: {
    name: "reopen",
    description: "Reopen issues",
    help: {
      reads: [
        [".forge/issues/<id>/issue.md", "the issue (+ comments/<id>.md)"],
        [".forge/labels.md, .forge/milestones.md", "label colours and milestone titles"],
      ],
      env: [
        ["FORGE_AUTHOR", "who it is recorded as (default: git's forge.login, else user.name); also what @me means"],
      ],
      examples: ["forge-issue reopen 12", 'forge-issue reopen 12 -c "it is back"'],
    },
  },
  args: STATE_ARGS,
  run: ({ args, data }: { args: Parsed; data: Ctx }) => runSetState(data, args, "open"),
});
