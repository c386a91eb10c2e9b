import test from "ava";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  COMMENT,
  formatFrontmatter,
  ISSUE,
  LABELS,
  MILESTONES,
  parseFrontmatter,
  parseFrontmatterFast,
  patchSha256,
  patchStat,
  PR,
  PR_REVIEW,
  toFrontmatter,
  validate,
  type EntitySchema,
} from "@forge/core";
import { generateStore, mulberry32 } from "./gen_store.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const FORGE_ISSUE = join(ROOT, "bin", "forge-issue");
const FORGE_PR = join(ROOT, "bin", "forge-pr");

function tempDir(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "forge-gen-")));
}

/** Every file under `dir`, relative, sorted. */
function walk(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p, base));
    else out.push(relative(base, p));
  }
  return out.sort();
}

function forgeIssue(cwd: string, args: string[], input = "", bin = FORGE_ISSUE) {
  const r = spawnSync(bin, args, {
    cwd,
    input,
    encoding: "utf8",
    maxBuffer: 1 << 28,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, FORGE_AUTHOR: "alice", NO_COLOR: "1" },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function schemaOf(rel: string): EntitySchema {
  if (rel === "labels.md") return LABELS;
  if (rel === "milestones.md") return MILESTONES;
  if (rel.endsWith("/issue.md")) return ISSUE;
  if (rel.endsWith("/pr.md")) return PR;
  if (/\/reviews\/[^/]+\.md$/.test(rel)) return PR_REVIEW;
  if (/\/comments\/[^/]+\.md$/.test(rel)) return COMMENT;
  throw new Error(`unexpected file ${rel}`);
}

const dir = tempDir();
const gen = generateStore(dir, { issues: 200, seed: 42 });
const live = gen.issues.filter((i) => !i.archived);
const archived = gen.issues.filter((i) => i.archived);

test("generateStore() writes live and archived, open and closed issues with comments", (t) => {
  t.is(gen.issues.length, 200);
  t.true(live.length > 150 && archived.length > 0, `${live.length} live, ${archived.length} archived`);
  t.true(gen.issues.some((i) => i.state === "closed") && gen.issues.some((i) => i.state === "open"));
  t.true(gen.issues.some((i) => i.comments === 0) && gen.issues.some((i) => i.comments === 3));
  t.is(readdirSync(join(gen.store, "issues")).length, live.length);
  t.is(readdirSync(join(gen.store, "archive", "issues")).length, archived.length);
  t.is(new Set(gen.issues.map((i) => i.id)).size, 200);
});

test("generateStore() spreads createdAt over a year", (t) => {
  const first = gen.issues[0]!.createdAt;
  const last = gen.issues.at(-1)!.createdAt;
  t.true(first.startsWith("2025-01") || first.startsWith("2025-02"), first);
  t.true(last.startsWith("2025-12") || last.startsWith("2025-11"), last);
});

test("forge-issue list --state all --json lists a generated store cleanly", (t) => {
  const r = forgeIssue(dir, ["list", "--state", "all", "--json", "id,number,isArchived", "--limit", "100000"]);
  t.is(r.code, 0);
  t.is(r.stderr, "");
  const lines = r.stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; number: number; isArchived: boolean });
  t.is(lines.length, live.length);
  // Newest first, and numbers are the rank by (createdAt, id) the generator computed.
  const want = gen.issues
    .map((i, n) => ({ id: i.id, number: n + 1, isArchived: false }))
    .filter((_, n) => !gen.issues[n]!.archived);
  t.deepEqual(lines, want.reverse());
});

test("numbers run 1..N over live and archived issues", (t) => {
  const listed = forgeIssue(dir, ["list", "--state", "all", "--json", "number", "--limit", "100000"]);
  const nums = listed.stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { number: number }).number);
  const missing = Array.from({ length: 200 }, (_, i) => i + 1).filter((n) => !nums.includes(n));
  const input = missing.map((number) => JSON.stringify({ number }) + "\n").join("");
  const viewed = forgeIssue(dir, ["view", "-", "--json", "id,number,isArchived"], input);
  t.is(viewed.code, 0, viewed.stderr);
  const rows = viewed.stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; number: number; isArchived: boolean });
  t.deepEqual(
    rows.map((r) => r.isArchived),
    missing.map(() => true)
  );
  t.deepEqual(new Set(rows.map((r) => r.id)), new Set(archived.map((a) => a.id)));
  t.deepEqual(
    [...nums, ...rows.map((r) => r.number)].sort((a, b) => a - b),
    Array.from({ length: 200 }, (_, i) => i + 1)
  );
});

