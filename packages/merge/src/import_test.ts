import test from "ava";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { evidenceImportFile, evidenceImportsDir, storeAt, writeStoreVersion } from "@forge/core";
import { BUNDLE_SCHEMA, exportBundle, importProjectionBatch, transformEnvelopeV3 } from "@forge/evidence";
import type { Foreign } from "./_foreign.js";
import { readIncoming } from "./_incoming.js";
import { applyPlan, planImport } from "./_plan.js";
import { importStore, recordParts } from "./import.js";

const made: string[] = [];
test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const ISSUE_ID = "3f2a8c1e-5b7d-4e9a-8c6f-1d2e3b4a5c6d";
const COMMENT_ID = "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f";
const TASK_ID = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";

const issue = (title: string): string =>
  `---\ntitle: ${title}\nid: ${ISSUE_ID}\nstate: open\nauthor: alice\ncreatedAt: ` +
  `"2026-01-02T03:04:05Z"\nlabels:\nassignees:\n---\nbody\n`;
const comment = `---\nid: ${COMMENT_ID}\nauthor: bob\ncreatedAt: "2026-01-02T03:05:00Z"\n---\nhi\n`;
const task =
  `---\ntitle: Do\nid: ${TASK_ID}\nstatus: todo\nauthor: alice\ncreatedAt: ` +
  `"2026-01-02T03:04:05Z"\nassignees:\n---\n`;
const labels = (color: string): string =>
  `---\nlabels:\n  - name: bug\n    color: "${color}"\n    description: ""\n  - name: docs\n---\n`;

/** An evidence import as a clone's lane wrote it: its file name (`<batch_id>.json`) and text. */
function evidenceRecord(): { name: string; text: string } {
  const { store } = localStore();
  const bundle = {
    schema_version: BUNDLE_SCHEMA,
    bundle_id: "ci:run1",
    candidate_id: "tree:abc",
    eval_id: "ci",
    version_id: "abc",
    trace_id: "run1",
    attempt_id: "run1",
    bundle_scope: "default",
    created_at: "2026-11-30T02:00:00Z",
    claims: [],
    relations: [],
    verification: { trials: [], typed_diff: [] },
    refutation: null,
    claim_strength: "observed",
    known_threats: [],
    promotion_state: null,
    receipts: [],
    supersedes_claim_version_id: null,
    episodes: [],
    aliases: [],
    evidence_refs: [{ ref_id: "ci-run:run1", kind: "ci-run", path: ".forge/ci/runs/run1/summary.md", digest: null }],
  };
  const batch = transformEnvelopeV3(exportBundle(bundle, { name: "test", version: "0.0.0" }));
  const e = importProjectionBatch(store, batch, { now: () => new Date("2026-11-30T03:00:00Z") });
  return { name: `${e.batch_id}.json`, text: readFileSync(evidenceImportFile(store, e.batch_id), "utf8") };
}

function foreign(files: Record<string, string>): Foreign {
  return { label: "there", files: new Map(Object.entries(files).map(([k, v]) => [k, Buffer.from(v)])) };
}

function localStore(files: Record<string, string> = {}): { root: string; store: ReturnType<typeof storeAt> } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "forge-importunit-")));
  made.push(root);
  mkdirSync(join(root, ".forge"));
  writeStoreVersion(join(root, ".forge"));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, ".forge", rel, ".."), { recursive: true });
    writeFileSync(join(root, ".forge", rel), text);
  }
  return { root, store: storeAt(join(root, ".forge")) };
}

test("readIncoming() classifies every kind, owners before records, and skips what it does not import", async (t) => {
  const ev = evidenceRecord();
  const { entities, skipped } = await readIncoming(
    foreign({
      [`issues/${ISSUE_ID}/issue.md`]: issue("Hi"),
      [`issues/${ISSUE_ID}/comments/${COMMENT_ID}.md`]: comment,
      [`archive/tasks/${TASK_ID}/task.md`]: task,
      "labels.md": labels("d73a4a"),
      "wiki/docs/setup.md": "# Setup\n",
      [`evidence/imports/${ev.name}`]: ev.text,
      "ci/steps/10-test": "#!/bin/sh\n",
      "notes.txt": "x",
      ".gitignore": "ci/runs/\n",
    })
  );
  t.deepEqual(
    entities.map((e) => [e.kind, e.id, e.archived ?? null]),
    [
      ["label", "bug", null],
      ["label", "docs", null],
      ["issue", ISSUE_ID, false],
      ["task", TASK_ID, true],
      ["comment", COMMENT_ID, false],
      ["wiki", "docs/setup.md", null],
      ["evidence", ev.name, null],
    ]
  );
  t.deepEqual(skipped, [
    { rel: "ci/steps/10-test", reason: "code and settings are not imported" },
    { rel: "notes.txt", reason: "not a kind forge imports" },
  ]);
});

