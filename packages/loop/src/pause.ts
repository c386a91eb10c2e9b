/** `forge-loop pause`. */
import { controlVerb } from "./_control_verb.js";
import { pauseLoop } from "./engine.js";

export default controlVerb("pause", "Pause a loop before an interruption", {}, (lc, id) => pauseLoop(lc, id), {
  examples: ["forge-loop pause 3f2a", "forge-loop pause 3f2a --json status,stateHash,promptHash"],
  notes: [
    "From active, waiting or waiting_for_user: status paused, the open round and its prompt kept as they are; resume " +
      "brings back the same stateHash and promptHash.",
  ],
});