test("generateStore() gives byte-identical trees for the same seed", (t) => {
  const a = tempDir();
  const b = tempDir();
  generateStore(a, { issues: 50, seed: 7 });
  generateStore(b, { issues: 50, seed: 7 });
  const files = walk(a);
  t.deepEqual(walk(b), files);
  for (const f of files) t.true(readFileSync(join(a, f)).equals(readFileSync(join(b, f))), f);
});

test("generateStore() gives different trees for different seeds", (t) => {
  const a = generateStore(tempDir(), { issues: 20, seed: 1 });
  const b = generateStore(tempDir(), { issues: 20, seed: 2 });
  t.notDeepEqual(
    a.issues.map((i) => i.id),
    b.issues.map((i) => i.id)
  );
});

test("every generated file is canonical and round-trips through core's parser", async (t) => {
  const files = walk(gen.store).filter((f) => f.endsWith(".md"));
  t.true(files.length > 200 + 100, `${files.length} files`);
  for (const rel of files) {
    const text = readFileSync(join(gen.store, rel), "utf8");
    t.truthy(parseFrontmatterFast(text, rel), `${rel} is not canonical`);
    const fm = await parseFrontmatter(text, rel);
    const schema = schemaOf(rel);
    const v = validate(schema, fm.data, rel);
    t.deepEqual(v.warnings, [], rel);
    t.is(formatFrontmatter(toFrontmatter(schema, v.data, v.extra), fm.body), text, rel);
  }
});

test("generateStore() refuses a folder that already has a store", (t) => {
  t.throws(() => generateStore(dir, { issues: 1 }), { message: /already exists/ });
});

test("mulberry32() is deterministic and stays in [0, 1)", (t) => {
  const a = mulberry32(3);
  const b = mulberry32(3);
  const xs = Array.from({ length: 1000 }, () => a());
  t.deepEqual(
    Array.from({ length: 1000 }, () => b()),
    xs
  );
  t.true(xs.every((x) => x >= 0 && x < 1));
});

const prDir = tempDir();
const withPrs = generateStore(prDir, { issues: 30, prs: 120, seed: 5 });

test("generateStore() with prs writes open, closed, merged and archived PRs with reviews and comments", (t) => {
  t.is(withPrs.prs.length, 120);
  for (const s of ["open", "closed", "merged"])
    t.true(
      withPrs.prs.some((p) => p.state === s),
      s
    );
  t.true(
    withPrs.prs.some((p) => p.archived) &&
      withPrs.prs.some((p) => p.reviews > 0) &&
      withPrs.prs.some((p) => p.comments > 0)
  );
  t.is(new Set(withPrs.prs.map((p) => p.id)).size, 120);
});

test("generateStore() with prs leaves the issues of a seed as they were", (t) => {
  const plain = generateStore(tempDir(), { issues: 30, seed: 5 });
  t.deepEqual(plain.issues, withPrs.issues);
  t.deepEqual(plain.prs, []);
});

test("every generated PR file is canonical and its patch.diff matches patchSha256 and parses", async (t) => {
  const files = walk(withPrs.store).filter((f) => f.includes("prs/"));
  t.true(files.length > 240, `${files.length} files`);
  for (const rel of files) {
    const text = readFileSync(join(withPrs.store, rel), "utf8");
    if (rel.endsWith("/patch.diff")) {
      const pr = await parseFrontmatter(
        readFileSync(join(withPrs.store, rel.replace(/patch\.diff$/, "pr.md")), "utf8"),
        rel
      );
      t.is(patchSha256(Buffer.from(text)), pr.data.patchSha256 as string, rel);
      t.true(patchStat(text).files.length > 0, rel);
      continue;
    }
    t.truthy(parseFrontmatterFast(text, rel), `${rel} is not canonical`);
    const fm = await parseFrontmatter(text, rel);
    const v = validate(schemaOf(rel), fm.data, rel);
    t.deepEqual(v.warnings, [], rel);
    t.is(formatFrontmatter(toFrontmatter(schemaOf(rel), v.data, v.extra), fm.body), text, rel);
  }
});

test(
  "forge-pr list --state all --json lists a generated " + "store cleanly, newest first, numbered by (createdAt, id)",
  (t) => {
    const r = forgeIssue(
      prDir,
      ["list", "--state", "all", "--json", "id,number,additions", "--limit", "100000"],
      "",
      FORGE_PR
    );
    t.is(r.code, 0);
    t.is(r.stderr, "");
    const rows = r.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: string; number: number; additions: number });
    const want = withPrs.prs
      .map((p, n) => ({ id: p.id, number: n + 1 }))
      .filter((_, n) => !withPrs.prs[n]!.archived)
      .reverse();
    t.deepEqual(
      rows.map((x) => ({ id: x.id, number: x.number })),
      want
    );
    t.true(rows.every((x) => x.additions > 0));
  }
);
