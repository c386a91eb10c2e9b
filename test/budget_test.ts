/**
 * DESIGN §6 budgets, counted on the real output of the built executables:
 * help and `--skill` sizes (and their golden text), one stderr line and the
 * right exit code for every kind of error, and `list --json` as exactly one
 * line per entity.
 */
import test, { type ExecutionContext } from "ava";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launcherCommand } from "@forge/core";
import { GOLDEN, run, tempRepo, type Ran } from "./lib/run.js";

const VERBS = ["create", "list", "view", "comment", "close", "reopen", "edit", "archive", "status"];
const PR_VERBS = [
  "create",
  "list",
  "view",
  "diff",
  "review",
  "comment",
  "close",
  "reopen",
  "checkout",
  "edit",
  "update",
  "archive",
  "merge",
  "ready",
  "checks",
  "status",
];

/** Lines and bytes of a text, counting `\n`-terminated lines. */
function measure(s: string): { lines: number; bytes: number } {
  return { lines: s.split("\n").length - (s.endsWith("\n") ? 1 : 0), bytes: Buffer.byteLength(s) };
}

/** Compare with `test/golden/<rel>`, or write it when UPDATE_GOLDEN=1. */
function golden(t: ExecutionContext, rel: string, actual: string): void {
  const path = join(GOLDEN, rel);
  if (process.env.UPDATE_GOLDEN === "1") {
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, actual);
  }
  t.is(actual, readFileSync(path, "utf8"), `differs from test/golden/${rel} (UPDATE_GOLDEN=1 rewrites it)`);
}

// --- help and --skill ---

interface HelpCase {
  argv: [string, ...string[]];
  lines: number;
  bytes: number;
  /** Golden file under test/golden/help/. */
  file: string;
}

const ROOT = { lines: 12, bytes: 300 };
const SUB = { lines: 8, bytes: 250 };

const HELP: HelpCase[] = [
  { argv: ["forge"], ...ROOT, file: "forge.txt" },
  { argv: ["forge", "-h"], ...ROOT, file: "forge.txt" },
  { argv: ["forge", "--help"], ...ROOT, file: "forge.txt" },
  { argv: ["forge", "--skill"], lines: 30, bytes: 1000, file: "forge-skill.txt" },
  { argv: ["forge", "init", "-h"], ...SUB, file: "forge-init.txt" },
  { argv: ["forge", "sync", "-h"], ...SUB, file: "forge-sync.txt" },
  { argv: ["forge-issue"], ...SUB, file: "forge-issue.txt" },
  { argv: ["forge-issue", "-h"], ...SUB, file: "forge-issue.txt" },
  { argv: ["forge", "issue", "-h"], ...SUB, file: "forge-issue.txt" },
  ...VERBS.flatMap((v): HelpCase[] => [{ argv: ["forge-issue", v, "-h"], ...SUB, file: `forge-issue-${v}.txt` }]),
  { argv: ["forge", "issue", "list", "-h"], ...SUB, file: "forge-issue-list.txt" },
  { argv: ["forge-pr"], ...SUB, file: "forge-pr.txt" },
  { argv: ["forge-pr", "-h"], ...SUB, file: "forge-pr.txt" },
  { argv: ["forge", "pr", "-h"], ...SUB, file: "forge-pr.txt" },
  ...PR_VERBS.flatMap((v): HelpCase[] => [{ argv: ["forge-pr", v, "-h"], ...SUB, file: `forge-pr-${v}.txt` }]),
  { argv: ["forge", "pr", "diff", "-h"], ...SUB, file: "forge-pr-diff.txt" },
  { argv: ["forge-export", "-h"], ...SUB, file: "forge-export.txt" },
  { argv: ["forge-observe", "-h"], ...SUB, file: "forge-observe.txt" },
  { argv: ["forge", "observe", "-h"], ...SUB, file: "forge-observe.txt" },
  { argv: ["forge-plan", "-h"], ...SUB, file: "forge-plan.txt" },
];

// A verb's --help is the full page (test/help_full_test.ts); -h is the budgeted one.

