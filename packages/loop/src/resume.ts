/** `forge-loop resume`: the same stateHash and promptHash as before the pause. */
import { controlVerb } from "./_control_verb.js";
import { resumeLoop } from "./engine.js";

export default controlVerb("resume", "Resume a paused or waiting loop; prints its prompt", {}, (lc, id) => resumeLoop(lc, id));
