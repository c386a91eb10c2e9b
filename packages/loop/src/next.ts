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
    "from forge-ci's runs; a violation or a contradicted finding rejects the attempt (use retry), the third " +
      "rejection of a round terminates the loop.",
    "An invalid report is one stderr line (invalid_round_report: …), exit 1, nothing written. Refused after a " +
      "rejection (use retry) and on a paused or waiting loop (resume).",
    "stderr: 'round N attempt A: <decision>; loop <status>'; stdout: the next round's prompt (--json: the " +
      "loop_result record forge-export imports).",
    `The smallest valid report: ${MINIMAL_REPORT}`,
    "A claim that a criterion is met: evidence.claims [{id, targetId: <criterion id>, evidenceRefs: [<its check>]}]; " +
      "forge-loop report-template <loop> prints one ready to fill.",
  ],
});
