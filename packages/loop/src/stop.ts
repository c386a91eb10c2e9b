/** `forge-loop stop`: terminal. */
import { controlVerb } from "./_control_verb.js";
import { stopLoop } from "./engine.js";

export default controlVerb("stop", "Stop a loop for good", { reason: { type: "string", description: "why" } }, (lc, id, args) => stopLoop(lc, id, (args.reason as string | undefined) ?? null));
