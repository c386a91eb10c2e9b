/** `forge-loop status`: read-only. */
import { controlVerb } from "./_control_verb.js";
import { statusRecord } from "./engine.js";
import { loadLoop } from "./store.js";

export default controlVerb("status", "Show a loop's state and open prompt", {}, async (lc, id) => {
  const l = await loadLoop(lc.store, id);
  return statusRecord(l.state, l.prompt, true);
});
