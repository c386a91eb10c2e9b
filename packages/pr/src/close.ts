import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { runSetState, STATE_ARGS } from "./_state.js";

export default defineCommand({
  meta: {
    name: "close",
    description: "Close pull requests (the store keeps them)",
    help: {
      reads: [[".forge/prs/<id>/pr.md", "the PR (+ patch.diff, reviews/, comments/)"]],
      env: [
        ["FORGE_AUTHOR", "who it is recorded as (default: git's forge.login, else user.name); also what @me means"],
      ],
      examples: ["forge-pr close 4", 'forge-pr close 4 -c "superseded by #5"', "forge-pr close 4 -d"],
    },
  },
  args: {
    ...STATE_ARGS,
    "delete-branch": { type: "boolean", alias: "d", description: "delete the local head branch after closing" },
  },
  run: ({ args, data }: { args: Parsed; data: Ctx }) => runSetState(data, args, "closed"),
});
