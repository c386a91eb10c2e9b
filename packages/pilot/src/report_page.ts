/**
 * `forge-pilot report`: the last run's report again, as text, as its JSON
 * line, or (`--html`) as one page with the evidence behind it: the
 * observation forge-observe writes (the lines the text report's findings
 * are made from), the trials in order (@forge/observation's detail), the
 * run's trace and halt, and the findings word for word (spec/html.md).
 */
import { ForgeError } from "@forge/core";
import { renderReportPage } from "@forge/html";
import { evidenceDetail } from "@forge/observation";
import { findings } from "./findings.js";
import type { LoopConfig } from "./flags.js";
import { VERSION } from "./help.js";
import { readLastRun } from "./last_run.js";
import { formatReport } from "./report.js";
import { issueNumbers, observe } from "./stages.js";
import type { Tools } from "./tools.js";

/**
 * The report as `c` asks for it.
 * @throws ForgeError when no run was kept and the text or JSON report is asked for
 */
export async function reportText(tools: Tools, c: LoopConfig, env: NodeJS.ProcessEnv): Promise<string> {
  const last = readLastRun(c.workspace);
  if (!c.html) {
    if (!last) throw new ForgeError("no run kept yet (.forge/pilot/report.json): run 'forge-pilot run' first");
    return c.json ? JSON.stringify(last.report) + "\n" : formatReport(last.report);
  }
  const [obs, numbers] = await Promise.all([observe(tools, c), issueNumbers(tools)]);
  const detail = evidenceDetail(c.workspace, env, c.scope);
  const rep = last?.report ?? null;
  return renderReportPage({
    title: `forge-pilot report: scope ${c.scope}`,
    lines: obs,
    detail,
    forge_version: VERSION,
    issue_numbers: Object.fromEntries(numbers),
    loop: {
      halt: rep ? { reason: String(rep.halt_reason), detail: rep.halt_detail } : null,
      summary: rep ? (formatReport(rep).split("\n")[1] ?? null) : null,
      trace: last?.trace ?? [],
      // The text report's words; with no run kept, the same function on the observation as it is.
      findings: rep ? rep.findings : findings(obs, [], [], numbers),
    },
  });
}