test("readIncoming() refuses a label defined twice (ignoring case), naming the file", async (t) => {
  const text = "---\nlabels:\n  - name: Bug\n  - name: bug\n---\n";
  await t.throwsAsync(readIncoming(foreign({ "labels.md": text })), {
    message: "there/labels.md: field 'labels': 'bug' is defined twice",
  });
});

test("readIncoming() refuses a wiki page with frontmatter that is not allowed, and non-UTF-8 text", async (t) => {
  await t.throwsAsync(readIncoming(foreign({ "wiki/p.md": "---js\n{}\n---\n" })), {
    message: /there\/wiki\/p\.md: frontmatter language 'js'/,
  });
  const bad: Foreign = {
    label: "there",
    files: new Map([[`issues/${ISSUE_ID}/issue.md`, Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe])]]),
  };
  await t.throwsAsync(readIncoming(bad), { message: /issue\.md: not valid UTF-8/ });
});

test("planImport() says added, unchanged (same bytes, or the same canonical frontmatter) and conflict", async (t) => {
  const { store } = localStore({
    [`issues/${ISSUE_ID}/issue.md`]: issue("Hi").replace("title: Hi", 'title: "Hi"'), // same data, not canonical
    [`issues/${ISSUE_ID}/comments/${COMMENT_ID}.md`]: comment.replace("hi", "edited here"),
    "labels.md": '---\nlabels:\n  - name: BUG\n    color: d73a4a\n    description: ""\n---\n',
  });
  const { entities } = await readIncoming(
    foreign({
      [`issues/${ISSUE_ID}/issue.md`]: issue("Hi"),
      [`issues/${ISSUE_ID}/comments/${COMMENT_ID}.md`]: comment,
      [`tasks/${TASK_ID}/task.md`]: task,
      "labels.md": labels("d73a4a"),
    })
  );
  const plan = await planImport(store, entities);
  t.deepEqual(
    plan.map((p) => [p.inc.kind, p.inc.id, p.result, p.reason ?? null]),
    [
      ["label", "bug", "conflict", "defined here with other case ('BUG')"],
      ["label", "docs", "added", null],
      ["issue", ISSUE_ID, "unchanged", null],
      ["task", TASK_ID, "added", null],
      ["comment", COMMENT_ID, "conflict", "exists here with other content"],
    ]
  );
});

test("applyPlan() writes only what is added: a new folder entity, a label appended; conflicts untouched", async (t) => {
  const { root, store } = localStore({ "labels.md": labels("000000").replace("  - name: docs\n", "") });
  const { entities } = await readIncoming(
    foreign({ [`tasks/${TASK_ID}/task.md`]: task, "labels.md": labels("d73a4a") })
  );
  const plan = await planImport(store, entities);
  await applyPlan(store, plan);
  t.is(readFileSync(join(root, ".forge", "tasks", TASK_ID, "task.md"), "utf8"), task);
  const defs = readFileSync(join(root, ".forge", "labels.md"), "utf8");
  t.regex(defs, /name: bug\n {4}color: "000000"/);
  t.regex(defs, /name: docs/);
});

test("importStore() writes no record when nothing came in", async (t) => {
  const there = localStore({ [`tasks/${TASK_ID}/task.md`]: task });
  const here = localStore({ [`tasks/${TASK_ID}/task.md`]: task });
  const r = await importStore({ cwd: here.root, env: {} }, { source: there.root });
  t.deepEqual(r.lines, [{ kind: "task", id: TASK_ID, result: "unchanged" }]);
  t.is(r.record, null);
});

test("importStore() records what came in with the injected id and clock", async (t) => {
  const there = localStore({ [`tasks/${TASK_ID}/task.md`]: task });
  const here = localStore();
  const r = await importStore(
    { cwd: here.root, env: {}, now: () => "2026-02-03T04:05:06Z", newId: () => "11111111-1111-4111-8111-111111111111" },
    { source: join(there.root, ".forge") }
  );
  t.is(r.record, "11111111-1111-4111-8111-111111111111");
  t.is(
    readFileSync(join(here.root, ".forge", "merges", "imports", `${r.record}.md`), "utf8"),
    `---\nid: 11111111-1111-4111-8111-111111111111\nsource: ".forge"\ncreatedAt: "2026-02-03T04:05:06Z"\nunchanged: ` +
      `0\nadded:\n  - task/${TASK_ID}\nconflicts:\n---\nImported 1 entity from .forge; 0 unchanged; 0 conflicts left ` +
      `as they were here.\n`
  );
});

test(
  "applyPlan() checks every folder before writing: a file " + "in the way stops the import with no entity written",
  async (t) => {
    const { root, store } = localStore({ "wiki/docs": "a file where a folder would go" });
    const { entities } = await readIncoming(
      foreign({ [`tasks/${TASK_ID}/task.md`]: task, "wiki/docs/setup.md": "# Setup\n" })
    );
    const plan = await planImport(store, entities);
    await t.throwsAsync(applyPlan(store, plan), { message: /wiki\/docs: not a folder/ });
    t.false(existsSync(join(root, ".forge", "tasks", TASK_ID)));
  }
);

