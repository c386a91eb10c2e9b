import test from "ava";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InvalidFileError } from "../errors.js";
import { entityDir, entityFile, ISSUES, storeAt, type Store } from "../store/store.js";
import { loadEntity, loadEntityFast } from "./load.js";
import { ISSUE } from "./schema.js";

const ID = "0b8c2a8e-6f43-4b8a-9a55-3a4f0f7b2d11";
const CANONICAL =
  `---\ntitle: Hello\nid: ${ID}\nstate: open\nauthor: alice\ncreatedAt: ` +
  `"2026-01-02T03:04:05Z"\nlabels:\n  - bug\nassignees:\nextra: kept\n---\nbody\n`;
// Valid YAML outside the canonical subset (a comment, flow sequence): needs the general engine.
const GENERAL =
  `---\ntitle: Hello # a comment\nid: ${ID}\nstate: open\nauthor: alice\ncreatedAt: ` +
  `"2026-01-02T03:04:05Z"\nlabels: [bug]\n---\nbody\n`;

function storeWith(text: string): Store {
  const dir = join(mkdtempSync(join(tmpdir(), "forge-load-")), ".forge");
  mkdirSync(entityDir({ dir, root: "", real: "" }, ISSUES, ID), { recursive: true });
  const store = storeAt(dir);
  writeFileSync(entityFile(store, ISSUES, ID), text);
  return store;
}

test("loadEntityFast() gives what loadEntity() gives for a canonical file", async (t) => {
  const store = storeWith(CANONICAL);
  const ref = { id: ID, archived: false };
  const fast = loadEntityFast(store, ISSUES, ISSUE, ref);
  t.deepEqual(fast, await loadEntity(store, ISSUES, ISSUE, ref));
  t.deepEqual(fast?.data.labels, ["bug"]);
  t.deepEqual(fast?.extra, { extra: "kept" });
  t.is(fast?.file, `.forge/issues/${ID}/issue.md`);
});

test("loadEntityFast() returns undefined when the general YAML engine is needed", async (t) => {
  const store = storeWith(GENERAL);
  const ref = { id: ID, archived: false };
  t.is(loadEntityFast(store, ISSUES, ISSUE, ref), undefined);
  t.deepEqual((await loadEntity(store, ISSUES, ISSUE, ref)).data.labels, ["bug"]);
});

test("loadEntityFast() refuses a folder flagged as escaping, without reading it", (t) => {
  const store = storeWith(CANONICAL);
  t.throws(() => loadEntityFast(store, ISSUES, ISSUE, { id: ID, archived: false, escapes: true }), {
    instanceOf: InvalidFileError,
    message: /symlink out of/,
  });
});

test("loadEntityFast() rejects an id that does not match the folder", (t) => {
  const store = storeWith(CANONICAL.replace(`id: ${ID}`, "id: 1b8c2a8e-6f43-4b8a-9a55-3a4f0f7b2d11"));
  t.throws(() => loadEntityFast(store, ISSUES, ISSUE, { id: ID, archived: false }), {
    instanceOf: InvalidFileError,
    message: /folder name/,
  });
});
