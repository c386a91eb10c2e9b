/** `forge-loop resume`: the same stateHash and promptHash as before the pause. */
import { controlVerb } from "./_control_verb.js";
import { resumeLoop } from "./engine.js";

export default controlVerb(
  "resume",
  "Resume a paused or waiting loop; prints its prompt",
  {},
  (lc, id) => resumeLoop(lc, id),
  {
    examples: [
      "forge-loop resume 3f2a",
      "forge-loop resume 3f2a --json status,stateHash,promptHash",
      "forge-loop resume 3f2a --jq .prompt",
    ],
    notes: [
      "From paused, waiting or waiting_for_user: status active, the same stateHash and promptHash as before; the " +
        "prompt is rebuilt from the state",
      "and a prompt that does not rebuild to the stored bytes is storage_corruption (exit 1). Prints the status " +
        "lines, then the open prompt.",
    ],
  }
);