/** The other nouns' verbs: every one has help within the budget, with a golden. */
const NOUN_VERBS: Record<string, string[]> = {
  task: ["create", "list", "view", "move", "done", "edit", "archive"],
  label: ["list", "create", "edit", "delete"],
  milestone: ["list", "create", "edit", "close", "reopen"],
  wiki: ["get", "put", "list"],
  release: ["create", "list", "view", "verify", "activate", "rollback"],
  ci: ["run", "list", "view", "log", "rerun", "cancel", "adapter", "emit"],
  run: ["list", "view", "rerun", "watch", "cancel"],
  merge: ["pr", "import"],
};
for (const [noun, verbs] of Object.entries(NOUN_VERBS)) {
  HELP.push(
    { argv: [`forge-${noun}`], ...SUB, file: `forge-${noun}.txt` },
    { argv: ["forge", noun, "-h"], ...SUB, file: `forge-${noun}.txt` }
  );
  for (const v of verbs) HELP.push({ argv: [`forge-${noun}`, v, "-h"], ...SUB, file: `forge-${noun}-${v}.txt` });
}

for (const h of HELP) {
  // A verb's `--help` is the full page (DESIGN §6: every flag described); `-h` is the budgeted one.
  const full =
    (h.argv.length > 2 && h.argv[h.argv.length - 1] === "--help") ||
    (h.argv[0] === "forge-export" && h.argv[1] === "--help");
  const within = full ? " (the full page)" : ` within ${h.lines} lines and ${h.bytes} bytes`;
  test(`'${h.argv.join(" ")}' prints help${within} on stdout, exit 0`, async (t) => {
    const r = await run(h.argv[0], h.argv.slice(1), { cwd: tmpdir() });
    t.is(r.code, 0, r.stderr);
    t.is(r.stderr, "", "help goes to stdout only");
    t.true(r.stdout.endsWith("\n"));
    const m = measure(r.stdout);
    if (!full) {
      t.true(m.lines <= h.lines, `${m.lines} lines > ${h.lines}`);
      t.true(m.bytes <= h.bytes, `${m.bytes} bytes > ${h.bytes}`);
    }
    golden(t, `help/${full ? h.file.replace(/\.txt$/, ".full.txt") : h.file}`, r.stdout);
  });
}

test("every forge-issue verb has help and the root help names them all", async (t) => {
  const r = await run("forge-issue", ["-h"], { cwd: tmpdir() });
  for (const v of VERBS) t.true(r.stdout.includes(` ${v}`), `root help misses ${v}`);
});

test("every forge-pr verb has help and the root help names them all", async (t) => {
  const r = await run("forge-pr", ["-h"], { cwd: tmpdir() });
  for (const v of PR_VERBS) t.true(r.stdout.includes(` ${v}`), `root help misses ${v}`);
});

for (const [noun, verbs] of Object.entries(NOUN_VERBS)) {
  test(`forge-${noun}'s root help names exactly its verbs`, async (t) => {
    const r = await run(`forge-${noun}`, ["-h"], { cwd: tmpdir() });
    t.regex(r.stdout, new RegExp(`^commands: ${verbs.join(" ")}$`, "m"));
  });
}

// --- errors: one stderr line, the right exit code ---

interface ErrorCase {
  name: string;
  argv: [string, ...string[]];
  code: 1 | 2;
  /** The stderr line's prefix. */
  prog: string;
  /** Words the line must contain. */
  has?: string[];
  /** Where to run: a store with one issue (default) or a folder with no store. */
  where?: "store" | "nostore";
}

