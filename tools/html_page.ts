/**
 * The page of the `html` bench case: `checks` × `trials` made up
 * (@forge/html's fixture), rendered and written to FILE; prints the bytes.
 * `--floor`: makes the same input and writes nothing (the baseline).
 * Usage: html_page FILE CHECKS TRIALS [--floor]
 */
import { writeFileSync } from "node:fs";
import { renderReportPage } from "@forge/html";
import { manyChecks } from "@forge/html/fixture";

const [file, checks, trials, floor] = process.argv.slice(2);
const input = manyChecks(Number(checks ?? 100), Number(trials ?? 1000));
if (floor === "--floor") process.stdout.write(`${Object.keys(input.detail.outcomes).length}\n`);
else {
  const html = renderReportPage(input);
  writeFileSync(file!, html);
  process.stdout.write(`${Buffer.byteLength(html)}\n`);
}
