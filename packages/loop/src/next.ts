/** `forge-loop next`: report an accepted round's successor. */
import { roundVerb } from "./_round_verb.js";
import { MINIMAL_REPORT } from "./template.js";

export default roundVerb("next", "Submit a round report; claims are re-verified", {
  examples: [
    "forge-loop next 3f2a -F report.json",
    "cat report.json | forge-loop next 3f2a -F - --json decision,status,next",
    "forge-loop next 3f2a -F report.json --jq .next.prompt",
    "forge-loop report-template 3f2a > report.json",
  ],
  notes: [
    "The report is untrusted: the declared --check of each criterion claimed runs again (argv, no shell, in the " +
      "workspace) and ci:<step> claims are read",
    "from forge-ci's runs; a violation, a contradicted finding or unanswered drift rejects the attempt (use retry); " +
      "each rule escalates on its own: its second rejection is a guided retry, its third terminates the loop.",
    "Drift (an agentIntent naming nothing of the loop) is shown in the next prompt; answer it with work anchored to " +
      "an id or driftClarification {explanation, anchor: a live id or a workspace file}.",
    "objectiveRefinement is taken only when it names a live id or an evidence file; phaseBoundaryProposal only when " +
      "the round verified or completed something; contextRequest is shown in the next prompt once.",
    "An invalid report is one stderr line (invalid_round_report: …), exit 1, nothing written. Refused after a " +
      "rejection (use retry) and on a paused or waiting loop (resume).",
    "stderr: 'round N attempt A: <decision>; loop <status>'; stdout: the next round's prompt (--json: the " +
      "loop_result record forge-export imports).",
    `The smallest valid report: ${MINIMAL_REPORT}`,
    "A claim that a criterion is met: evidence.claims [{id, targetId: <criterion id>, evidenceRefs: [<its check>]}]; " +
      "forge-loop report-template <loop> prints one ready to fill.",
  ],
});