const ERRORS: ErrorCase[] = [
  {
    name: "an unknown flag",
    argv: ["forge-issue", "list", "--bogus"],
    code: 2,
    prog: "forge-issue list",
    has: ["--bogus"],
  },
  {
    name: "an unknown short flag",
    argv: ["forge-issue", "view", "1", "-z"],
    code: 2,
    prog: "forge-issue view",
    has: ["-z"],
  },
  { name: "an unknown flag before the verb", argv: ["forge-issue", "--bogus"], code: 2, prog: "forge-issue" },
  { name: "an unknown flag to forge", argv: ["forge", "--bogus"], code: 2, prog: "forge" },
  { name: "an unknown flag to forge init", argv: ["forge", "init", "--bogus"], code: 2, prog: "forge" },
  {
    name: "an unknown flag through the dispatcher",
    argv: ["forge", "issue", "list", "--bogus"],
    code: 2,
    prog: "forge-issue list",
  },
  { name: "an unknown verb", argv: ["forge-issue", "frob"], code: 2, prog: "forge-issue", has: ["frob"] },
  { name: "an unknown noun", argv: ["forge", "frob"], code: 2, prog: "forge", has: ["frob"] },
  ...["view", "comment", "close", "reopen", "edit", "archive"].map((v): ErrorCase => ({
    name: `a missing ref to ${v}`,
    argv: ["forge-issue", v],
    code: 2,
    prog: `forge-issue ${v}`,
    has: ["missing"],
  })),
  {
    name: "an extra argument",
    argv: ["forge-issue", "list", "extra"],
    code: 2,
    prog: "forge-issue list",
    has: ["extra"],
  },
  {
    name: "a bad enum value",
    argv: ["forge-issue", "list", "--state", "weird"],
    code: 2,
    prog: "forge-issue list",
    has: ["weird", "open|closed|all"],
  },
  {
    name: "a flag missing its value",
    argv: ["forge-issue", "list", "--limit"],
    code: 2,
    prog: "forge-issue list",
    has: ["--limit"],
  },
  {
    name: "a short flag missing its value",
    argv: ["forge-issue", "create", "-t"],
    code: 2,
    prog: "forge-issue create",
    has: ["-t"],
  },
  { name: "a bad --limit", argv: ["forge-issue", "list", "-L", "0"], code: 2, prog: "forge-issue list" },
  {
    name: "an unknown --json field",
    argv: ["forge-issue", "list", "--json", "badfield"],
    code: 2,
    prog: "forge-issue list",
    has: ["badfield", "available", "title", "labels"],
  },
  {
    name: "an unknown field in a --json list",
    argv: ["forge-issue", "view", "1", "--json", "title,nope"],
    code: 2,
    prog: "forge-issue view",
    has: ["nope", "available"],
  },
  {
    name: "an unknown issue number",
    argv: ["forge-issue", "view", "99"],
    code: 1,
    prog: "forge-issue view",
    has: ["#99"],
  },
  {
    name: "an unknown id prefix",
    argv: ["forge-issue", "close", "abcdef12"],
    code: 1,
    prog: "forge-issue close",
    has: ["abcdef12"],
  },
  { name: "a malformed ref", argv: ["forge-issue", "view", "zz"], code: 2, prog: "forge-issue view" },
  {
    name: "a jq syntax error",
    argv: ["forge-issue", "list", "--jq", ".[] |||"],
    code: 1,
    prog: "forge-issue list",
    has: ["jq"],
  },
  {
    name: "a bad task status",
    argv: ["forge-task", "move", "1", "closed"],
    code: 2,
    prog: "forge-task move",
    has: ["closed", "todo|doing|blocked|done"],
  },
  { name: "an unknown task", argv: ["forge-task", "view", "9"], code: 1, prog: "forge-task view", has: ["#9"] },
  {
    name: "an unknown label",
    argv: ["forge-label", "delete", "nope", "--yes"],
    code: 1,
    prog: "forge-label delete",
    has: ["nope"],
  },
  {
    name: "a bad label color",
    argv: ["forge-label", "create", "x", "-c", "red"],
    code: 2,
    prog: "forge-label create",
    has: ["red"],
  },
  {
    name: "an unknown milestone",
    argv: ["forge-milestone", "close", "v9"],
    code: 1,
    prog: "forge-milestone close",
    has: ["v9"],
  },
  {
    name: "a bad due date",
    argv: ["forge-milestone", "create", "v9", "--due", "soon"],
    code: 2,
    prog: "forge-milestone create",
    has: ["soon"],
  },
  {
    name: "an unknown --json field of a task",
    argv: ["forge-task", "list", "--json", "state"],
    code: 2,
    prog: "forge-task list",
    has: ["state", "status"],
  },
  {
    name: "not being in a store (task list)",
    argv: ["forge-task", "list"],
    code: 1,
    prog: "forge-task list",
    where: "nostore",
  },
  {
    name: "not being in a store (label create)",
    argv: ["forge-label", "create", "x"],
    code: 1,
    prog: "forge-label create",
    where: "nostore",
  },
  {
    name: "not being in a store (milestone list)",
    argv: ["forge-milestone", "list"],
    code: 1,
    prog: "forge-milestone list",
    where: "nostore",
  },
  {
    name: "not being in a store (list)",
    argv: ["forge-issue", "list"],
    code: 1,
    prog: "forge-issue list",
    has: ["forge init"],
    where: "nostore",
  },
  {
    name: "not being in a store (create)",
    argv: ["forge-issue", "create", "-t", "x"],
    code: 1,
    prog: "forge-issue create",
    where: "nostore",
  },
  { name: "an unknown flag", argv: ["forge-pr", "list", "--bogus"], code: 2, prog: "forge-pr list", has: ["--bogus"] },
  { name: "an unknown verb", argv: ["forge-pr", "frob"], code: 2, prog: "forge-pr", has: ["frob"] },
  // `view` (and checks, merge, ready) without a ref pick the current branch's PR, as gh does.
  ...["diff", "review", "comment", "close", "reopen", "checkout", "edit", "update", "archive"].map((v): ErrorCase => ({
    name: `a missing ref to ${v}`,
    argv: ["forge-pr", v],
    code: 2,
    prog: `forge-pr ${v}`,
    has: ["missing"],
  })),
  { name: "an unknown PR number", argv: ["forge-pr", "view", "9"], code: 1, prog: "forge-pr view", has: ["#9"] },
  {
    name: "an unknown --json field",
    argv: ["forge-pr", "list", "--json", "badfield"],
    code: 2,
    prog: "forge-pr list",
    has: ["badfield", "available"],
  },
  {
    name: "a bad PR state",
    argv: ["forge-pr", "list", "-s", "weird"],
    code: 2,
    prog: "forge-pr list",
    has: ["open|closed|merged|all"],
  },
  { name: "a review without a kind", argv: ["forge-pr", "review", "1"], code: 2, prog: "forge-pr review" },
  {
    name: "a head branch with no commit",
    argv: ["forge-pr", "create", "-t", "x", "-H", "main"],
    code: 1,
    prog: "forge-pr create",
  },
  { name: "an unknown flag", argv: ["forge-export", "--bogus"], code: 2, prog: "forge-export", has: ["--bogus"] },
  {
    name: "an argument other than -",
    argv: ["forge-export", "runs.json"],
    code: 2,
    prog: "forge-export",
    has: ["runs.json"],
  },
  {
    name: "not being in a store (export)",
    argv: ["forge-export"],
    code: 1,
    prog: "forge-export",
    has: ["forge init"],
    where: "nostore",
  },
  { name: "an unknown flag", argv: ["forge-observe", "--bogus"], code: 2, prog: "forge-observe", has: ["--bogus"] },
  { name: "a bad scope", argv: ["forge-observe", "--scope", "a b"], code: 2, prog: "forge-observe", has: ["scope"] },
  {
    name: "not being in a store (observe)",
    argv: ["forge-observe"],
    code: 1,
    prog: "forge-observe",
    has: ["forge init"],
    where: "nostore",
  },
  { name: "an unknown command", argv: ["forge-plan", "frob"], code: 2, prog: "forge-plan", has: ["frob"] },
  { name: "a bad --now", argv: ["forge-plan", "--now", "yesterday"], code: 2, prog: "forge-plan", has: ["yesterday"] },
  { name: "an unknown flag", argv: ["forge-merge", "1", "--bogus"], code: 2, prog: "forge-merge pr", has: ["--bogus"] },
  { name: "a malformed PR ref", argv: ["forge-merge", "frob"], code: 2, prog: "forge-merge pr", has: ["frob"] },
  { name: "an unknown PR number", argv: ["forge-merge", "9"], code: 1, prog: "forge-merge pr", has: ["#9"] },
  {
    name: "a missing source to import",
    argv: ["forge-merge", "import"],
    code: 2,
    prog: "forge-merge import",
    has: ["missing"],
  },
  {
    name: "not being in a store (merge)",
    argv: ["forge-merge", "1"],
    code: 1,
    prog: "forge-merge pr",
    has: ["forge init"],
    where: "nostore",
  },
  {
    name: "not being in a store (pr list)",
    argv: ["forge-pr", "list"],
    code: 1,
    prog: "forge-pr list",
    has: ["forge init"],
    where: "nostore",
  },
];

