/** `forge-loop next`: report an accepted round's successor. */
import { roundVerb } from "./_round_verb.js";

export default roundVerb("next", "Submit a round report; claims are re-verified");
