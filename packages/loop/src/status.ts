/** `forge-loop status`: read-only. */
import { controlVerb } from "./_control_verb.js";
import { statusRecord } from "./engine.js";
import { loadLoop } from "./store.js";

export default controlVerb(
  "status",
  "Show a loop's state and open prompt",
  {},
  async (lc, id) => {
    const l = await loadLoop(lc.store, id);
    return statusRecord(l.state, l.prompt, true, l.events);
  },
  {
    env: [],
    examples: [
      "forge-loop status 3f2a",
      "forge-loop status 3f2a --json status,round,attempt,awaiting,criteria",
      "forge-loop status 3f2a --jq .prompt",
    ],
    notes: [
      "Read-only: a loop_status record (status, round and attempt, prompt level, what it awaits, criteria verified, " +
        "open gates, hashes), then the open prompt.",
    ],
  }
);
