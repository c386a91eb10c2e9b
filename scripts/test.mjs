// Run ava with TAP output, echo it, and end with one plain line:
// "N passed, N failed[, N skipped]" (ava leaves out the passed count when
// something fails). Exits with ava's exit code.
import { spawn } from "node:child_process";

const args = ["--tap", ...process.argv.slice(2)];
const child = spawn(
  process.execPath,
  [new URL("../node_modules/ava/entrypoints/cli.mjs", import.meta.url).pathname, ...args],
  {
    stdio: ["ignore", "pipe", "inherit"],
  }
);
let pass = 0,
  fail = 0,
  skip = 0,
  rest = "";
child.stdout.on("data", (d) => {
  process.stdout.write(d);
  rest += d.toString();
  const lines = rest.split("\n");
  rest = lines.pop();
  for (const l of lines) count(l);
});
function count(l) {
  if (/^ok \d+/.test(l)) /# SKIP/i.test(l) ? skip++ : pass++;
  else if (/^not ok \d+/.test(l)) /# TODO/i.test(l) ? skip++ : fail++;
}
child.on("close", (code) => {
  if (rest) count(rest);
  console.log(`${pass} passed, ${fail} failed${skip ? `, ${skip} skipped` : ""}`);
  process.exitCode = code ?? 1;
});
