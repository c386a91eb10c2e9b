import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { runSetState, STATE_ARGS } from "./_state.js";

export default defineCommand({
  meta: {
    name: "close",
    description: "Close issues",
    help: {
      reads: [
        [".forge/issues/<id>/issue.md", "the issue (+ comments/<id>.md)"],
        [".forge/labels.md, .forge/milestones.md", "label colours and milestone titles"],
      ],
      env: [
        ["FORGE_AUTHOR", "who it is recorded as (default: git's forge.login, else user.name); also what @me means"],
      ],
      examples: [
        'forge-issue close 12 -c "fixed in #4"',
        'forge-issue close 12 --reason "not planned"',
        "forge-issue list -l bug --json | forge-issue close -",
      ],
    },
  },
  args: {
    ...STATE_ARGS,
    reason: {
      type: "string",
      alias: "r",
      valueHint: "completed|not planned",
      description: 'why: completed or "not planned" (stateReason)',
    },
  },
  run: ({ args, data }: { args: Parsed; data: Ctx }) => runSetState(data, args, "closed"),
});
