/**
 * A generator of valid `.forge/` stores for tests and benchmarks: N issues
 * with comments, labels, milestones and assignees, some closed, some
 * archived, all deterministic from a seed (same seed → byte-identical tree).
 * Every file is written in canonical form through core's serializer.
 *
 * CLI: `node tools/dist/gen_store.js <dir> <N> [seed]` (makes `<dir>/.forge`).
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { COMMENT, formatFrontmatter, formatTimestamp, ISSUE, LABELS, MILESTONES, toFrontmatter } from "@forge/core";

/** Options for `generateStore`. */
export interface GenOptions {
  /** How many issues, live and archived together. */
  issues: number;
  /** PRNG seed (default 1). */
  seed?: number;
}

/** What was written, for tests. */
export interface GenSummary {
  /** The `.forge` folder. */
  store: string;
  /** Every issue, in the order numbers rank them (`(createdAt, id)`). */
  issues: Array<{ id: string; createdAt: string; archived: boolean; state: "open" | "closed"; comments: number }>;
}

/**
 * mulberry32: a tiny, fast, seedable PRNG.
 * @returns a function giving floats in [0, 1)
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HEX = "0123456789abcdef";

/** A uuid v4-shaped id from the PRNG. */
function uuid(rnd: () => number): string {
  let s = "";
  for (let i = 0; i < 32; i++) {
    let n = Math.floor(rnd() * 16);
    if (i === 12) n = 4;
    else if (i === 16) n = 8 + (n & 3);
    s += HEX[n];
    if (i === 7 || i === 11 || i === 15 || i === 19) s += "-";
  }
  return s;
}

const LABEL_DEFS = [
  { name: "bug", color: "d73a4a", description: "Something isn't working" },
  { name: "enhancement", color: "a2eeef", description: "New feature or request" },
  { name: "documentation", color: "0075ca", description: "Improvements or additions to documentation" },
  { name: "help wanted", color: "008672", description: "Extra attention is needed" },
  { name: "good first issue", color: "7057ff", description: "Good for newcomers" },
  { name: "question", color: "d876e3", description: "Further information is requested" },
  { name: "duplicate", color: "cfd3d7", description: "This issue or pull request already exists" },
  { name: "wontfix", color: "ffffff", description: "This will not be worked on" },
  { name: "area/core", color: "1d76db", description: "The store and its models" },
  { name: "area/cli", color: "5319e7", description: "" },
  { name: "priority: high", color: "b60205", description: "Fix before the next release" },
];
const MILESTONE_DEFS = [
  { title: "v0.1", dueOn: "2025-03-31T00:00:00Z", state: "closed", description: "First cut" },
  { title: "v0.2", dueOn: "2025-07-31T00:00:00Z", state: "open", description: "Pipelines: \"list | close -\"" },
  { title: "v1.0", dueOn: undefined, state: "open", description: "" },
];
const USERS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"];
const WORDS = (
  "store issue label list view create close reopen edit archive comment number order cache frontmatter yaml parse " +
  "render json pipe stdin stdout error flag budget test golden merge clone git branch fast slow crash hang fix " +
  "the a of to in for with when after before on off not"
).split(" ");

const YEAR_START = Date.UTC(2025, 0, 1) / 1000;
const YEAR = 365 * 24 * 3600;

/**
 * Write a store of `opts.issues` issues into `dir/.forge`.
 * @param dir the folder to hold `.forge/` (created if missing)
 * @param opts count and seed
 * @returns what was written
 * @throws Error if `dir/.forge` already exists
 */
export function generateStore(dir: string, opts: GenOptions): GenSummary {
  const rnd = mulberry32(opts.seed ?? 1);
  const int = (n: number): number => Math.floor(rnd() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const some = <T>(xs: readonly T[], max: number): T[] => [...new Set(Array.from({ length: int(max + 1) }, () => pick(xs)))];
  const words = (n: number): string => Array.from({ length: n }, () => pick(WORDS)).join(" ");
  const stamp = (sec: number): string => formatTimestamp(new Date(sec * 1000));

  const store = join(resolve(dir), ".forge");
  if (existsSync(store)) throw new Error(`${store} already exists`);
  mkdirSync(join(store, "issues"), { recursive: true });
  mkdirSync(join(store, "archive", "issues"), { recursive: true });
  writeFileSync(join(store, ".gitignore"), "ci/runs/\nreleases/out/\npilot/\n.cache/\n*.tmp\n");
  writeFileSync(join(store, "labels.md"), formatFrontmatter(toFrontmatter(LABELS, { labels: LABEL_DEFS }), "Label definitions.\n"));
  writeFileSync(join(store, "milestones.md"), formatFrontmatter(toFrontmatter(MILESTONES, { milestones: MILESTONE_DEFS }), ""));

  const out: GenSummary["issues"] = [];
  for (let i = 0; i < opts.issues; i++) {
    const id = uuid(rnd);
    const created = YEAR_START + int(YEAR);
    const closed = rnd() < 0.3;
    const reopened = !closed && rnd() < 0.05;
    const archived = rnd() < 0.05;
    const data = {
      title: words(2 + int(7)) + (rnd() < 0.1 ? `: "${pick(WORDS)}" #${i}` : ""),
      id,
      state: closed ? "closed" : "open",
      closedAt: closed || reopened ? stamp(created + 1 + int(60 * 86400)) : undefined,
      reopenedAt: reopened ? stamp(created + 60 * 86400 + 1 + int(86400)) : undefined,
      author: pick(USERS),
      milestone: rnd() < 0.4 ? pick(MILESTONE_DEFS).title : undefined,
      createdAt: stamp(created),
      labels: some(LABEL_DEFS.map((l) => l.name), 3),
      assignees: some(USERS, 2),
    };
    const body = rnd() < 0.1 ? "" : `${words(5 + int(30))}\n\n- ${words(4)}\n- ${words(6)}\n`;
    const idir = join(store, archived ? "archive" : "", "issues", id);
    mkdirSync(idir);
    writeFileSync(join(idir, "issue.md"), formatFrontmatter(toFrontmatter(ISSUE, data), body));
    const nc = int(4);
    if (nc) mkdirSync(join(idir, "comments"));
    for (let c = 0; c < nc; c++) {
      const cid = uuid(rnd);
      const cdata = { id: cid, author: pick(USERS), createdAt: stamp(created + 1 + int(30 * 86400)) };
      writeFileSync(join(idir, "comments", `${cid}.md`), formatFrontmatter(toFrontmatter(COMMENT, cdata), `${words(3 + int(20))}\n`));
    }
    out.push({ id, createdAt: data.createdAt, archived, state: closed ? "closed" : "open", comments: nc });
  }
  out.sort((a, b) => (a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { store, issues: out };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [dir, n, seed] = process.argv.slice(2);
  if (!dir || !n || !/^[0-9]+$/.test(n) || (seed !== undefined && !/^[0-9]+$/.test(seed))) {
    process.stderr.write("usage: node tools/dist/gen_store.js <dir> <N> [seed]\n");
    process.exitCode = 2;
  } else {
    const t0 = performance.now();
    const s = generateStore(dir, { issues: Number(n), seed: seed === undefined ? 1 : Number(seed) });
    process.stderr.write(`wrote ${s.issues.length} issues to ${s.store} in ${Math.round(performance.now() - t0)} ms\n`);
  }
}
