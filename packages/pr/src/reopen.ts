import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { runSetState, STATE_ARGS } from "./_state.js";

export default defineCommand({
  meta: {
    name: "reopen",
    description: "Reopen closed pull requests",
    help: {
      reads: [[".forge/prs/<id>/pr.md", "the PR (+ patch.diff, reviews/, comments/)"]],
      env: [
        ["FORGE_AUTHOR", "who it is recorded as (default: git's forge.login, else user.name); also what @me means"],
      ],
      examples: ["forge-pr reopen 4", 'forge-pr reopen 4 -c "back on"'],
    },
  },
  args: STATE_ARGS,
  run: ({ args, data }: { args: Parsed; data: Ctx }) => runSetState(data, args, "open"),
});
