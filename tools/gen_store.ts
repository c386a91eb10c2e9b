/**
 * A generator of valid `.forge/` stores for tests and benchmarks: N issues
 * with comments, labels, milestones and assignees, some closed, some
 * archived, and optionally M pull requests (pr.md, a small patch.diff with
 * its sha256, some reviews and comments; open, closed, merged, draft,
 * archived), all deterministic from a seed (same seed → byte-identical
 * tree). Every file is written in canonical form through core's serializer.
 *
 * CLI: `node tools/dist/gen_store.js <dir> <N> [seed] [--prs M]` (makes `<dir>/.forge`).
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { rng } from "@forge/kernel/testing";
import {
  COMMENT,
  formatFrontmatter,
  formatTimestamp,
  ISSUE,
  LABELS,
  MILESTONES,
  patchSha256,
  PR,
  PR_REVIEW,
  toFrontmatter,
  writeStoreVersion,
} from "@forge/core";

/** Options for `generateStore`. */
export interface GenOptions {
  /** How many issues, live and archived together. */
  issues: number;
  /** PRNG seed (default 1). */
  seed?: number;
  /** How many pull requests, live and archived together (default 0). */
  prs?: number;
  /**
   * How many issue links (blocked-by edges and parents) in all (default 0):
   * each names an issue generated earlier, so the links hold no cycle.
   */
  links?: number;
}

/** What was written, for tests. */
export interface GenSummary {
  /** The `.forge` folder. */
  store: string;
  /** Every issue, in the order numbers rank them (`(createdAt, id)`). */
  issues: Array<{ id: string; createdAt: string; archived: boolean; state: "open" | "closed"; comments: number }>;
  /** Every PR, in the order numbers rank them. */
  prs: Array<{
    id: string;
    createdAt: string;
    archived: boolean;
    state: "open" | "closed" | "merged";
    reviews: number;
    comments: number;
  }>;
}

/** mulberry32, the kernel's seeded PRNG (one copy in the repository): floats in [0, 1). */
export const mulberry32 = rng;

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
  { title: "v0.2", dueOn: "2025-07-31T00:00:00Z", state: "open", description: 'Pipelines: "list | close -"' },
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
  const some = <T>(xs: readonly T[], max: number): T[] => [
    ...new Set(Array.from({ length: int(max + 1) }, () => pick(xs))),
  ];
  const words = (n: number): string => Array.from({ length: n }, () => pick(WORDS)).join(" ");
  const stamp = (sec: number): string => formatTimestamp(new Date(sec * 1000));

  const store = join(resolve(dir), ".forge");
  if (existsSync(store)) throw new Error(`${store} already exists`);
  mkdirSync(join(store, "issues"), { recursive: true });
  writeStoreVersion(store);
  mkdirSync(join(store, "archive", "issues"), { recursive: true });
  writeFileSync(join(store, ".gitignore"), "ci/runs/\nreleases/out/\npilot/\n.cache/\n*.tmp\n");
  writeFileSync(
    join(store, "labels.md"),
    formatFrontmatter(toFrontmatter(LABELS, { labels: LABEL_DEFS }), "Label definitions.\n")
  );
  writeFileSync(
    join(store, "milestones.md"),
    formatFrontmatter(toFrontmatter(MILESTONES, { milestones: MILESTONE_DEFS }), "")
  );

  const out: GenSummary["issues"] = [];
  // Links from a PRNG of their own, so a store without them is the same as before.
  const lrnd = mulberry32(((opts.seed ?? 1) ^ 0x2545f491) >>> 0);
  const ids: string[] = [];
  let linksLeft = opts.links ?? 0;
  for (let i = 0; i < opts.issues; i++) {
    const id = uuid(rnd);
    const links = linkFields(lrnd, ids, Math.min(linksLeft, perIssue(linksLeft, opts.issues - i, lrnd)));
    linksLeft -= links.count;
    ids.push(id);
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
      labels: some(
        LABEL_DEFS.map((l) => l.name),
        3
      ),
      assignees: some(USERS, 2),
      parent: links.parent,
      blockedBy: links.blockedBy,
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
      writeFileSync(
        join(idir, "comments", `${cid}.md`),
        formatFrontmatter(toFrontmatter(COMMENT, cdata), `${words(3 + int(20))}\n`)
      );
    }
    out.push({ id, createdAt: data.createdAt, archived, state: closed ? "closed" : "open", comments: nc });
  }
  out.sort(byOrder);
  // A PRNG of their own, so adding PRs leaves the issues of a seed unchanged.
  const prs = generatePrs(
    store,
    opts.prs ?? 0,
    mulberry32(((opts.seed ?? 1) ^ 0x5f3759df) >>> 0),
    out.filter((i) => !i.archived).map((i) => i.id)
  );
  return { store, issues: out, prs };
}