let store: Promise<string> | undefined;
/** One shared store with one issue, made once (tests run concurrently). */
function storeWithOneIssue(): Promise<string> {
  return (store ??= (async () => {
    const dir = tempRepo("forge-budget-");
    const c = await run("forge-issue", ["create", "-t", "one"], { cwd: dir });
    if (c.code !== 0) throw new Error(c.stderr);
    return dir;
  })());
}

function assertErrorBudget(t: ExecutionContext, r: Ran, e: ErrorCase): void {
  t.is(r.signal, null);
  t.is(r.code, e.code, r.stderr);
  t.is(r.stdout, "", "errors print nothing on stdout");
  t.true(r.stderr.endsWith("\n"));
  t.is(measure(r.stderr).lines, 1, JSON.stringify(r.stderr));
  t.true(r.stderr.startsWith(`${e.prog}: `), r.stderr);
  t.false(/^\s+at /m.test(r.stderr), "stack trace");
  for (const w of e.has ?? []) t.true(r.stderr.includes(w), `${w} not in ${r.stderr}`);
}

for (const e of ERRORS) {
  test(`${e.argv.join(" ")}: ${e.name} is one stderr line and exit ${e.code}`, async (t) => {
    const cwd = e.where === "nostore" ? mkdtempSync(join(tmpdir(), "forge-nostore-")) : await storeWithOneIssue();
    assertErrorBudget(t, await run(e.argv[0], e.argv.slice(1), { cwd }), e);
  });
}

