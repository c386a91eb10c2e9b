// Run ava with TAP output, echo it, and end with one plain line that tells the whole run:
//   "N passed, N failed[, N skipped][, M files not run][, M files not finished][, timed out]
//    [, runner crashed: <one line>]"
// ava's TAP stream does not say which test files ran, so this script works it out: it selects the test
// files as ava does (the config's `files` globs, narrowed by the file arguments), and a file counts as
// started when a test line carries its title prefix (ava prefixes "dir › file › " once there are two files
// or more). ava ends a whole run with a plan ("1..N") and a summary; a stream without them, a plan that
// does not match the test lines, or a non-zero exit without a failed test is a crash of ava's runner or
// reporter (a crash on a 120 s timeout once left 46 of 50 files unrun behind "1148 passed, 1 failed").
// Exits non-zero whenever the last line names a problem; otherwise with ava's exit code.
import { spawn } from "node:child_process";
import { relative, sep } from "node:path";

const ava = new URL("../node_modules/ava/", import.meta.url);
const argv = process.argv.slice(2);
// ava's flags that take a value in the next argument; everything else not starting with "-" is a file pattern.
const valued = new Set(["--match", "-m", "--timeout", "-T", "--concurrency", "-c", "--config", "--node-arguments"]);
const patterns = [];
let configFile;
let matching = false;
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === "--") continue;
  if (a.startsWith("-")) {
    const name = a.split("=")[0];
    if (name === "--match" || name === "-m") matching = true;
    if (name === "--config") configFile = a.includes("=") ? a.slice(a.indexOf("=") + 1) : argv[i + 1];
    if (valued.has(a)) i++;
  } else patterns.push(a);
}

/** The test files ava will run, as ava selects them (lib/cli.js and lib/api.js); null when that cannot be told. */
async function selectedFiles() {
  try {
    const { loadConfig } = await import(new URL("lib/load-config.js", ava));
    const globs = await import(new URL("lib/globs.js", ava));
    const { config: conf } = await loadConfig({ configFile });
    const extensions = conf.extensions ?? ["cjs", "mjs", "js"];
    const normalized = globs.normalizeGlobs({ files: conf.files, extensions, providers: [] });
    const cwd = conf.projectDir;
    const testFiles = await globs.findTests({ cwd, ...normalized });
    if (patterns.length === 0) return testFiles;
    const filter = patterns.map((p) =>
      globs.normalizePattern(relative(cwd, new URL(p.replace(/:[\d,-]+$/, ""), `file://${process.cwd()}/`).pathname))
    );
    return globs.applyTestFileFilter({ cwd, filter, testFiles });
  } catch {
    return null;
  }
}

/** The title prefix ava's TAP reporter gives each file's tests (lib/reporters/prefix-title.js). */
function titlePrefixes(files) {
  if (files.length < 2) return files.map(() => "");
  const dirs = files.map((f) => f.split(sep).slice(0, -1));
  let common = dirs[0].length;
  for (const d of dirs) {
    let i = 0;
    while (i < common && d[i] === dirs[0][i]) i++;
    common = i;
  }
  return files.map((f) => {
    const parts = f
      .split(sep)
      .slice(common)
      .filter((p) => p !== "__tests__");
    const name = parts
      .pop()
      .replace(/\.spec\./, ".")
      .replace(/\.test\./, ".")
      .replace(/test-/, "")
      .replace(/\.(cjs|mjs|js)$/, "");
    return [...parts, name, ""].join(" › ");
  });
}

const files = await selectedFiles();
const prefixes = files ? titlePrefixes(files) : [];
const started = new Set();
const unfinished = new Set();

const child = spawn(process.execPath, [new URL("entrypoints/cli.mjs", ava).pathname, "--tap", ...argv], {
  stdio: ["ignore", "pipe", "pipe"],
});
let pass = 0,
  fail = 0,
  skip = 0,
  lines = 0,
  plan = null,
  summary = false,
  timedOut = false,
  rest = "",
  errRest = "";
function count(l) {
  const test = /^(not )?ok \d+(?: - (.*))?/.exec(l);
  if (test) {
    lines++;
    if (!test[1]) /# SKIP/i.test(l) ? skip++ : pass++;
    else /# TODO/i.test(l) ? skip++ : fail++;
    const title = test[2] ?? "";
    prefixes.forEach((p, i) => {
      if (title.startsWith(p)) started.add(i);
    });
  } else if (/^1\.\.\d+$/.test(l)) plan = Number(l.slice(3));
  else if (/^# (tests|pass|fail) \d+$/.test(l)) summary = true;
  else if (/no new tests completed within the last \d+ms/.test(l)) timedOut = true;
  else {
    const remaining = /^# \d+ tests? remaining in (.+)$/.exec(l);
    if (remaining) unfinished.add(remaining[1]);
  }
}
child.stdout.on("data", (d) => {
  process.stdout.write(d);
  rest += d.toString();
  const split = rest.split("\n");
  rest = split.pop();
  for (const l of split) count(l);
});
// stderr is echoed; its first error line (else its last line) names a crash.
let firstError = "",
  lastErr = "";
function errLine(l) {
  const t = l.trim();
  if (!t) return;
  lastErr = t;
  if (!firstError && /^(\w*Error|✘)(:|\s|$)/.test(t)) firstError = t;
  // ava 7's TAP reporter throws while it reports a timeout (writeTimeout hands dumpError a plain Error).
  if (/\bTapReporter\.writeTimeout\b/.test(t)) timedOut = true;
}
child.stderr.on("data", (d) => {
  process.stderr.write(d);
  errRest += d.toString();
  const split = errRest.split("\n");
  errRest = split.pop();
  for (const l of split) errLine(l);
});
child.on("close", (code, signal) => {
  if (rest) count(rest);
  if (errRest) errLine(errRest);
  const parts = [`${pass} passed`, `${fail} failed`];
  if (skip) parts.push(`${skip} skipped`);
  const notRun = files && !matching ? files.length - started.size : 0;
  if (notRun > 0) parts.push(`${notRun} ${notRun === 1 ? "file" : "files"} not run`);
  if (unfinished.size > 0) parts.push(`${unfinished.size} ${unfinished.size === 1 ? "file" : "files"} not finished`);
  if (timedOut) parts.push("timed out");
  let crash = "";
  if (signal) crash = `ava killed by ${signal}`;
  else if (plan === null || !summary) crash = "the TAP stream ended without its plan and summary";
  else if (plan !== lines) crash = `the plan says ${plan} tests, the stream reported ${lines}`;
  else if (code !== 0 && fail === 0) crash = `ava exited ${code} with no failed test`;
  if (files === null) crash ||= "the test files could not be listed (ava's config or globs)";
  const said = firstError || lastErr;
  if (crash) parts.push(`runner crashed: ${said && !signal && plan === null ? said : crash}`.slice(0, 200));
  console.log(parts.join(", "));
  const problem = notRun > 0 || unfinished.size > 0 || timedOut || crash !== "";
  process.exitCode = problem ? code || 1 : (code ?? 1);
});
