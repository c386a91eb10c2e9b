
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { runSetState, STATE_ARGS } from "./_state.js";

export default defineCommand({
  meta: { name: "close", description: "Close issues" },
  args: { ...STATE_ARGS, reason: { type: "string", alias: "r", valueHint: "completed|not planned", description: "why: completed or \"not planned\" (stateReason)" } },
  run: ({ args, data }: { args: Parsed; data: Ctx }) => runSetState(data, args, "closed"),
});
