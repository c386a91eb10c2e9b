/** `forge-loop pause`. */
import { controlVerb } from "./_control_verb.js";
import { pauseLoop } from "./engine.js";

export default controlVerb("pause", "Pause a loop before an interruption", {}, (lc, id) => pauseLoop(lc, id));