test("applyPlan() makes a new issue and its comments in one folder rename", async (t) => {
  const { root, store } = localStore();
  const { entities } = await readIncoming(
    foreign({ [`issues/${ISSUE_ID}/issue.md`]: issue("Hi"), [`issues/${ISSUE_ID}/comments/${COMMENT_ID}.md`]: comment })
  );
  await applyPlan(store, await planImport(store, entities));
  t.deepEqual(readdirSync(join(root, ".forge", "issues")), [ISSUE_ID]);
  t.is(readFileSync(join(root, ".forge", "issues", ISSUE_ID, "comments", `${COMMENT_ID}.md`), "utf8"), comment);
});

test("recordParts() splits a big import into records within the budget, each name once", (t) => {
  const added = Array.from({ length: 50 }, (_, i) => `issue/${String(i).padStart(36, "0")}`);
  const parts = recordParts(added, ["label/x", "label/y"], 500);
  t.true(parts.length > 1);
  for (const p of parts) t.true(p.added.concat(p.conflicts).reduce((n, s) => n + s.length + 8, 0) <= 500);
  t.deepEqual(
    parts.flatMap((p) => p.added),
    added
  );
  t.deepEqual(
    parts.flatMap((p) => p.conflicts),
    ["label/x", "label/y"]
  );
  t.deepEqual(recordParts(["issue/a"], []), [{ added: ["issue/a"], conflicts: [] }]);
});

test("importStore() writes several records, each under 256 KiB, when one would be too big", async (t) => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 4000; i++)
    files[`wiki/p/page-with-a-long-name-to-fill-the-record-${String(i).padStart(5, "0")}.md`] = `# ${i}\n`;
  const there = localStore(files);
  const here = localStore();
  const r = await importStore({ cwd: here.root, env: {} }, { source: there.root });
  const recs = r.lines.filter((l) => l.kind === "import-record");
  t.true(recs.length >= 2, `${recs.length} records`);
  let listed = 0;
  for (const rec of recs) {
    const text = readFileSync(join(here.root, ".forge", "merges", "imports", `${rec.id}.md`), "utf8");
    t.true(Buffer.byteLength(text) < 256 * 1024);
    listed += text.split("\n").filter((l) => l.startsWith("  - wiki/")).length;
  }
  t.is(listed, 4000);
});

test("importStore() hands evidence to the lane: a valid one lands as the lane writes it, once", async (t) => {
  const ev = evidenceRecord();
  // Indented by hand there: the lane writes its canonical JSON here all the same.
  const indented = JSON.stringify(JSON.parse(ev.text), null, 2);
  const there = localStore({ [`evidence/imports/${ev.name}`]: indented, [`tasks/${TASK_ID}/task.md`]: task });
  const here = localStore();
  const r = await importStore({ cwd: here.root, env: {} }, { source: there.root });
  t.deepEqual(
    r.lines.filter((l) => l.kind !== "import-record"),
    [
      { kind: "task", id: TASK_ID, result: "added" },
      { kind: "evidence", id: ev.name, result: "added" },
    ]
  );
  t.is(readFileSync(join(here.root, ".forge", "evidence", "imports", ev.name), "utf8"), ev.text);
  const before = readdirSync(join(here.root, ".forge"), { recursive: true }).sort();
  const again = await importStore({ cwd: here.root, env: {} }, { source: there.root });
  t.deepEqual(again.lines, [
    { kind: "task", id: TASK_ID, result: "unchanged" },
    { kind: "evidence", id: ev.name, result: "unchanged" },
  ]);
  t.deepEqual(readdirSync(join(here.root, ".forge"), { recursive: true }).sort(), before);
  t.is(readFileSync(join(here.root, ".forge", "evidence", "imports", ev.name), "utf8"), ev.text);
});

test("importStore() refuses an evidence import the lane refuses, naming file and field; nothing written", async (t) => {
  const ev = evidenceRecord();
  const bad = JSON.stringify({ ...(JSON.parse(ev.text) as Record<string, unknown>), trial_episodes: "maybe" });
  const there = localStore({ [`evidence/imports/${ev.name}`]: bad, [`tasks/${TASK_ID}/task.md`]: task });
  const here = localStore();
  const before = readdirSync(join(here.root, ".forge"), { recursive: true }).sort();
  await t.throwsAsync(importStore({ cwd: here.root, env: {} }, { source: there.root }), {
    message: `${basename(there.root)}/evidence/imports/${ev.name}: field 'trial_episodes': expected derived|stored`,
  });
  t.deepEqual(readdirSync(join(here.root, ".forge"), { recursive: true }).sort(), before);
  t.false(existsSync(evidenceImportsDir(storeAt(join(here.root, ".forge")))));
});
