/**
 * `pnpm bench`: wall-clock of whole processes (spawnSync, argv arrays), each
 * case against a baseline measured in the same run. Baseline and subject
 * runs are interleaved (ABBA) after a warm-up, so machine noise lands on
 * both; the table shows medians and the ratio of medians. It reports and
 * never gates (exit 0), but a run that fails or prints to stderr aborts its
 * case rather than producing a number.
 *
 * Options: `--runs N` (15), `--warmup N` (3), `--issues N` (10000),
 * `--prs N` (2000), `--pages N` (500), `--only TEXT` (cases whose name contains TEXT),
 * `--against DIR` (below). Writes `.bench/results.json`. The token audit (tools/token_audit.ts: bytes an agent
 * reads, forge CLI vs forge-mcp vs gh help vs Backlog.md MCP) prints after the table, case name "token audit".
 *
 * A/B mode, `--against DIR`: DIR is another clone's bin/ (say the old main's, built). Each case's
 * subject is then measured against itself run from DIR, in place of its baseline: the same argv
 * with every path into this clone's bin/ (an argument, or inside a `sh -c` script) pointed at
 * DIR, on the same generated data, interleaved ABBA as above; the table shows the new and old
 * medians and the ratio new/old (target ≤ 1.10×, what a change within noise stays under). The
 * measurements that time several commands themselves (ci overhead per step, the kept-lane loop
 * iteration, the paired wall, peak RSS) run as four blocks, old, new, new, old, of half the runs
 * each, and compare their own numbers. A case whose subject is not under bin/ (the fold, built
 * from this clone's tools/), or names an executable DIR does not have, is skipped with a note; so is
 * the no-change build (tools/bench_build.ts), which builds this clone only.
 */
import { cpus, loadavg } from "node:os";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { generateStore, type GenSummary } from "./gen_store.js";
import { generateWiki, type WikiSummary } from "./gen_wiki.js";
import { median, retarget, round, time, type Case, type Cmd, type Result } from "./bench_lib.js";
import { stepOverhead } from "./bench_ci.js";
import { benchHosts, hostsOverhead } from "./bench_hosts.js";
import { noChangeBuild } from "./bench_build.js";
import { demoWall } from "./bench_demo.js";
import { htmlCases } from "./bench_html.js";
import { kernelCases } from "./bench_kernel.js";
import { loopCases } from "./bench_loop.js";
import { keptLaneIteration, loopIterationCase, pairedWall } from "./bench_act.js";
import { peakMemory, storeCases, storeOf } from "./bench_store.js";
import { type Audit, formatAudit, tokenAudit } from "./token_audit.js";
import { cacheCase, setupAcrossActs, setupOnce } from "./bench_setup.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const BENCH = join(ROOT, ".bench");
const BIN = join(ROOT, "bin");

const OPTIONS = ["runs", "warmup", "issues", "prs", "pages", "only", "store-issues", "against"];
// Anything else (`--help`, a misspelt option) is a usage error: the full bench takes many minutes.
for (let i = 2; i < process.argv.length; i += 2) {
  const a = process.argv[i]!;
  if (!OPTIONS.includes(a.replace(/^--/, "")) || !a.startsWith("--") || process.argv[i + 1] === undefined) {
    process.stderr.write(
      `bench: ${a === "--help" || a === "-h" ? "usage" : `unknown argument '${a}'`}: ` +
        `node tools/dist/bench.js [${OPTIONS.map((o) => `--${o} X`).join("] [")}]\n`
    );
    process.exit(a === "--help" || a === "-h" ? 0 : 2);
  }
}

function option(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : dflt;
}