// --- list --json: one line per entity, nothing else ---

test("forge-issue list --json prints exactly one JSON object per line per issue and nothing else", async (t) => {
  const cwd = tempRepo("forge-budget-");
  const created = [
    ["create", "-t", "plain"],
    ["create", "-t", "multi-line body", "-b", "line 1\nline 2\n\n---\nnot: frontmatter\n"],
    ["create", "-t", 'quotes " and \\ and \t tab', "-l", "bug,help wanted", "-a", "@me"],
    ["create", "-t", "ünïcödé ✓", "-b", "\u2028 separators \u2029"],
  ];
  for (const argv of created) t.is((await run("forge-issue", argv, { cwd })).code, 0);
  t.is((await run("forge-issue", ["close", "1"], { cwd })).code, 0);
  for (const args of [["--state", "all", "--json"], ["--state", "all", "--json", "body,title,labels"], ["--json"]]) {
    const r = await run("forge-issue", ["list", ...args], { cwd });
    t.is(r.code, 0, r.stderr);
    t.is(r.stderr, "");
    const n = args.includes("all") ? created.length : created.length - 1;
    t.true(r.stdout.endsWith("\n"));
    const rows = r.stdout.slice(0, -1).split("\n");
    t.is(rows.length, n, `list ${args.join(" ")}: ${rows.length} lines for ${n} issues`);
    for (const row of rows) {
      const v: unknown = JSON.parse(row);
      t.true(v !== null && typeof v === "object" && !Array.isArray(v), row);
    }
  }
});

