import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { runSetState, STATE_ARGS } from "./_state.js";

export default defineCommand({
  meta: { name: "close", description: "Close pull requests (nothing is deleted)" },
  args: STATE_ARGS,
  run: ({ args, data }: { args: Parsed; data: Ctx }) => runSetState(data, args, "closed"),
});
