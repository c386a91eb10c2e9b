/** `forge-loop retry`: report the same logical round again after a rejection. */
import { roundVerb } from "./_round_verb.js";

export default roundVerb("retry", "Resubmit a rejected round (same round id, attempt + 1)");
