/** `forge-loop stop`: terminal. */
import { controlVerb } from "./_control_verb.js";
import { stopLoop } from "./engine.js";

export default controlVerb(
  "stop",
  "Stop a loop for good",
  {
    reason: {
      type: "string",
      valueHint: "text",
      description: "why it stops: stopReason becomes user_stop: <text> (default: none, user_stop)",
    },
  },
  (lc, id, args) => stopLoop(lc, id, (args.reason as string | undefined) ?? null),
  {
    examples: ["forge-loop stop 3f2a", 'forge-loop stop 3f2a --reason "goal dropped" --json status,stopReason'],
    notes: [
      "Terminal: decision stopped, no more rounds (resume refuses); the files stay for status, history and audit, " +
        "and list shows it only with --all.",
    ],
  }
);