const RUNS = Number(option("runs", "15"));
const WARMUP = Number(option("warmup", "3"));
const ISSUES = Number(option("issues", "10000"));
const PRS = Number(option("prs", "2000"));
const PAGES = Number(option("pages", "500"));
const ONLY = option("only", "");
const STORE_ISSUES = Number(option("store-issues", "100000"));
// The store-under-load cases (issue 11) need a 100k store: generated only when they run.
const WANT_STORE = !ONLY || ONLY.startsWith("store");
const ENV = { PATH: process.env.PATH, HOME: process.env.HOME, FORGE_AUTHOR: "bench", NO_COLOR: "1", LANG: "C.UTF-8" };
/** `--against DIR`: the other clone's bin/ (A/B mode), or undefined. */
const AGAINST = option("against", "") ? resolve(option("against", "")).replace(/\/+$/, "") : undefined;
/** A/B mode's target: new/old within noise. */
const AB_MAX = 1.1;
if (AGAINST && !(existsSync(AGAINST) && statSync(AGAINST).isDirectory())) {
  process.stderr.write(`bench: --against ${AGAINST}: not a folder (another clone's bin/)\n`);
  process.exit(2);
}

function measure(c: Case): Result {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < WARMUP; i++) {
    time(c.baseline, i === 0, ENV);
    time(c.subject, i === 0, ENV);
  }
  for (let i = 0; i < RUNS; i++) {
    // ABBA: alternate which goes first so neither always follows the other.
    if (i % 2 === 0) {
      a.push(time(c.baseline, false, ENV));
      b.push(time(c.subject, false, ENV));
    } else {
      b.push(time(c.subject, false, ENV));
      a.push(time(c.baseline, false, ENV));
    }
  }
  const med = median(b);
  const base = median(a);
  const ratio = med / base;
  const pass = c.target.kind === "ms" ? med <= c.target.max : ratio <= c.target.max;
  const target = c.target.kind === "ms" ? `≤ ${c.target.max} ms` : `≤ ${c.target.max}×`;
  return {
    case: c.name,
    subject: c.subject.label,
    baseline: c.baseline.label,
    medianMs: round(med),
    baselineMedianMs: round(base),
    ratio: Math.round(ratio * 100) / 100,
    target,
    pass,
    note: c.note,
    samplesMs: b.map(round),
    baselineSamplesMs: a.map(round),
  };
}

/** The case as new (this clone's bin/) against old (`old`), or why it cannot be. */
function abCase(c: Case, old: string): Case | string {
  const o = retarget(c.subject, BIN, old);
  if (o === undefined) return "its subject runs nothing from bin/ (built from this clone's sources)";
  if (typeof o === "string") return o;
  return {
    name: c.name,
    target: { kind: "ratio", max: AB_MAX },
    note: c.note,
    baseline: o,
    subject: { ...c.subject, label: `new: ${c.subject.label}` },
  };
}

/**
 * A measurement that times its own commands, A/B: four blocks (old, new, new, old) of half the
 * runs each; each side's number is the mean of its two blocks' medians.
 */
function abBlocks(old: string, run: (bin: string, runs: number) => Result): Result {
  const half = Math.max(1, Math.ceil(RUNS / 2));
  const [o1, n1, n2, o2] = [old, BIN, BIN, old].map((b) => run(b, half)) as [Result, Result, Result, Result];
  const m = (n1.medianMs + n2.medianMs) / 2;
  const b = (o1.medianMs + o2.medianMs) / 2;
  const ratio = m / b;
  return {
    case: n1.case,
    subject: `new: ${n1.subject}`,
    baseline: `old: ${o1.subject}`,
    medianMs: round(m),
    baselineMedianMs: round(b),
    ratio: Math.round(ratio * 100) / 100,
    target: `≤ ${AB_MAX}×`,
    pass: ratio <= AB_MAX,
    note: `4 blocks of ${half} runs (old ${o1.medianMs}, new ${n1.medianMs}, new ${n2.medianMs}, old ${o2.medianMs})`,
    samplesMs: [...n1.samplesMs, ...n2.samplesMs],
    baselineSamplesMs: [...o1.samplesMs, ...o2.samplesMs],
  };
}

