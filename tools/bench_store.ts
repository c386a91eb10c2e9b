/**
 * The store-under-load bench cases (issue 11), as ratios in one run:
 * - a table and a field list against the full list at 10k, target ≤ 1.3×;
 * - the full list (`list --json -s all -L 100000`) against the read floor
 *   (a bare Node read of the same files) at 10k and 100k issues, target ≤ 1.3×;
 * - the time to the first line of `list -L 100000 --json | head -1` at 100k
 *   against `node -e 0`, target ≤ 1.5× (issue 33; issue 11 asked ≤ 150 ms);
 * - view, create and edit at 100k against at 1k, target ≤ 1.15×;
 * - the peak memory (max RSS) of the full list at 100k, warm and cold (no .cache: issue 33 measured this one),
 *   target ≤ 100 MiB.
 * `--store-issues N` sets the big store (100000); `--only store` runs just these.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { median, round, type Case, type Cmd, type Result } from "./bench_lib.js";
import { generateStore, type GenSummary } from "./gen_store.js";

type Gen = GenSummary & { dir: string };

/** A fresh generated store under `bench/<name>`. */
export function storeOf(bench: string, name: string, issues: number): Gen {
  const dir = join(bench, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return { ...generateStore(dir, { issues, seed: 1 }), dir };
}

const lines =
  (n: number) =>
  (out: string): string | undefined => {
    const got = out.split("\n").filter(Boolean).length;
    return got === n ? undefined : `expected ${n} lines, got ${got}`;
  };

/**
 * The timed cases over a 10k, a big (100k) and a 1k store.
 * @param root the repository root (tools/dist/read_floor.js, bin/)
 */
export function storeCases(root: string, s10k: Gen, big: Gen, s1k: Gen): Case[] {
  const fi = join(root, "bin", "forge-issue");
  const floor = (g: Gen): Cmd => ({
    label: "read floor (node reads the same files)",
    argv: ["node", join(root, "tools", "dist", "read_floor.js"), g.store],
    cwd: g.dir,
  });
  const full = (g: Gen): Cmd => ({
    label: "forge-issue list --json -s all -L 100000",
    argv: [fi, "list", "--json", "-s", "all", "-L", "100000"],
    cwd: g.dir,
    // Every live issue there is now: other cases (create @10k) add to the store after it was generated.
    check: (out) => lines(readdirSync(join(g.store, "issues")).length)(out),
  });
  const k = (g: Gen): string => `${g.issues.length / 1000}k`;
  // Issue 33: a filter and a text search, against the warm full list and from 10k to 100k.
  const filtered = (g: Gen, how: "label" | "search"): Cmd => ({
    label: `forge-issue list --json -s all -L 100000 ${how === "label" ? "-l bug" : '-S "crash in:title,body"'}`,
    argv: [
      fi,
      "list",
      "--json",
      "-s",
      "all",
      "-L",
      "100000",
      ...(how === "label" ? ["-l", "bug"] : ["-S", "crash in:title,body"]),
    ],
    cwd: g.dir,
  });
  const filterCases = (how: "label" | "search"): Case[] => [
    {
      name: `store: ${how === "label" ? "--label" : "-S"} vs the full list @${k(s10k)}`,
      target: { kind: "ratio", max: 1.3 },
      baseline: full(s10k),
      subject: filtered(s10k, how),
    },
    {
      name: `store: ${how === "label" ? "--label" : "-S"} @${k(big)} vs @${k(s10k)}`,
      target: { kind: "ratio", max: 3 },
      baseline: filtered(s10k, how),
      subject: filtered(big, how),
    },
  ];
  // The same list as a table (gh's default output) and as a field list: from the record cache too, unparsed.
  const shaped = (g: Gen, how: "table" | "fields"): Cmd => ({
    label: `forge-issue list -s all -L 100000${how === "table" ? "" : " --json number,title,labels"}`,
    argv: [fi, "list", "-s", "all", "-L", "100000", ...(how === "table" ? [] : ["--json", "number,title,labels"])],
    cwd: g.dir,
    check: (out) => lines(readdirSync(join(g.store, "issues")).length)(out),
  });
  return [
    ...filterCases("label"),
    ...filterCases("search"),
    ...(["table", "fields"] as const).map((how): Case => ({
      name: `store: ${how === "table" ? "a table" : "a field list"} vs the full list @${k(s10k)}`,
      target: { kind: "ratio", max: 1.3 },
      baseline: full(s10k),
      subject: shaped(s10k, how),
    })),
    {
      name: `store: full list vs read floor @${k(s10k)}`,
      target: { kind: "ratio", max: 1.3 },
      baseline: floor(s10k),
      subject: full(s10k),
    },
    {
      name: `store: full list vs read floor @${k(big)}`,
      target: { kind: "ratio", max: 1.3 },
      baseline: floor(big),
      subject: full(big),
    },
    {
      name: `store: first line of list -L 100000 --json | head -1 @${k(big)}`,
      target: { kind: "ratio", max: 1.5 },
      note: "issue 33's target; issue 11's was ≤ 150 ms",
      baseline: { label: "node -e 0", argv: ["node", "-e", "0"], cwd: root },
      subject: {
        label: "list -L 100000 --json | head -1",
        argv: ["bash", "--norc", "-c", `"$0" list -L 100000 --json | head -1`, fi],
        cwd: big.dir,
        check: lines(1),
      },
    },
    {
      // Issue 33: the first list after a clone (no .cache), against the same floor; the cache folder is removed first.
      name: `store: cold full list (no .cache) vs read floor @${k(big)}`,
      target: { kind: "ratio", max: 1.5 },
      baseline: floor(big),
      subject: {
        ...full(big),
        label: "rm -rf .forge/.cache; forge-issue list --json -s all -L 100000",
        argv: ["bash", "--norc", "-c", `rm -rf .forge/.cache && "$0" list --json -s all -L 100000`, fi],
      },
    },
    {
      // Issue 33: view finds one number without reading the whole order cache.
      name: `store: view @${k(big)} vs @${k(s1k)}`,
      target: { kind: "ratio", max: 1.15 },
      baseline: { label: `forge-issue view 500 (${k(s1k)} store)`, argv: [fi, "view", "500"], cwd: s1k.dir },
      subject: {
        label: `forge-issue view ${big.issues.length / 2} (${k(big)} store)`,
        argv: [fi, "view", String(big.issues.length / 2)],
        cwd: big.dir,
      },
    },
    {
      name: `store: create @${k(big)} vs @${k(s1k)}`,
      // Issue 33: view, create and edit at 100k ≤ 1.15 × at 1k.
      target: { kind: "ratio", max: 1.15 },
      note: "each run adds one issue to both stores",
      baseline: {
        label: `forge-issue create -t x (${k(s1k)} store)`,
        argv: [fi, "create", "-t", "x"],
        cwd: s1k.dir,
        stderrOk: true,
      },
      subject: {
        label: `forge-issue create -t x (${k(big)} store)`,
        argv: [fi, "create", "-t", "x"],
        cwd: big.dir,
        stderrOk: true,
      },
    },
    {
      name: `store: edit @${k(big)} vs @${k(s1k)}`,
      target: { kind: "ratio", max: 1.15 },
      note: "each run gives the middle issue a new title (sh's pid), so every edit writes",
      baseline: {
        label: `forge-issue edit 500 -t … (${k(s1k)} store)`,
        argv: ["sh", "-c", '"$0" edit 500 -t "t$$"', fi],
        cwd: s1k.dir,
        stderrOk: true,
      },
      subject: {
        label: `forge-issue edit ${big.issues.length / 2} -t … (${k(big)} store)`,
        argv: ["sh", "-c", `"$0" edit ${big.issues.length / 2} -t "t$$"`, fi],
        cwd: big.dir,
        stderrOk: true,
      },
    },
  ];
}

/**
 * The peak memory (max RSS) of the full list at the big store: the process
 * itself reports its high-water mark at exit (a preload), the median of
 * `runs`. On Linux that is `VmHWM` of /proc/self/status: `maxRSS` of
 * getrusage is carried across fork and exec, so a child of this (large)
 * bench process would report the bench's own size.
 * @param bin the executables to measure (this clone's bin/ by default; another's in A/B mode)
 */
export function peakMemory(
  root: string,
  big: Gen,
  env: NodeJS.ProcessEnv,
  runs: number,
  bin = join(root, "bin"),
  cold = false
): Result {
  const probe = join(root, ".bench", "rss_probe.cjs");
  const out = join(root, ".bench", "rss.txt");
  writeFileSync(
    probe,
    `const fs = require("fs");
process.on("exit", () => {
  let kb;
  try {
    kb = Number(/^VmHWM:\\s+(\\d+) kB$/m.exec(fs.readFileSync("/proc/self/status", "utf8"))[1]);
  } catch {
    kb = process.resourceUsage().maxRSS;
  }
  fs.writeFileSync(${JSON.stringify(out)}, String(kb));
});
`
  );
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (cold) rmSync(join(big.store, ".cache"), { recursive: true, force: true });
    const argv = ["-r", probe, join(bin, "forge-issue"), "list", "--json", "-s", "all", "-L", "100000"];
    const r = spawnSync("node", argv, { cwd: big.dir, env, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
    if (r.status !== 0 || r.stderr) throw new Error(`list: exit ${r.status}: ${r.stderr.split("\n")[0]}`);
    samples.push(Number(readFileSync(out, "utf8")) / 1024);
  }
  const med = median(samples);
  return {
    case: `store: peak RSS of the ${cold ? "cold " : ""}full list @${big.issues.length / 1000}k (MiB)`,
    subject: "forge-issue list --json -s all -L 100000",
    baseline: "-",
    medianMs: round(med),
    baselineMedianMs: 0,
    ratio: 0,
    target: "≤ 100 MiB",
    pass: med <= 100,
    note: "the median column is MiB of max RSS, not ms",
    samplesMs: samples.map(round),
    baselineSamplesMs: [],
  };
}
