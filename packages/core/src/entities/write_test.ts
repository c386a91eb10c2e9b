import test from "ava";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_FILE_BYTES } from "../frontmatter/parse.js";
import { entityDir, entityFile, ISSUES, storeAt, type Store } from "../store/store.js";
import { addComment, createIssue, updateIssue } from "./issue.js";
import { loadEntity } from "./load.js";
import { ISSUE } from "./schema.js";
import { checkedText } from "./write.js";

const ID = "0b8c2a8e-6f43-4b8a-9a55-3a4f0f7b2d11";
const NOW = "2026-01-02T03:04:05Z";
const F = ".forge/issues/x/issue.md";

function store(): Store {
  const dir = join(mkdtempSync(join(tmpdir(), "forge-write-")), ".forge");
  mkdirSync(dir);
  return storeAt(dir);
}

function issueWith(s: Store, extraLines: string): string {
  const path = entityFile(s, ISSUES, ID);
  mkdirSync(entityDir(s, ISSUES, ID), { recursive: true });
  writeFileSync(
    path,
    `---\ntitle: t\nid: ${ID}\nstate: open\nauthor: a\ncreatedAt: ` +
      `"${NOW}"\nlabels:\nassignees:\n${extraLines}---\nbody\n`
  );
  return path;
}

const data = { title: "t", id: ID, state: "open", author: "a", createdAt: NOW, labels: [], assignees: [] };

test("checkedText() refuses a body over 256 KiB, naming the file and the field", (t) => {
  const body = "a".repeat(MAX_FILE_BYTES);
  t.throws(() => checkedText(ISSUE, F, { data, extra: {}, body }), {
    message: `${F}: field 'body': would be larger than 256 KiB; nothing written`,
  });
});

test("checkedText() refuses a change the reader would refuse (a bad state), naming the field", (t) => {
  t.throws(() => checkedText(ISSUE, F, { data: { ...data, state: "gone" }, extra: {}, body: "" }), {
    message: /field 'state': expected one of open\|closed/,
  });
});

test("createIssue() with an oversized body writes nothing", (t) => {
  const s = store();
  t.throws(
    () =>
      createIssue(s, {
        title: "x",
        body: "b".repeat(MAX_FILE_BYTES),
        author: "a",
        labels: [],
        assignees: [],
        now: NOW,
        id: ID,
      }),
    { message: /larger than 256 KiB/ }
  );
  t.false(existsSync(join(s.dir, "issues")) && readdirSync(join(s.dir, "issues")).length > 0);
});

test("addComment() with an oversized body writes nothing", async (t) => {
  const s = store();
  issueWith(s, "");
  const e = await loadEntity(s, ISSUES, ISSUE, { id: ID, archived: false });
  t.throws(() => addComment(s, e, { body: "c".repeat(MAX_FILE_BYTES), author: "a", now: NOW }), {
    message: /larger than 256 KiB/,
  });
  t.false(
    existsSync(join(entityDir(s, ISSUES, ID), "comments")) &&
      readdirSync(join(entityDir(s, ISSUES, ID), "comments")).length > 0
  );
});

test("updateIssue() with an oversized body leaves the file as it was and no temp file", async (t) => {
  const s = store();
  const path = issueWith(s, "");
  const before = readFileSync(path, "utf8");
  const e = await loadEntity(s, ISSUES, ISSUE, { id: ID, archived: false });
  t.throws(() => updateIssue(e, () => ({ body: "z".repeat(MAX_FILE_BYTES) })), {
    message: /field 'body': would be larger than 256 KiB/,
  });
  t.is(readFileSync(path, "utf8"), before);
  t.deepEqual(readdirSync(entityDir(s, ISSUES, ID)), ["issue.md"]);
});

const KEPT: Array<[string, string]> = [
  ["a mapping", "meta:\n  owner: me\n  tags: [a, b]\n"],
  ["a decimal", "weight: 1.50\n"],
  ["a key with a space", '"my key": 3\n'],
  ["a quoted word with a comment", "note: 'x'  # hand-written\n"],
  ["a block literal", "notes: |\n  line one\n    line two\n"],
  ["a null written as ~", "gone: ~\n"],
];
for (const [what, lines] of KEPT) {
  test(`updateIssue() keeps an unknown field holding ${what} byte for byte`, async (t) => {
    const s = store();
    const path = issueWith(s, lines);
    const e = await loadEntity(s, ISSUES, ISSUE, { id: ID, archived: false });
    updateIssue(e, (d) => {
      d.title = "renamed";
    });
    const after = readFileSync(path, "utf8");
    t.true(after.includes(lines), after);
    t.regex(after, /^---\ntitle: renamed\n/);
  });
}

test("updateIssue() refuses, naming the file and field, an unknown field it can neither copy nor write", async (t) => {
  const s = store();
  // An explicit key: its two lines do not stand alone, and a mapping has no canonical form.
  const path = issueWith(s, "? odd\n: {a: 1}\n");
  const before = readFileSync(path, "utf8");
  const e = await loadEntity(s, ISSUES, ISSUE, { id: ID, archived: false });
  const err = t.throws(() => updateIssue(e, (d) => void (d.title = "renamed")));
  t.regex(err!.message, new RegExp(`^\\.forge/issues/${ID}/issue\\.md: field 'odd': `));
  t.is(readFileSync(path, "utf8"), before);
});

test("updateIssue() applies the change to the file as it is now, not as it was loaded", async (t) => {
  const s = store();
  const path = issueWith(s, "");
  const stale = await loadEntity(s, ISSUES, ISSUE, { id: ID, archived: false });
  writeFileSync(path, readFileSync(path, "utf8").replace("labels:\n", "labels:\n  - other\n"));
  updateIssue(stale, (d) => {
    d.labels = [...(d.labels as string[]), "mine"];
  });
  const e = await loadEntity(s, ISSUES, ISSUE, { id: ID, archived: false });
  t.deepEqual(e.data.labels, ["other", "mine"]);
});