test("forge-task, forge-label and forge-milestone list --json print one JSON object per line per entity", async (t) => {
  const cwd = tempRepo("forge-budget-");
  for (const title of ["a", "multi\nline body", 'quotes " \\ and \t tab']) {
    t.is((await run("forge-task", ["create", "-t", title.split("\n")[0]!, "-b", title], { cwd })).code, 0);
    t.is((await run("forge-label", ["create", "--", title.replace(/\s+/g, "-")], { cwd })).code, 0);
    t.is((await run("forge-milestone", ["create", "--", title.replace(/\s+/g, "-")], { cwd })).code, 0);
  }
  for (const noun of ["task", "label", "milestone"]) {
    const r = await run(`forge-${noun}`, ["list", "--json"], { cwd });
    t.is(r.code, 0, r.stderr);
    t.is(r.stderr, "");
    const rows = r.stdout.slice(0, -1).split("\n");
    // A store starts with GitHub's 9 default labels.
    t.is(rows.length, noun === "label" ? 12 : 3, `${noun}: ${r.stdout}`);
    for (const row of rows) t.false(Array.isArray(JSON.parse(row)));
  }
});

test("a list or view into a pipe loads neither Node's net nor child_process (stdout is fd 1)", async (t) => {
  const cwd = tempRepo("forge-budget-");
  t.is((await run("forge-issue", ["create", "-t", "one"], { cwd })).code, 0);
  // A preload that writes, at exit, the built-in modules loaded after it (the launcher's and the bundle's).
  const probe = join(cwd, "probe.cjs");
  writeFileSync(
    probe,
    "const seen = new Set(process.moduleLoadList);\n" +
      "process.on('exit', () => require('fs').writeFileSync(process.env.PROBE_OUT, " +
      "process.moduleLoadList.filter((m) => !seen.has(m)).join('\\n')));\n"
  );
  for (const argv of [
    ["list", "--json"],
    ["view", "1"],
    ["list", "-s", "all"],
  ]) {
    const loaded = join(cwd, `loaded-${argv[0]}`);
    // GIT_CONFIG_NOSYSTEM moves where git looks: origin is asked of git each run (core's origin_cache).
    const env = { NODE_OPTIONS: `--require ${probe}`, PROBE_OUT: loaded, GIT_CONFIG_NOSYSTEM: undefined };
    // The second run: the first may build the caches (and ask git for the origin once).
    for (let i = 0; i < 2; i++) {
      const r = await run("forge-issue", argv, { cwd, env });
      t.is(r.code, 0, r.stderr);
      t.true(r.stdout.includes("one"), r.stdout);
    }
    const mods = readFileSync(loaded, "utf8").split("\n");
    t.true(mods.includes("NativeModule vm"), "the probe sees the launcher's modules");
    t.false(mods.includes("NativeModule net"), `${argv.join(" ")}: net loaded`);
    t.false(mods.includes("NativeModule child_process"), `${argv.join(" ")}: child_process loaded`);
  }
});

test("forge-issue list --json prints nothing and exits 0 when nothing matches", async (t) => {
  const cwd = tempRepo("forge-budget-");
  const r = await run("forge-issue", ["list", "--json"], { cwd });
  t.is(r.code, 0, r.stderr);
  t.is(r.stdout, "");
  t.is(r.stderr, "");
});

test("forge-pr list --json prints exactly one JSON object per line per PR and nothing else", async (t) => {
  const cwd = tempRepo("forge-budget-");
  const git = (...a: string[]) => run("git", a, { cwd });
  writeFileSync(join(cwd, "a.txt"), "a\n");
  await git("add", "a.txt");
  await git("commit", "-qm", "a");
  const titles = ["plain", 'quotes " and \\ and \t tab', "ünïcödé ✓"];
  for (const [i, title] of titles.entries()) {
    await git("checkout", "-qb", `b${i}`, "main");
    writeFileSync(join(cwd, `f${i}.txt`), "line 1\nline 2\n\n---\nnot: frontmatter\n");
    await git("add", `f${i}.txt`);
    await git("commit", "-qm", `c${i}`);
    const c = await run("forge-pr", ["create", "-t", title, "-b", "line 1\nline 2\n\u2028\n---\n"], { cwd });
    t.is(c.code, 0, c.stderr);
  }
  for (const args of [
    ["--json"],
    ["--json", "body,title,files,reviews"],
    ["--state", "all", "--json", "comments,number"],
  ]) {
    const r = await run("forge-pr", ["list", ...args], { cwd });
    t.is(r.code, 0, r.stderr);
    t.is(r.stderr, "");
    const rows = r.stdout.slice(0, -1).split("\n");
    t.is(rows.length, titles.length, `list ${args.join(" ")}`);
    for (const row of rows) t.true(typeof JSON.parse(row) === "object", row);
  }
});

