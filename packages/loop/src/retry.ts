/** `forge-loop retry`: report the same logical round again after a rejection. */
import { roundVerb } from "./_round_verb.js";

export default roundVerb("retry", "Resubmit a rejected round (same round id, attempt + 1)", {
  examples: [
    "forge-loop retry 3f2a -F report.json",
    "cat report.json | forge-loop retry 3f2a -F - --json decision,reason,findings",
  ],
  notes: [
    "Only after the last attempt was rejected: the report answers the L0 prompt (the rejection reason and every " +
      "finding not verified), same roundId.",
    "Claims are re-verified as with next; rejections escalate per rule: a rule's second rejection of a round is a " +
      "guided retry, its third terminates the loop (repeated_contradictions / repeated_violations / repeated_drift).",
    "An invalid report is one stderr line (invalid_round_report: …), exit 1, nothing written.",
  ],
});
