import test from "ava";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { labelsFile, milestonesFile, storeAt } from "../store/store.js";
import { loadDefList, loadLabelDefs, loadMilestoneDefs, saveDefList } from "./defs.js";

function store() {
  const dir = join(mkdtempSync(join(tmpdir(), "forge-defs-")), ".forge");
  mkdirSync(dir);
  return storeAt(dir);
}

test("loadDefList() reads an absent milestones.md as no items, an absent labels.md as GitHub's defaults", async (t) => {
  const s = store();
  const m = await loadDefList(s, "milestones");
  t.deepEqual([m.items, m.extra, m.body, m.text], [[], {}, "", undefined]);
  const l = await loadDefList(s, "labels");
  t.deepEqual(
    l.items.map((x) => x.name),
    [
      "bug",
      "documentation",
      "duplicate",
      "enhancement",
      "good first issue",
      "help wanted",
      "invalid",
      "question",
    ].concat("wontfix")
  );
  t.deepEqual(l.items[0], { name: "bug", color: "d73a4a", description: "Something isn't working" });
  t.is(l.text, undefined);
  // A copy each time: editing one list leaves the defaults as they are.
  l.items[0]!.color = "000000";
  t.is((await loadDefList(s, "labels")).items[0]!.color, "d73a4a");
  t.is((await loadLabelDefs(s)).get("wontfix")?.color, "ffffff");
});

test("saveDefList() writes items canonically, in schema order, keeping unknown fields and the body", async (t) => {
  const s = store();
  writeFileSync(labelsFile(s), "---\nlabels:\nowner: ops\n---\nnotes\n");
  const l = await loadDefList(s, "labels");
  t.deepEqual(l.warnings, [".forge/labels.md: unknown field 'owner' (kept)"]);
  saveDefList(s, "labels", l, [{ description: "d: x", mine: 1, color: "008672", name: "help wanted" }]);
  t.is(
    readFileSync(labelsFile(s), "utf8"),
    '---\nlabels:\n  - name: help wanted\n    color: "008672"\n    description: "d: x"\n    mine: 1\nowner: ' +
      "ops\n---\nnotes\n"
  );
});

test("saveDefList() refuses an invalid item and leaves the file as it was", async (t) => {
  const s = store();
  const l = await loadDefList(s, "milestones");
  t.throws(() => saveDefList(s, "milestones", l, [{ title: "v1", dueOn: "tomorrow" }]), {
    message: /field 'milestones\[0\]\.dueOn'/,
  });
  t.throws(() => readFileSync(milestonesFile(s)));
});

test("loadLabelDefs() and loadMilestoneDefs() read hand-written YAML outside the canonical form", async (t) => {
  const s = store();
  writeFileSync(labelsFile(s), "---\n# team labels\nlabels: [{name: bug, color: 'd73a4a'}, {name: 'wontfix'}]\n---\n");
  writeFileSync(
    milestonesFile(s),
    "---\nmilestones:\n- title: v1   # first\n  dueOn: '2026-03-01T00:00:00Z'\n  state: closed\n---\n"
  );
  t.deepEqual(
    [...(await loadLabelDefs(s)).values()],
    [
      { name: "bug", color: "d73a4a", description: "" },
      { name: "wontfix", color: "", description: "" },
    ]
  );
  t.deepEqual(
    [...(await loadMilestoneDefs(s)).values()],
    [{ number: 1, title: "v1", description: "", dueOn: "2026-03-01T00:00:00Z", state: "CLOSED" }]
  );
});
