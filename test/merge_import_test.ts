/**
 * forge-merge import end to end: a foreign `.forge/` (another clone's) from
 * a folder or a zip comes in entity by entity — added, unchanged, or a
 * conflict that is reported and never overwritten; any invalid or hostile
 * input (bad field, YAML alias, a patch that is not the PR's, a symlink,
 * zip-slip) stops it with one line before anything is written; a record in
 * merges/imports/ lists what came in; an imported merge record makes a
 * replay of that patch recognised here.
 */
import test, { type ExecutionContext } from "ava";
import { createHash } from "node:crypto";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { git, jsonl, run, sh, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";
import { makeZip } from "@forge/merge/zip-fixture";
import { GITHUB_DEFAULT_LABELS } from "@forge/core";

test.after.always(removeScratch);

interface Line {
  kind: string;
  id: string;
  result: string;
  reason?: string;
}

async function ok(t: ExecutionContext, cwd: string, cmd: string, args: string[], input?: string): Promise<string> {
  const r = await run(cmd, args, { cwd, input });
  t.is(r.code, 0, `${cmd} ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

/** Every file under `.forge/` (machine state included) with a digest of its bytes. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const root = join(dir, ".forge");
  const walk = (d: string): void => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(root, p)] = createHash("sha256").update(readFileSync(p)).digest("hex");
    }
  };
  walk(root);
  return out;
}

let made: Promise<string> | undefined;

/**
 * A clone's store with one of everything: issue + comment, label,
 * milestone, task, wiki page, PR + review + comment, a merged PR and its
 * record, a release, evidence, a CI step. Made once; each test gets a copy.
 */
async function foreign(t: ExecutionContext): Promise<string> {
  const src = await (made ??= makeForeign(t));
  const dir = scratch(realpathSync(mkdtempSync(join(tmpdir(), "forge-foreign-"))));
  cpSync(src, dir, { recursive: true, verbatimSymlinks: true });
  return dir;
}

async function makeForeign(t: ExecutionContext): Promise<string> {
  const dir = scratch(tempRepo("forge-foreign-"));
  writeFileSync(join(dir, "a.txt"), "1\n2\n3\n");
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "initial"]);
  await ok(t, dir, "forge-issue", ["create", "-t", "From afar", "-b", "body\n"]);
  await ok(t, dir, "forge-issue", ["comment", "1", "-b", "a comment"]);
  // Its labels.md: GitHub's 9 default labels (a store starts with them) and this one.
  await ok(t, dir, "forge-label", ["create", "triage", "-c", "d73a4a"]);
  await ok(t, dir, "forge-milestone", ["create", "v1"]);
  await ok(t, dir, "forge-task", ["create", "-t", "do it"]);
  await ok(t, dir, "forge-wiki", ["put", "docs/setup"], "# Setup\n\nsteps\n");
  const ids: string[] = [];
  for (const [branch, file] of [
    ["one", "b.txt"],
    ["two", "c.txt"],
  ] as const) {
    git(dir, ["checkout", "-q", "-b", branch, "main"]);
    writeFileSync(join(dir, file), `${branch}\n`);
    git(dir, ["add", file]);
    git(dir, ["commit", "-qm", `add ${file}`]);
    ids.push(
      (
        jsonl(await ok(t, dir, "forge-pr", ["create", "-t", `PR ${branch}`, "-B", "main", "--json", "id"]))[0] as {
          id: string;
        }
      ).id
    );
  }
  git(dir, ["checkout", "-q", "main"]);
  // The merge below runs CI: it needs a step (no steps is never green).
  mkdirSync(join(dir, ".forge", "ci", "steps"), { recursive: true });
  writeFileSync(join(dir, ".forge", "ci", "steps", "10-test"), "#!/bin/sh\ntrue\n");
  chmodSync(join(dir, ".forge", "ci", "steps", "10-test"), 0o755);
  const review = await run("forge-pr", ["review", ids[1]!, "--approve"], { cwd: dir, env: { FORGE_AUTHOR: "bob" } });
  t.is(review.code, 0, review.stderr);
  await ok(t, dir, "forge-pr", ["comment", ids[1]!, "-b", "looks fine"]);
  // The merge's record through the evidence lane: the store's evidence is an import the lane wrote.
  await ok(t, dir, "forge-export", [], await ok(t, dir, "forge-merge", [ids[0]!, "--json"]));
  await ok(t, dir, "forge-release", ["create", "v1.0", "-n", "first"]);
  return dir;
}

function local(): string {
  return scratch(tempRepo("forge-local-"));
}

async function importJson(
  cwd: string,
  source: string
): Promise<{ code: number | null; lines: Line[]; stderr: string }> {
  const r = await run("forge-merge", ["import", source, "--json"], { cwd });
  return { code: r.code, lines: jsonl(r.stdout) as unknown as Line[], stderr: r.stderr };
}

/** Kind → number of lines with `result`. */
function count(lines: Line[], result: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const l of lines) if (l.result === result) out[l.kind] = (out[l.kind] ?? 0) + 1;
  return out;
}

/** A zip of `dir`'s `.forge/`, as another machine would send it. */
function zipOf(dir: string, extra: Array<Parameters<typeof makeZip>[0][number]> = []): Buffer {
  const entries: Parameters<typeof makeZip>[0] = [];
  const root = join(dir, ".forge");
  const walk = (d: string): void => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      const rel = relative(dir, p);
      if (statSync(p).isDirectory()) {
        entries.push({ name: `${rel}/` });
        walk(p);
      } else entries.push({ name: rel, data: readFileSync(p) });
    }
  };
  walk(root);
  return makeZip([...entries, ...extra]);
}

const DEFAULT_LABELS = GITHUB_DEFAULT_LABELS.map((l) => l.name);

const EVERYTHING = {
  label: 1,
  milestone: 1,
  issue: 1,
  task: 1,
  pr: 2,
  comment: 1,
  review: 1,
  "pr-comment": 1,
  wiki: 1,
  release: 1,
  merge: 1,
  evidence: 1,
  "import-record": 1,
};

// --- the happy path ---

test(
  "import <dir>: every entity added byte for byte, machine state and CI steps not imported; again: all unchanged, " +
    "no record",
  async (t) => {
    const b = await foreign(t);
    const a = local();
    const r = await importJson(a, b);
    t.is(r.code, 0, r.stderr);
    t.deepEqual(count(r.lines, "added"), EVERYTHING);
    t.deepEqual(count(r.lines, "conflict"), {});
    t.deepEqual(
      r.lines.filter((l) => l.result === "skipped").map((l) => [l.kind, l.id]),
      [["file", "ci/steps/10-test"]]
    );
    // Byte for byte, except what is not imported (ci/, releases/out/, and the record written here).
    const tb = tree(b);
    const ta = tree(a);
    for (const [rel, digest] of Object.entries(tb)) {
      if (/^(ci\/|releases\/out\/|\.cache\/|\.gitignore$|labels\.md$|milestones\.md$)/.test(rel)) continue;
      t.is(ta[rel], digest, rel);
    }
    t.false(existsSync(join(a, ".forge", "ci", "steps", "10-test")));
    t.false(existsSync(join(a, ".forge", "releases", "out")));
    // The commands read what came in.
    const issues = jsonl(await ok(t, a, "forge-issue", ["list", "--json", "title,comments"]));
    t.is(issues[0]!.title, "From afar");
    t.is((issues[0]!.comments as unknown[]).length, 1);
    const prs = jsonl(await ok(t, a, "forge-pr", ["list", "--state", "all", "--json", "state,reviews,title"]));
    t.deepEqual(prs.map((p) => p.state).sort(), ["MERGED", "OPEN"]);
    t.deepEqual(
      jsonl(await ok(t, a, "forge-label", ["list", "--json", "name", "-L", "100"])).map((l) => l.name),
      [...DEFAULT_LABELS, "triage"]
    );
    // The record lists what came in.
    const rec = r.lines.find((l) => l.kind === "import-record")!;
    const text = readFileSync(join(a, ".forge", "merges", "imports", `${rec.id}.md`), "utf8");
    t.regex(text, new RegExp(`\\nsource: "?${b.split("/").pop()}"?\\n`));
    for (const l of r.lines.filter((x) => x.result === "added" && x.kind !== "import-record"))
      t.true(text.includes(`  - ${l.kind}/${l.id}\n`), `${l.kind}/${l.id}`);
    // Again: nothing new.
    const before = tree(a);
    const again = await importJson(a, b);
    t.is(again.code, 0, again.stderr);
    t.deepEqual(count(again.lines, "added"), {});
    const { "import-record": _record, ...unchanged } = EVERYTHING;
    // The default labels there are the default labels here: unchanged each time.
    t.deepEqual(count(again.lines, "unchanged"), { ...unchanged, label: 1 + DEFAULT_LABELS.length });
    t.deepEqual(tree(a), before);
  }
);

/** The evidence import files of a store, name → digest. */
function evidenceFiles(dir: string): Record<string, string> {
  return Object.fromEntries(Object.entries(tree(dir)).filter(([rel]) => rel.startsWith("evidence/imports/")));
}

/** A copy of the foreign store with a second evidence import (a CI run's), so that there is something to pack. */
async function foreignWithCiImport(t: ExecutionContext): Promise<string> {
  const dir = await foreign(t);
  await ok(t, dir, "forge-ci", ["run"]);
  t.is((await sh("forge-ci list --json | forge-export", { cwd: dir })).code, 0);
  return dir;
}

test(
  "a pack there (a pilot run ends with one): its records come in as the loose imports they were, idempotent, " +
    "also against a pack here; a damaged pack is refused with one line naming it",
  async (t) => {
    const loose = await foreignWithCiImport(t);
    const want = evidenceFiles(loose);
    const n = Object.keys(want).length;
    t.true(n >= 2, String(n));
    const packed = scratch(realpathSync(mkdtempSync(join(tmpdir(), "forge-foreign-"))));
    cpSync(loose, packed, { recursive: true, verbatimSymlinks: true });
    t.is(jsonl(await ok(t, packed, "forge-export", ["pack", "--json"]))[0]!.packed, n);
    const pack = readdirSync(join(packed, ".forge", "evidence", "imports"));
    t.is(pack.length, 1);
    t.regex(pack[0]!, /^pack-[0-9a-f]{64}\.json$/);

    // From the pack: the same entities as from the loose files, the same bytes here.
    const a = local();
    const r = await importJson(a, packed);
    t.is(r.code, 0, r.stderr);
    const ids = Object.keys(want).map((rel) => rel.split("/").at(-1)!);
    t.deepEqual(
      r.lines.filter((l) => l.kind === "evidence").map((l) => [l.id, l.result]),
      ids.map((id) => [id, "added"])
    );
    t.deepEqual(evidenceFiles(a), want);
    // Again (from the pack, then from the loose files): unchanged, nothing written.
    let before = tree(a);
    for (const src of [packed, loose]) {
      const again = await importJson(a, src);
      t.is(again.code, 0, again.stderr);
      t.deepEqual(count(again.lines, "added"), {});
      t.is(count(again.lines, "unchanged").evidence, n);
      t.deepEqual(tree(a), before);
    }
    // Packed here too: the batches are here already.
    t.is(jsonl(await ok(t, a, "forge-export", ["pack", "--json"]))[0]!.packed, n);
    before = tree(a);
    for (const src of [loose, packed]) {
      const again = await importJson(a, src);
      t.is(again.code, 0, again.stderr);
      t.is(count(again.lines, "unchanged").evidence, n, JSON.stringify(again.lines));
      t.deepEqual(tree(a), before);
    }

    // A pack and its parts both there (a pack interrupted before it removed them): each batch once.
    const both = scratch(realpathSync(mkdtempSync(join(tmpdir(), "forge-foreign-"))));
    cpSync(loose, both, { recursive: true, verbatimSymlinks: true });
    cpSync(
      join(packed, ".forge", "evidence", "imports", pack[0]!),
      join(both, ".forge", "evidence", "imports", pack[0]!)
    );
    const c = local();
    const rb = await importJson(c, both);
    t.is(rb.code, 0, rb.stderr);
    t.is(count(rb.lines, "added").evidence, n);
    t.deepEqual(evidenceFiles(c), want);

    // A damaged pack (a trial's outcome flipped): one line naming it, nothing written.
    const file = join(packed, ".forge", "evidence", "imports", pack[0]!);
    const text = readFileSync(file, "utf8");
    t.true(text.includes('"outcome":"pass"'));
    writeFileSync(file, text.replace('"outcome":"pass"', '"outcome":"fail"'));
    const d = local();
    const dBefore = tree(d);
    const bad = await run("forge-merge", ["import", packed], { cwd: d });
    t.is(bad.code, 1);
    t.is(bad.stdout, "");
    t.regex(
      bad.stderr,
      /^forge-merge import: [^\n]*\/evidence\/imports\/pack-[0-9a-f]{64}\.json: field 'pack_sha256': [^\n]*\n$/
    );
    t.deepEqual(tree(d), dBefore);
  }
);

test(
  "a damaged pack here is named, and the batches it may hold are conflicts: neither added again (a duplicate) nor " +
    "taken as here on its word",
  async (t) => {
    const there = await foreignWithCiImport(t);
    const a = local();
    t.is((await importJson(a, there)).code, 0);
    const n = Object.keys(evidenceFiles(a)).length;
    t.true(n >= 2);
    const pack = String(jsonl(await ok(t, a, "forge-export", ["pack", "--json"]))[0]!.pack);
    const file = join(a, pack);
    writeFileSync(file, readFileSync(file, "utf8").replace('"scope":"', '"scope":"x'));
    const before = tree(a);
    const r = await importJson(a, there);
    t.is(r.code, 1);
    const ev = r.lines.filter((l) => l.kind === "evidence");
    t.is(ev.length, n);
    t.deepEqual(
      ev.map((l) => [l.result, l.reason]),
      ev.map(() => ["conflict", `a damaged pack here may hold it: ${pack} (run forge fsck)`])
    );
    t.deepEqual(count(r.lines, "added"), {});
    t.regex(r.stderr, new RegExp(`^forge-merge import: ${pack.replace(/\./g, "\\.")}: field 'pack_sha256': `, "m"));
    t.deepEqual(
      evidenceFiles(a),
      Object.fromEntries(Object.entries(before).filter(([k]) => k.startsWith("evidence/")))
    );
  }
);

test(
  "import <zip>: the same entities come in as from " + "the folder; the human output is one row per entity",
  async (t) => {
    const b = await foreign(t);
    const zip = join(scratch(local()), "store.zip");
    writeFileSync(zip, zipOf(b));
    const a = local();
    const r = await importJson(a, zip);
    t.is(r.code, 0, r.stderr);
    t.deepEqual(count(r.lines, "added"), EVERYTHING);
    const a2 = local();
    const h = await run("forge-merge", ["import", zip], { cwd: a2 });
    t.is(h.code, 0, h.stderr);
    const rows = h.stdout
      .slice(0, -1)
      .split("\n")
      .map((l) => l.split("\t"));
    t.true(
      rows.every((row) => row.length === 4),
      h.stdout
    );
    t.is(
      rows.filter((row) => row[2] === "added").length,
      Object.values(EVERYTHING).reduce((x, y) => x + y, 0)
    );
  }
);

test("edit records come in like comments: updatedAt and a PR's draft state as in the other clone", async (t) => {
  const a = scratch(tempRepo("forge-edits-"));
  writeFileSync(join(a, "a.txt"), "1\n");
  git(a, ["add", "-A"]);
  git(a, ["commit", "-qm", "initial"]);
  await ok(t, a, "forge-issue", ["create", "-t", "one"]);
  git(a, ["checkout", "-qb", "topic"]);
  writeFileSync(join(a, "a.txt"), "2\n");
  git(a, ["commit", "-qam", "change"]);
  await ok(t, a, "forge-pr", ["create", "-t", "draft", "-b", "", "-B", "main", "--draft"]);
  git(a, ["checkout", "-q", "main"]);
  // In a later second than the create: the edit record moves updatedAt.
  await new Promise((res) => setTimeout(res, 1000 - (Date.now() % 1000) + 20));
  await ok(t, a, "forge-issue", ["edit", "1", "-t", "one, edited"]);
  const view = (dir: string, noun: string, fields: string) =>
    ok(t, dir, `forge-${noun}`, ["view", "1", "--json", fields]).then((o) => JSON.parse(o) as Record<string, unknown>);
  const ai = await view(a, "issue", "createdAt,updatedAt,title");
  t.not(ai.updatedAt, ai.createdAt);
  // A new issue with its edit record.
  const b = local();
  const r1 = await importJson(b, a);
  t.is(r1.code, 0, r1.stderr);
  t.deepEqual(count(r1.lines, "added"), { issue: 1, pr: 1, edit: 1, "import-record": 1 });
  t.deepEqual(await view(b, "issue", "createdAt,updatedAt,title"), ai);
  t.deepEqual(await view(b, "pr", "isDraft"), { isDraft: true });
  // An edit record for a PR already here: `pr ready` writes only that.
  await new Promise((res) => setTimeout(res, 1000 - (Date.now() % 1000) + 20));
  await ok(t, a, "forge-pr", ["ready", "1"]);
  const ap = await view(a, "pr", "isDraft,updatedAt");
  t.is(ap.isDraft, false);
  const r2 = await importJson(b, a);
  t.is(r2.code, 0, r2.stderr);
  t.deepEqual(count(r2.lines, "added"), { "pr-edit": 1, "import-record": 1 });
  t.deepEqual(count(r2.lines, "unchanged"), { issue: 1, pr: 1, edit: 1 });
  t.deepEqual(await view(b, "pr", "isDraft,updatedAt"), ap);
  // Again: nothing new.
  const r3 = await importJson(b, a);
  t.deepEqual(count(r3.lines, "added"), {});
  t.deepEqual(count(r3.lines, "unchanged"), { issue: 1, pr: 1, edit: 1, "pr-edit": 1 });
});

// --- conflicts ---

test(
  "an id that exists here with other content is a conflict: reported, kept as it is here; the rest still comes " +
    "in; exit 1",
  async (t) => {
    const b = await foreign(t);
    const a = local();
    t.is((await importJson(a, b)).code, 0);
    await ok(t, a, "forge-issue", ["edit", "1", "-t", "Edited here"]);
    await ok(t, a, "forge-label", ["edit", "triage", "-c", "000000"]);
    await ok(t, b, "forge-issue", ["create", "-t", "Second from afar"]);
    const r = await importJson(a, b);
    t.is(r.code, 1);
    t.deepEqual(
      r.lines.filter((l) => l.result === "conflict").map((l) => [l.kind, l.reason]),
      [
        ["label", "defined here with other content"],
        ["issue", "exists here with other content"],
      ]
    );
    t.deepEqual(count(r.lines, "added"), { issue: 1, "import-record": 1 });
    const stderr = r.stderr.trim().split("\n");
    t.is(stderr.length, 2, r.stderr);
    for (const line of stderr)
      t.regex(
        line,
        /^forge-merge import: conflict: (label triage|issue [0-9a-f-]{36}): [^\n]+ \(kept as it is here\)$/
      );
    const titles = jsonl(await ok(t, a, "forge-issue", ["list", "--json", "title"]))
      .map((i) => i.title)
      .sort();
    t.deepEqual(titles, ["Edited here", "Second from afar"]);
    t.is(jsonl(await ok(t, a, "forge-label", ["list", "-S", "triage", "--json"]))[0]!.color, "000000");
    const rec = r.lines.find((l) => l.kind === "import-record")!;
    t.regex(
      readFileSync(join(a, ".forge", "merges", "imports", `${rec.id}.md`), "utf8"),
      /\nconflicts:\n {2}- label\/triage\n {2}- issue\/[0-9a-f-]{36}\n/
    );
  }
);

test("a PR archived there but live here is a conflict (never moved by an import)", async (t) => {
  const b = await foreign(t);
  const a = local();
  t.is((await importJson(a, b)).code, 0);
  const open = jsonl(await ok(t, b, "forge-pr", ["list", "--json", "id"]))[0] as { id: string };
  await ok(t, b, "forge-pr", ["archive", open.id]);
  const r = await importJson(a, b);
  t.is(r.code, 1);
  t.deepEqual(
    r.lines.filter((l) => l.result === "conflict").map((l) => [l.kind, l.reason]),
    [["pr", "archived there, not here"]]
  );
});

// --- invalid and hostile input: one line, nothing written ---

interface Bad {
  name: string;
  /** Break the foreign store in `b` (its `.forge/`). */
  spoil: (forge: string) => void;
  /** The stderr line. */
  err: RegExp;
}

function firstEntity(forge: string, plural: string): string {
  return join(
    forge,
    plural,
    readdirSync(join(forge, plural)).find((n) => /^[0-9a-f-]{36}$/.test(n))!
  );
}

const BAD: Bad[] = [
  {
    name: "an issue missing a required field",
    spoil: (f) => {
      const p = join(firstEntity(f, "issues"), "issue.md");
      writeFileSync(p, readFileSync(p, "utf8").replace(/^author: .*\n/m, ""));
    },
    err: /^forge-merge import: forge-foreign-[^/]+\/issues\/[0-9a-f-]{36}\/issue\.md: field 'author': missing\n$/,
  },
  {
    name: "a task with an invalid status",
    spoil: (f) => {
      const p = join(firstEntity(f, "tasks"), "task.md");
      writeFileSync(p, readFileSync(p, "utf8").replace(/^status: .*$/m, "status: sideways"));
    },
    err: /task\.md: field 'status': expected one of todo\|doing\|blocked\|done\n$/,
  },
  {
    name: "a YAML alias (SEC-01)",
    spoil: (f) => {
      const p = join(firstEntity(f, "issues"), "issue.md");
      writeFileSync(p, readFileSync(p, "utf8").replace(/^labels:.*$/m, "x: &a [1]\nlabels: *a"));
    },
    err: /issue\.md: [^\n]*alias/i,
  },
  {
    name: "a file over 256 KiB (SEC-01)",
    spoil: (f) => {
      const p = join(firstEntity(f, "issues"), "issue.md");
      writeFileSync(p, readFileSync(p, "utf8") + "x".repeat(300 * 1024));
    },
    err: /issue\.md: larger than 256 KiB\n$/,
  },
  {
    name: "a patch that is not the PR's patchSha256",
    spoil: (f) => {
      const p = join(firstEntity(f, "prs"), "patch.diff");
      writeFileSync(p, readFileSync(p, "utf8") + "\n");
    },
    err: /patch\.diff: does not match the PR's patchSha256\n$/,
  },
  {
    name: "an issue whose id is not its folder's",
    spoil: (f) => {
      const p = join(firstEntity(f, "issues"), "issue.md");
      writeFileSync(p, readFileSync(p, "utf8").replace(/^id: .*$/m, "id: 3f2a8c1e-5b7d-4e9a-8c6f-1d2e3b4a5c6d"));
    },
    err: /issue\.md: field 'id': does not match its folder name\n$/,
  },
  {
    name: "a comment without its issue",
    spoil: (f) => {
      const d = join(f, "issues", "3f2a8c1e-5b7d-4e9a-8c6f-1d2e3b4a5c6d", "comments");
      mkdirSync(d, { recursive: true });
      writeFileSync(
        join(d, "4f2a8c1e-5b7d-4e9a-8c6f-1d2e3b4a5c6d.md"),
        '---\nid: 4f2a8c1e-5b7d-4e9a-8c6f-1d2e3b4a5c6d\nauthor: x\ncreatedAt: "2026-01-01T00:00:00Z"\n---\nhi\n'
      );
    },
    err: /comments\/4f2a8c1e-5b7d-4e9a-8c6f-1d2e3b4a5c6d\.md: its issue is not in the store\n$/,
  },
  {
    name: "a symlink in the foreign tree (SEC-02)",
    spoil: (f) => symlinkSync("/etc/passwd", join(f, "wiki", "passwd.md")),
    err: /^forge-merge import: foreign store: 'wiki\/passwd\.md' is a symlink \(refused\)\n$/,
  },
  {
    name: "a symlinked entity folder (SEC-02)",
    spoil: (f) => symlinkSync("/tmp", join(f, "issues", "5f2a8c1e-5b7d-4e9a-8c6f-1d2e3b4a5c6d")),
    err: /is a symlink \(refused\)\n$/,
  },
  {
    name: "evidence that is not JSON",
    spoil: (f) => writeFileSync(join(f, "evidence", "imports", "batch-2.json"), "{not json"),
    err: /batch-2\.json: not valid JSON\n$/,
  },
  {
    name: "an evidence import the evidence lane refuses (a bad field)",
    spoil: (f) => {
      const d = join(f, "evidence", "imports");
      const name = readdirSync(d).find((n) => /^[0-9a-f]{64}\.json$/.test(n))!;
      const text = readFileSync(join(d, name), "utf8");
      writeFileSync(join(d, name), text.replace('"trial_episodes":"', '"trial_episodes":"not-'));
    },
    err: /^forge-merge import: [^\n]*\/[0-9a-f]{64}\.json: field 'trial_episodes': expected derived\|stored\n$/,
  },
];

for (const bad of BAD) {
  test(`import refuses ${bad.name}: one stderr line, exit 1, nothing written`, async (t) => {
    const b = await foreign(t);
    bad.spoil(join(b, ".forge"));
    const a = local();
    await ok(t, a, "forge-issue", ["create", "-t", "mine"]);
    const before = tree(a);
    const r = await run("forge-merge", ["import", b, "--json"], { cwd: a });
    t.is(r.code, 1);
    t.is(r.stdout, "");
    t.regex(r.stderr, bad.err);
    t.is(r.stderr.split("\n").length, 2, r.stderr);
    t.deepEqual(tree(a), before);
  });
}

const BAD_ZIPS: Array<[string, Parameters<typeof makeZip>[0][number], RegExp]> = [
  [
    "a zip-slip entry",
    { name: ".forge/../../evil.md", data: "x" },
    new RegExp(
      /^forge-merge import: bad zip: '\.forge\/\.\.\/\.\.\/evil\.md' /.source +
        /has an empty, '\.' or '\.\.' component \(refused\)\n$/.source
    ),
  ],
  ["an absolute entry", { name: "/tmp/evil.md", data: "x" }, /absolute path/],
  ["a symlink entry", { name: ".forge/wiki/link.md", data: "/etc/passwd", mode: 0o120777 }, /is a symlink \(refused\)/],
  ["a bomb entry", { name: ".forge/wiki/bomb.md", data: Buffer.alloc(16 * 1024 * 1024) }, /absurd compression ratio/],
];
for (const [what, entry, err] of BAD_ZIPS) {
  test(`import refuses a zip with ${what}: one line, nothing written`, async (t) => {
    const b = await foreign(t);
    const zip = join(scratch(local()), "store.zip");
    writeFileSync(zip, zipOf(b, [entry]));
    const a = local();
    const before = tree(a);
    const r = await run("forge-merge", ["import", zip], { cwd: a });
    t.is(r.code, 1);
    t.is(r.stdout, "");
    t.regex(r.stderr, err);
    t.deepEqual(tree(a), before);
  });
}

test("import of something that is not a store is a usage error; a missing path is one line", async (t) => {
  const a = local();
  const empty = scratch(local());
  const notStore = join(empty, "sub");
  mkdirSync(notStore);
  const r = await run("forge-merge", ["import", notStore], { cwd: a });
  t.is(r.code, 2);
  t.regex(r.stderr, /^forge-merge import: 'sub' holds no \.forge\/ store/);
  const m = await run("forge-merge", ["import", join(empty, "nope")], { cwd: a });
  t.is(m.code, 2);
  t.is(m.stderr.split("\n").length, 2);
});

// --- an imported merge record guards against replays ---

test(
  "after importing another clone's merge record, merging " + "the same change here is refused as already merged",
  async (t) => {
    const b = await foreign(t);
    // A clone of b's history before its merge, with the same change filed as its own PR.
    const a = scratch(tempRepo("forge-local-"));
    git(b, ["branch", "base", "main~1"]);
    git(a, ["fetch", "-q", b, "base:refs/remotes/b/base"]);
    git(a, ["reset", "-q", "--hard", "b/base"]);
    t.is(git(a, ["rev-list", "--count", "HEAD"]).trim(), "1");
    git(a, ["checkout", "-q", "-b", "same"]);
    writeFileSync(join(a, "b.txt"), "one\n");
    git(a, ["add", "b.txt"]);
    git(a, ["commit", "-qm", "the same change, described another way"]);
    t.is((await run("forge-pr", ["create", "-t", "Same change", "-B", "main"], { cwd: a })).code, 0);
    git(a, ["checkout", "-q", "main"]);
    const r = await importJson(a, b);
    t.is(r.code, 0, r.stderr);
    const merged = r.lines.find((l) => l.kind === "merge")!;
    const mine = jsonl(await ok(t, a, "forge-pr", ["list", "--json", "number,title"])).find(
      (p) => p.title === "Same change"
    )!;
    const m = await sh(
      `forge-merge ${mine.number} --json | jq -c '{verdict, record: .landed.record, by: .landed.by}'`,
      {
        cwd: a,
      }
    );
    t.is(m.code, 1);
    t.is(m.stdout, JSON.stringify({ verdict: "already-merged", record: merged.id, by: "patchId" }) + "\n");
  }
);

test(
  "zip in a repo → merged: a PR that arrives in another clone's zipped store is imported, then merged here with a " +
    "record",
  async (t) => {
    const b = await foreign(t);
    const open = jsonl(await ok(t, b, "forge-pr", ["list", "--json", "id,title"]))[0] as { id: string; title: string };
    const zip = join(scratch(local()), "from-b.zip");
    writeFileSync(zip, zipOf(b));
    // Here: the same history up to b's main before its merge.
    const a = scratch(tempRepo("forge-local-"));
    git(b, ["branch", "base", "main~1"]);
    git(a, ["fetch", "-q", b, "base:refs/remotes/b/base"]);
    git(a, ["reset", "-q", "--hard", "b/base"]);
    const old = git(a, ["rev-parse", "main"]).trim();
    const r = await importJson(a, zip);
    t.is(r.code, 0, r.stderr);
    // CI steps are not imported; the merge here runs this clone's (no steps is never green).
    mkdirSync(join(a, ".forge", "ci", "steps"), { recursive: true });
    writeFileSync(join(a, ".forge", "ci", "steps", "10-test"), "#!/bin/sh\ntrue\n");
    chmodSync(join(a, ".forge", "ci", "steps", "10-test"), 0o755);
    const m = await sh(`forge-merge ${open.id} --json | jq -c '{verdict, checkout}'`, { cwd: a });
    t.is(m.code, 0, m.stderr);
    t.is(m.stdout, '{"verdict":"merged","checkout":"updated"}\n');
    t.is(git(a, ["rev-parse", "main^"]).trim(), old);
    t.is(readFileSync(join(a, "c.txt"), "utf8"), "two\n");
    t.is(git(a, ["log", "-1", "--format=%s"]).trim(), open.title);
    const view = jsonl(await ok(t, a, "forge-pr", ["view", open.id, "--json", "state"]))[0]!;
    t.is(view.state, "MERGED");
    const merged = readdirSync(join(a, ".forge", "merges")).filter((n) => n.endsWith(".md"));
    t.is(merged.length, 2, "b's record (imported) and ours");
  }
);