// --- the launchers' cached help (scripts/bundle.mjs) ---

test("every launcher's cached help and version text is exactly what its bundle prints for that argv", async (t) => {
  const { readdirSync: ls } = await import("node:fs");
  const bin = join(GOLDEN, "..", "..", "bin");
  let checked = 0;
  for (const name of ls(bin).filter((n) => n.startsWith("forge"))) {
    const src = readFileSync(join(bin, name), "utf8");
    const m = /^const t = (\{.*\})\[process\.argv/m.exec(src);
    t.truthy(m, `${name}: no cached table`);
    const table = JSON.parse(m![1]!) as Record<string, string>;
    t.true(Object.keys(table).includes("--help"), `${name}: --help is cached`);
    for (const [key, text] of Object.entries(table)) {
      const argv = key === "" ? [] : key.split("\0");
      const r = await run(process.execPath, [join(bin, "lib", `${name}.cjs`), ...argv], { cwd: tmpdir() });
      t.is(r.code, 0);
      t.is(text, r.stdout, `${name} ${argv.join(" ")}`);
      checked++;
    }
  }
  t.true(checked > 50, `only ${checked} cached forms`);
});

test("every launcher's code cache is accepted for its bundle, and a launcher without one runs the same", async (t) => {
  const { readdirSync: ls, copyFileSync } = await import("node:fs");
  const bin = join(GOLDEN, "..", "..", "bin");
  const names = ls(bin).filter((n) => n.startsWith("forge"));
  // The producer compiled the same wrapped source under the node flags of the launcher's #! line (none, for most):
  // V8 takes the cache under those flags (a stale one is removed with its bundle).
  const check =
    'const f = process.argv[1], { Script } = require("vm"), fs = require("fs");' +
    "const s = new Script(require('module').wrap(fs.readFileSync(f, 'utf8')), " +
    "{ filename: f, cachedData: fs.readFileSync(f.slice(0, -4) + '.v8') });" +
    "process.stdout.write(String(s.cachedDataRejected));";
  for (const name of names) {
    const flags = launcherCommand(join(bin, name), [], {})!.args.slice(0, -1);
    const r = await run(process.execPath, [...flags, "-e", check, join(bin, "lib", `${name}.cjs`)], { cwd: tmpdir() });
    t.is(r.stdout, "false", `${name} under ${flags.join(" ") || "no flags"}: ${r.stderr}`);
  }
  // The same answer (and error) with the cache and without it: a copy of the launcher beside a bundle with no cache.
  const dir = mkdtempSync(join(tmpdir(), "forge-v8-"));
  mkdirSync(join(dir, "lib"));
  copyFileSync(join(bin, "lib", "forge-issue.cjs"), join(dir, "lib", "forge-issue.cjs"));
  copyFileSync(join(bin, "lib", "engine.cjs"), join(dir, "lib", "engine.cjs"));
  copyFileSync(join(bin, "forge-issue"), join(dir, "forge-issue"));
  const repo = tempRepo();
  t.is((await run(join(bin, "forge-issue"), ["create", "-t", "one"], { cwd: repo })).code, 0);
  for (const argv of [
    ["list", "--json", "number,title"],
    ["view", "1"],
    ["view", "9"],
  ]) {
    const a = await run(join(bin, "forge-issue"), argv, { cwd: repo });
    const b = await run(process.execPath, [join(dir, "forge-issue"), ...argv], { cwd: repo });
    t.deepEqual([b.code, b.stdout, b.stderr], [a.code, a.stdout, a.stderr], argv.join(" "));
  }
});