/** A fresh generated store under .bench/ (regenerated every run: `create` grows it). */
function freshStore(name: string, issues: number, prs = 0): GenSummary & { dir: string } {
  const dir = join(BENCH, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return { ...generateStore(dir, { issues, seed: 1, prs }), dir };
}

/** A fresh generated wiki of `pages` pages under .bench/. */
function freshWiki(pages: number): WikiSummary & { dir: string } {
  const dir = join(BENCH, `wiki-${pages}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return { ...generateWiki(dir, pages, 1), dir };
}

const lines = (n: number) => (out: string) => {
  const got = out.split("\n").filter(Boolean).length;
  return got === n ? undefined : `expected ${n} lines, got ${got}`;
};

type Gen = GenSummary & { dir: string };

/**
 * `list --ready` (issue 29) at ISSUES issues with 2 links each (blocked-by edges and parents, acyclic), against the
 * plain list of the same store: ≤ 300 ms, and ≤ 1.3 × the plain list. The store is made only when a case runs.
 */
function readyCases(): Case[] {
  const names = [
    `list --ready --json -L 100000 @${ISSUES / 1000}k+links`,
    `list --ready vs list @${ISSUES / 1000}k+links`,
  ];
  if (ONLY && !names.some((n) => n.includes(ONLY))) return [];
  const dir = join(BENCH, `issues-${ISSUES}-links`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const store = generateStore(dir, { issues: ISSUES, seed: 1, links: 2 * ISSUES });
  const fi = join(BIN, "forge-issue");
  const open = store.issues.filter((i) => !i.archived && i.state === "open").length;
  const plain: Cmd = {
    label: "forge-issue list --json -L 100000 (same store)",
    argv: [fi, "list", "--json", "--limit", "100000"],
    cwd: dir,
    check: lines(open),
  };
  const ready: Cmd = {
    label: "forge-issue list --ready --json -L 100000",
    argv: [fi, "list", "--ready", "--json", "--limit", "100000"],
    cwd: dir,
  };
  const note = `${2 * ISSUES} links (a parent one time in five, else blocked-by), each to an older issue`;
  return [
    { name: names[0]!, target: { kind: "ms", max: 300 }, note, baseline: plain, subject: ready },
    { name: names[1]!, target: { kind: "ratio", max: 1.3 }, note, baseline: plain, subject: ready },
  ];
}

/**
 * `forge-pr list --json` against the floor that reads the same files (every pr.md, and the patches and reviews of the
 * listed PRs).
 */
function prCases(store: Gen): Case[] {
  const fp = join(BIN, "forge-pr");
  const open = store.prs.filter((p) => !p.archived && p.state === "open").length;
  const live = store.prs.filter((p) => !p.archived).length;
  const floor = (n?: number): Cmd => ({
    label: `read floor (every pr.md; patch + reviews of ${n ?? "every live"} PR${n === 1 ? "" : "s"})`,
    argv: [
      "node",
      join(ROOT, "tools", "dist", "read_floor.js"),
      store.store,
      "prs",
      ...(n === undefined ? [] : [String(n)]),
    ],
    cwd: store.dir,
  });
  const k = `${store.prs.length / 1000}k`;
  return [
    {
      name: `pr list --json @${k}`,
      target: { kind: "ms", max: 300 },
      baseline: floor(Math.min(30, open)),
      subject: {
        label: "forge-pr list --json",
        argv: [fp, "list", "--json"],
        cwd: store.dir,
        check: lines(Math.min(30, open)),
      },
    },
    {
      name: `pr list --json -s all -L 100000 @${k}`,
      target: { kind: "ms", max: 300 },
      baseline: floor(),
      subject: {
        label: "forge-pr list --json --state all --limit 100000",
        argv: [fp, "list", "--json", "--state", "all", "--limit", "100000"],
        cwd: store.dir,
        check: lines(live),
      },
    },
    {
      // Issue 33: the record cache (built by the warm-up) against the floor that reads every file a record is made of.
      name: `pr list --json -s all -L 100000 @${k} vs its read floor`,
      target: { kind: "ratio", max: 1.5 },
      note: "warm: the warm-up runs build .forge/.cache/prs.records",
      baseline: floor(),
      subject: {
        label: "forge-pr list --json --state all --limit 100000",
        argv: [fp, "list", "--json", "--state", "all", "--limit", "100000"],
        cwd: store.dir,
        check: lines(live),
      },
    },
    {
      name: "forge-pr --help",
      target: { kind: "ratio", max: 1.5 },
      baseline: { label: "node -e 0", argv: ["node", "-e", "0"], cwd: ROOT },
      subject: { label: "forge-pr --help", argv: [fp, "--help"], cwd: ROOT },
    },
  ];
}

function cases(
  big: GenSummary & { dir: string },
  small: GenSummary & { dir: string },
  wiki: WikiSummary & { dir: string }
): Case[] {
  const fi = join(BIN, "forge-issue");
  const open = big.issues.filter((i) => !i.archived && i.state === "open").length;
  const floor: Cmd = {
    label: "read floor (node reads the same files)",
    argv: ["node", join(ROOT, "tools", "dist", "read_floor.js"), big.store],
    cwd: big.dir,
  };
  const nodeE0: Cmd = { label: "node -e 0", argv: ["node", "-e", "0"], cwd: ROOT };
  const k = `${big.issues.length / 1000}k`;
  const mid = String(Math.ceil(big.issues.length / 2));
  return [
    {
      name: `list --json -L 100000 @${k}`,
      target: { kind: "ms", max: 300 },
      baseline: floor,
      subject: {
        label: "forge-issue list --json --limit 100000",
        argv: [fi, "list", "--json", "--limit", "100000"],
        cwd: big.dir,
        check: lines(open),
      },
    },
    {
      name: `list --json @${k}`,
      target: { kind: "ms", max: 300 },
      baseline: floor,
      subject: {
        label: "forge-issue list --json",
        argv: [fi, "list", "--json"],
        cwd: big.dir,
        check: lines(Math.min(30, open)),
      },
    },
    {
      // Issue 33: a fresh clone's first list opens each file once (the order pass makes the records) and writes both
      // caches as it goes. The cache folder is removed before each run (bash's start is on the subject's side).
      name: `cold full list (no .cache) vs read floor @${k}`,
      target: { kind: "ratio", max: 1.5 },
      baseline: floor,
      subject: {
        label: "rm -rf .forge/.cache; forge-issue list --json -s all -L 100000",
        argv: ["bash", "--norc", "-c", `rm -rf .forge/.cache && "$0" list --json -s all -L 100000`, fi],
        cwd: big.dir,
        check: (out) => lines(readdirSync(join(big.store, "issues")).length)(out),
      },
    },
    {
      name: `view ${mid} @${k} vs @1`,
      target: { kind: "ratio", max: 1.3 },
      baseline: { label: "forge-issue view 1 (1-issue store)", argv: [fi, "view", "1"], cwd: small.dir },
      subject: { label: `forge-issue view ${mid}`, argv: [fi, "view", mid], cwd: big.dir },
    },
    {
      name: `create @${k} vs @1`,
      target: { kind: "ratio", max: 1.3 },
      note: `each run adds one issue to both stores (${WARMUP + RUNS} in all)`,
      baseline: {
        label: "forge-issue create -t x (1-issue store)",
        argv: [fi, "create", "-t", "x"],
        cwd: small.dir,
        stderrOk: true,
      },
      subject: { label: "forge-issue create -t x", argv: [fi, "create", "-t", "x"], cwd: big.dir, stderrOk: true },
    },
    {
      name: `wiki index of ${wiki.pages.length} pages`,
      target: { kind: "ms", max: 100 },
      baseline: {
        label: "read floor (node reads the same pages)",
        argv: ["node", join(ROOT, "tools", "dist", "wiki_floor.js"), wiki.wiki],
        cwd: wiki.dir,
      },
      subject: {
        label: "forge-wiki list --json",
        argv: [join(BIN, "forge-wiki"), "list", "--json"],
        cwd: wiki.dir,
        check: lines(wiki.pages.length),
      },
    },
    {
      name: "forge-issue --help",
      target: { kind: "ratio", max: 1.5 },
      baseline: nodeE0,
      subject: { label: "forge-issue --help", argv: [fi, "--help"], cwd: ROOT },
    },
    {
      name: "forge --help",
      target: { kind: "ratio", max: 1.5 },
      baseline: nodeE0,
      subject: { label: "forge --help", argv: [join(BIN, "forge"), "--help"], cwd: ROOT },
    },
  ];
}

function table(rs: Result[]): string {
  const head = AGAINST
    ? ["case", "new ms", "old ms", "new/old", "target", ""]
    : ["case", "median ms", "baseline ms", "ratio", "target", ""];
  const rows = rs.map((r) => [
    r.case,
    r.medianMs.toFixed(1),
    r.baselineMedianMs.toFixed(1),
    `${r.ratio.toFixed(2)}×`,
    r.target,
    r.pass ? "PASS" : "FAIL",
  ]);
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]) =>
    r
      .map((c, i) => (i === 0 || i === 4 ? c.padEnd(w[i]!) : c.padStart(w[i]!)))
      .join("  ")
      .trimEnd();
  return [fmt(head), ...rows.map(fmt)].join("\n") + "\n";
}

const load0 = loadavg()[0]!.toFixed(1);
const t0 = performance.now();
// Cases that make their own data: `--only` one of them generates no store (a minute saved on each such run).
const SELF_CONTAINED = [
  "ci overhead per step",
  "paired experiment wall",
  "build twice with no change",
  "demo: the README's setup command",
  "token audit",
  "hosts: 40 replicates",
  "setup once per worktree",
  "setup across forge-act invocations",
  "dependency cache",
];
const STANDALONE = ONLY !== "" && SELF_CONTAINED.some((n) => n.includes(ONLY));
const big = STANDALONE ? undefined : freshStore(`issues-${ISSUES}`, ISSUES);
const small = STANDALONE ? undefined : freshStore("issues-1", 1);
const prStore = STANDALONE ? undefined : freshStore(`prs-${PRS}`, 200, PRS);
const wiki = STANDALONE ? undefined : freshWiki(PAGES);
const huge = WANT_STORE ? storeOf(BENCH, `issues-${STORE_ISSUES}`, STORE_ISSUES) : undefined;
const s1k = WANT_STORE ? storeOf(BENCH, "issues-1000", 1000) : undefined;
if (!STANDALONE)
  process.stderr.write(
    `generated ${ISSUES} issues, ${PRS} PRs and ${PAGES} wiki pages in ${Math.round(performance.now() - t0)} ms; ` +
      `${WARMUP} warm-up + ${RUNS} runs per side\n`
  );
const results: Result[] = [];
const aborted: Array<{ case: string; error: string }> = [];
const skipped: Array<{ case: string; why: string }> = [];
if (AGAINST) process.stderr.write(`A/B: new ${BIN} against old ${AGAINST}\n`);
const all: Case[] = !(big && small && prStore && wiki)
  ? [...(ONLY.startsWith("dependency cache") ? [cacheCase(BENCH, BIN)] : [])]
  : [
      ...cases(big, small, wiki),
      ...readyCases(),
      ...prCases(prStore),
      ...kernelCases(BENCH, BIN, ROOT),
      ...loopCases(BENCH, BIN, ROOT),
      loopIterationCase(BENCH, BIN, ROOT),
      loopIterationCase(BENCH, BIN, ROOT, true),
      ...(huge && s1k ? storeCases(ROOT, big, huge, s1k) : []),
      ...(!ONLY || ONLY.startsWith("html") ? htmlCases(BENCH, BIN, ROOT, big.dir) : []),
      ...(!ONLY || ONLY.startsWith("dependency cache") ? [cacheCase(BENCH, BIN)] : []),
    ];
for (const c0 of all) {
  if (ONLY && !c0.name.includes(ONLY)) continue;
  const c = AGAINST ? abCase(c0, AGAINST) : c0;
  if (typeof c === "string") {
    skipped.push({ case: c0.name, why: c });
    process.stderr.write(`  ${c0.name}: skipped: ${c}\n`);
    continue;
  }
  try {
    const r = measure(c);
    results.push(r);
    process.stderr.write(`  ${c.name}: ${r.medianMs} ms vs ${r.baselineMedianMs} ms (${c.baseline.label})\n`);
  } catch (err) {
    aborted.push({ case: c.name, error: (err as Error).message });
    process.stderr.write(`  ${c.name}: ABORTED: ${(err as Error).message}\n`);
  }
}

/** `own`, for a measurement of this clone only: skipped (saying `why`) in A/B mode. */
function ownThisClone(
  name: string,
  why: string,
  run: (bin: string, runs: number) => Result,
  say: (r: Result) => string
): void {
  if (!AGAINST) own(name, run, say);
  else if (!ONLY || name.includes(ONLY)) skipped.push({ case: name, why });
}

/** A measurement that times its own commands (with `bin`, `runs` runs); A/B in blocks with --against. */
function own(name: string, run: (bin: string, runs: number) => Result, say: (r: Result) => string): void {
  if (ONLY && !name.includes(ONLY)) return;
  try {
    const r = AGAINST ? abBlocks(AGAINST, run) : run(BIN, RUNS);
    results.push(r);
    process.stderr.write(`  ${r.case}: ${AGAINST ? `${r.medianMs} vs ${r.baselineMedianMs} (old)` : say(r)}\n`);
  } catch (err) {
    aborted.push({ case: name, error: (err as Error).message });
    process.stderr.write(`  ${name}: ABORTED: ${(err as Error).message}\n`);
  }
}
own(
  "ci overhead per step",
  (bin, runs) => stepOverhead(BENCH, bin, ENV, runs, WARMUP),
  (r) => `${r.medianMs} ms`
);
for (const trials of [false, true]) {
  own(
    `loop iteration (observe + plan + export) @10k entities + 10k trials${trials ? ", act adds a trial" : ""}`,
    (bin, runs) => keptLaneIteration(BENCH, bin, ROOT, ENV, runs, WARMUP, trials),
    (r) => `${r.medianMs} ms vs ${r.baselineMedianMs} ms (node -e 0)`
  );
}
own(
  "paired experiment wall vs the slower side alone",
  (bin, runs) => pairedWall(BENCH, bin, ENV, Math.min(runs, 7), 1),
  (r) => `${r.ratio}× (${r.note})`
);
// A build is of this clone's sources: it has no old side to run from --against's bin/.
ownThisClone(
  "build twice with no change: the second",
  "it builds this clone only",
  (_bin, runs) => noChangeBuild(ROOT, ENV, Math.max(3, Math.min(runs, 5))),
  (r) => `${r.medianMs} ms (tsc -b alone: ${r.baselineMedianMs} ms)`
);
// The demo as the README runs it (issue 31 item 8): this clone's build and scripts, no old side.
ownThisClone(
  "demo: the README's setup command",
  "it runs this clone's README command only",
  (_bin, runs) => demoWall(ROOT, ENV, Math.max(1, Math.min(runs, 3))),
  (r) => `${r.medianMs} ms (build alone: ${r.baselineMedianMs} ms; target ≤ 60000 ms)`
);
if (huge) {
  own(
    "store: peak RSS",
    (bin, runs) => peakMemory(ROOT, huge, ENV, Math.max(3, Math.min(runs, 7)), bin),
    (r) => `${r.medianMs} MiB`
  );
  own(
    "store: peak RSS of the cold",
    (bin, runs) => peakMemory(ROOT, huge, ENV, Math.max(3, Math.min(runs, 5)), bin, true),
    (r) => `${r.medianMs} MiB`
  );
}
// The token audit (issue 28, tools/token_audit.ts): bytes an agent reads, not milliseconds; printed after the
// table and kept in results.json. It runs this clone's bin/ only (no old side in A/B mode).
const AUDIT = "token audit";
let audit: Audit | undefined;
if (AGAINST) {
  if (!ONLY || AUDIT.includes(ONLY)) skipped.push({ case: AUDIT, why: "it counts this clone's bytes only" });
} else if (!ONLY || AUDIT.includes(ONLY)) {
  try {
    audit = await tokenAudit(BIN, ENV);
    process.stderr.write(`  ${AUDIT}: forge-mcp tools/list ${audit.toolsListBytes} bytes, ${audit.tools} tools\n`);
  } catch (err) {
    aborted.push({ case: AUDIT, error: (err as Error).message });
    process.stderr.write(`  ${AUDIT}: ABORTED: ${(err as Error).message}\n`);
  }
}
// More than one machine: FORGE_BENCH_HOSTS, else two netns hosts made for the case (root), else skipped with why.
const hostsCase = "hosts: 40 replicates of a 1 s check over hosts vs locally";
if (AGAINST) {
  if (!ONLY || hostsCase.includes(ONLY)) skipped.push({ case: hostsCase, why: "its baseline is in the same run" });
} else if (!ONLY || hostsCase.includes(ONLY)) {
  const hosts = await benchHosts(process.env);
  if (typeof hosts === "string") {
    skipped.push({ case: hostsCase, why: hosts });
    process.stderr.write(`  ${hostsCase}: skipped: ${hosts}\n`);
  } else {
    // Measured asynchronously (a SIGINT then removes the hosts at once), then reported as every case is.
    let r: Result | Error;
    try {
      const env = { ...ENV, PARALLEL_SSH: hosts.ssh };
      r = await hostsOverhead(BENCH, BIN, env, hosts.file, hosts.slots, Math.min(RUNS, 3));
    } catch (err) {
      r = err as Error;
    } finally {
      hosts.release();
    }
    own(
      hostsCase,
      () => {
        if (r instanceof Error) throw r;
        return r;
      },
      (r) => `${r.medianMs} ms overhead per trial, ratio ${r.ratio} (${hosts.what}; ${r.note})`
    );
  }
}
// A count (step executions per trial) against today's behaviour in the same run (--independent-trials): no A/B.
ownThisClone(
  "setup once per worktree: step executions per targeted trial",
  "its baseline is in the same run",
  () => setupOnce(BENCH, BIN, ENV),
  (r) => `${r.ratio} exec/trial (${r.note})`
);
// The same across forge-act processes (one a plan, as forge-pilot starts them), with and without a shared pool.
ownThisClone(
  "setup across forge-act invocations: step executions per targeted trial",
  "its baseline is in the same run",
  () => setupAcrossActs(BENCH, BIN, ENV),
  (r) => `${r.ratio} exec/trial (${r.note})`
);
const load = loadavg()[0]!.toFixed(1);
process.stdout.write(
  `node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, 1-min load average ${load0} → ${load} ` +
    `(other processes inflate both sides)\n` +
    table(results)
);
for (const r of results) if (r.note) process.stdout.write(`note: ${r.case}: ${r.note}\n`);
if (audit) process.stdout.write(formatAudit(audit));
const meta = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  loadavg: loadavg(),
  runs: RUNS,
  warmup: WARMUP,
  issues: ISSUES,
  prs: PRS,
  pages: PAGES,
};
const ab = AGAINST ? { against: AGAINST, skipped } : {};
writeFileSync(
  join(BENCH, "results.json"),
  JSON.stringify({ ...meta, ...ab, results, aborted, ...(audit ? { tokenAudit: audit } : {}) }, null, 2) + "\n"
);
// A case that could not run is not a pass: say so last, and exit 1.
for (const k of skipped) process.stdout.write(`skipped${AGAINST ? " (not A/B)" : ""}: ${k.case}: ${k.why}\n`);
for (const a of aborted) process.stdout.write(`ABORTED: ${a.case}: ${a.error.split("\n")[0]}\n`);
if (aborted.length) process.exitCode = 1;