/** How many links the next issue gets: the rest spread evenly, the remainder by chance. */
function perIssue(left: number, issuesLeft: number, rnd: () => number): number {
  const base = Math.floor(left / issuesLeft);
  return base + (rnd() < (left - base * issuesLeft) / issuesLeft ? 1 : 0);
}

/** `n` links to earlier issues: a parent one time in five, the rest blockers (no duplicates). */
function linkFields(
  rnd: () => number,
  earlier: readonly string[],
  n: number
): { parent?: string; blockedBy: string[]; count: number } {
  if (earlier.length === 0 || n === 0) return { blockedBy: [], count: 0 };
  const pick = (): string => earlier[Math.floor(rnd() * earlier.length)]!;
  const parent = rnd() < 0.2 ? pick() : undefined;
  const by = new Set<string>();
  for (let k = parent ? 1 : 0; k < n && by.size < earlier.length; k++) by.add(pick());
  return { parent, blockedBy: [...by], count: by.size + (parent ? 1 : 0) };
}

function byOrder(a: { createdAt: string; id: string }, b: { createdAt: string; id: string }): number {
  return a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

const FILES = ["src/store.ts", "src/list.ts", "src/cli/main.ts", "test/list_test.ts", "README.md", "docs/pipes.md"];
const SHA = (rnd: () => number): string => Array.from({ length: 40 }, () => HEX[Math.floor(rnd() * 16)]).join("");

/** A small format-patch-shaped patch: 1–3 commits, each changing 1–2 files. */
function patchText(rnd: () => number, words: (n: number) => string): string {
  const int = (n: number): number => Math.floor(rnd() * n);
  const commits = 1 + int(3);
  let out = "";
  for (let c = 1; c <= commits; c++) {
    const n = commits === 1 ? "" : ` ${c}/${commits}`;
    out +=
      `From ${SHA(rnd)} Mon Sep 17 00:00:00 2001\nFrom: Dev <dev@example.com>\nDate: Mon, 3 Mar 2025 10:00:00 ` +
      `+0000\nSubject: [PATCH${n}] ${words(4)}\n\n${words(8)}\n---\n\n`;
    for (let f = 0; f < 1 + int(2); f++) {
      const path = FILES[int(FILES.length)]!;
      const minus = int(3);
      const plus = 1 + int(4);
      out +=
        `diff --git a/${path} b/${path}\nindex 1234567..89abcde 100644\n--- a/${path}\n+++ b/${path}\n@@ ` +
        `-1,${minus + 1} +1,${plus + 1} @@\n ${words(3)}\n`;
      for (let k = 0; k < minus; k++) out += `-${words(5)}\n`;
      for (let k = 0; k < plus; k++) out += `+${words(5)}\n`;
    }
    out += "\n";
  }
  return out;
}

/** Write `n` pull requests into `store` (see generateStore). */
function generatePrs(store: string, n: number, rnd: () => number, issueIds: string[]): GenSummary["prs"] {
  const int = (k: number): number => Math.floor(rnd() * k);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const some = <T>(xs: readonly T[], max: number): T[] => [
    ...new Set(Array.from({ length: int(max + 1) }, () => pick(xs))),
  ];
  const words = (k: number): string => Array.from({ length: k }, () => pick(WORDS)).join(" ");
  const stamp = (sec: number): string => formatTimestamp(new Date(sec * 1000));
  if (n > 0) {
    mkdirSync(join(store, "prs"), { recursive: true });
    mkdirSync(join(store, "archive", "prs"), { recursive: true });
  }
  const out: GenSummary["prs"] = [];
  for (let i = 0; i < n; i++) {
    const id = uuid(rnd);
    const created = YEAR_START + int(YEAR);
    const r = rnd();
    const state = r < 0.2 ? "closed" : r < 0.5 ? "merged" : "open";
    const archived = rnd() < 0.05;
    const patch = Buffer.from(patchText(rnd, words));
    const closes = issueIds.length && rnd() < 0.3 ? [pick(issueIds)] : [];
    const data = {
      title: words(2 + int(6)) + (rnd() < 0.1 ? `: "${pick(WORDS)}" #${i}` : ""),
      id,
      state,
      closedAt: state === "closed" ? stamp(created + 1 + int(30 * 86400)) : undefined,
      mergedAt: state === "merged" ? stamp(created + 1 + int(30 * 86400)) : undefined,
      isDraft: state === "open" && rnd() < 0.2,
      author: pick(USERS),
      baseRefName: rnd() < 0.9 ? "main" : "release/1.x",
      headRefName: `${pick(["fix", "feat", "docs", "perf"])}/${pick(WORDS)}-${i}`,
      baseSha: SHA(rnd),
      headSha: SHA(rnd),
      patchSha256: patchSha256(patch),
      previousPatchSha256: rnd() < 0.2 ? [patchSha256(Buffer.from(`earlier ${i}`))] : [],
      ci: rnd() < 0.7 ? pick(["pass", "pass", "pass", "fail", "running", "cancelled"]) : undefined,
      createdAt: stamp(created),
      milestone: rnd() < 0.3 ? pick(MILESTONE_DEFS).title : undefined,
      closes,
      labels: some(
        LABEL_DEFS.map((l) => l.name),
        2
      ),
      assignees: some(USERS, 1),
      reviewers: [],
    };
    const body = rnd() < 0.1 ? "" : `${words(5 + int(20))}\n${closes.length ? "\nFixes the linked issue.\n" : ""}`;
    const pdir = join(store, archived ? "archive" : "", "prs", id);
    mkdirSync(pdir);
    writeFileSync(join(pdir, "pr.md"), formatFrontmatter(toFrontmatter(PR, data), body));
    writeFileSync(join(pdir, "patch.diff"), patch);
    const nr = int(3);
    if (nr) mkdirSync(join(pdir, "reviews"));
    for (let k = 0; k < nr; k++) {
      const rid = uuid(rnd);
      const rstate = pick(["APPROVED", "CHANGES_REQUESTED", "COMMENTED"]);
      const rdata = { id: rid, author: pick(USERS), state: rstate, createdAt: stamp(created + 1 + int(10 * 86400)) };
      writeFileSync(
        join(pdir, "reviews", `${rid}.md`),
        formatFrontmatter(
          toFrontmatter(PR_REVIEW, rdata),
          rstate === "APPROVED" && rnd() < 0.5 ? "" : `${words(3 + int(10))}\n`
        )
      );
    }
    const nc = int(3);
    if (nc) mkdirSync(join(pdir, "comments"));
    for (let k = 0; k < nc; k++) {
      const cid = uuid(rnd);
      const cdata = { id: cid, author: pick(USERS), createdAt: stamp(created + 1 + int(10 * 86400)) };
      writeFileSync(
        join(pdir, "comments", `${cid}.md`),
        formatFrontmatter(toFrontmatter(COMMENT, cdata), `${words(3 + int(12))}\n`)
      );
    }
    out.push({ id, createdAt: data.createdAt, archived, state, reviews: nr, comments: nc });
  }
  return out.sort(byOrder);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const argv = process.argv.slice(2);
  const at = argv.indexOf("--prs");
  const prs = at >= 0 ? argv.splice(at, 2)[1] : "0";
  const [dir, n, seed] = argv;
  if (
    !dir ||
    !n ||
    !/^[0-9]+$/.test(n) ||
    (seed !== undefined && !/^[0-9]+$/.test(seed)) ||
    !/^[0-9]+$/.test(prs ?? "") ||
    argv.length > 3
  ) {
    process.stderr.write("usage: node tools/dist/gen_store.js <dir> <N> [seed] [--prs M]\n");
    process.exitCode = 2;
  } else {
    const t0 = performance.now();
    const s = generateStore(dir, { issues: Number(n), seed: seed === undefined ? 1 : Number(seed), prs: Number(prs) });
    process.stderr.write(
      `wrote ${s.issues.length} issues and ${s.prs.length} PRs to ${s.store} in ` +
        `${Math.round(performance.now() - t0)} ms\n`
    );
  }
}
