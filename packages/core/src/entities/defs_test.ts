import test from "ava";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkedCache, flushCacheWrites } from "../store/cache_file.js";
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

test("definitions come from .cache/*.defs only while the file is the one they were made of", async (t) => {
  const s = store();
  const labels = labelsFile(s);
  const milestones = milestonesFile(s);
  const labelsText = (color: string) =>
    `---\nlabels:\n  - name: bug\n    color: ${color}\n    description: Broken\n` +
    `  - name: ui\n    color: "0075ca"\n---\n`;
  writeFileSync(labels, labelsText("d73a4a"));
  writeFileSync(
    milestones,
    "---\nmilestones:\n  - title: v1\n    dueOn: 2026-01-01T00:00:00Z\n  - title: v2\n    state: closed\n---\n"
  );
  // Not a whole second: a whole-second mtime reads as a coarse filesystem's, which must be still for 2 s.
  const past = new Date(Math.floor(Date.now() / 1000) * 1000 - 10_000 + 321);
  for (const f of [labels, milestones]) utimesSync(f, past, past);
  const still = () => new Promise((r) => setTimeout(r, 80)); // ctime cannot be put back: it must be 50 ms old
  await still();
  const answer = async () => [[...(await loadLabelDefs(s))], [...(await loadMilestoneDefs(s))]];
  const parsed = await answer();
  flushCacheWrites();
  const cached = join(s.dir, ".cache", "labels.defs");
  t.true(
    existsSync(cached) && existsSync(join(s.dir, ".cache", "milestones.defs")),
    "written once the files are still"
  );
  t.deepEqual(await answer(), parsed, "the cache's answer is the parsed one");
  // The cache is what answers: a cache made for this very file (its key) with other definitions is believed.
  const key = readFileSync(cached, "utf8").split("\n")[1];
  const forged = `${key}\n${JSON.stringify([{ name: "forged", color: "000000", description: "" }])}`;
  writeFileSync(cached, checkedCache("forge-defs 1", forged));
  t.deepEqual([...(await loadLabelDefs(s)).keys()], ["forged"]);
  // Rewritten in place, same size, mtime put back: its ctime still moves, so the file is parsed again.
  writeFileSync(labels, labelsText("a2eeef"));
  utimesSync(labels, past, past);
  await still();
  t.is((await loadLabelDefs(s)).get("bug")?.color, "a2eeef");
  // A torn cache, or none, is parsed past.
  flushCacheWrites();
  writeFileSync(cached, readFileSync(cached, "utf8").replace("a2eeef", "a2eeee"));
  t.is((await loadLabelDefs(s)).get("bug")?.color, "a2eeef");
  rmSync(join(s.dir, ".cache"), { recursive: true });
  t.is((await loadLabelDefs(s)).get("bug")?.color, "a2eeef");
  // A file changed just now cannot vouch: parsed, and no cache is written.
  flushCacheWrites();
  rmSync(join(s.dir, ".cache"), { recursive: true });
  writeFileSync(labels, labelsText("cfd3d7"));
  t.is((await loadLabelDefs(s)).get("bug")?.color, "cfd3d7");
  flushCacheWrites();
  t.false(existsSync(cached));
});
