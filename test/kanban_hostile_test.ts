/**
 * Hostile and hand-made input for labels, milestones and tasks: names full
 * of YAML syntax are stored and printed literally; names that cannot be one
 * line (or would be split by `--label`) are a one-line error with nothing
 * written; hand-edited definition files outside the canonical form are read
 * by the general engine; a broken file is one line naming it, never a crash.
 */
import test from "ava";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseFrontmatterFast } from "@forge/core";
import { assertOneLineError, snapshot } from "./lib/hostile.js";
import { kanbanRepo } from "./lib/kanban_fixture.js";
import { jsonl, run, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

/** Names that mean something to YAML (or to a shell), each a valid label name. */
const LITERAL = [
  "a: b",
  "#hash",
  "[x]",
  "{y}",
  "&anchor",
  "*alias",
  '"quoted"',
  "'single'",
  "- dash",
  "!tag",
  "%percent",
  "@at",
  "`tick`",
  "| pipe",
  "> fold",
  "---",
  "...",
  "null",
  "~",
  "yes",
  "No",
  "true",
  "123",
  "0x1F",
  "1e3",
  "2020-01-01",
  "a\\b",
  "ünïcödé ✓",
  "$(touch pwned)",
  "; rm -rf /",
  "__proto__",
  "x #not a comment",
  "key: value: more",
];

test("forge-label stores names full of YAML syntax literally and prints them back unchanged", async (t) => {
  const cwd = scratch(tempRepo("forge-hostile-"));
  for (const name of LITERAL) {
    // `--` first: a name may start with "-" (as in gh, where it would be read as a flag too).
    const r = await run("forge-label", ["create", "-d", `for ${name}`, "--json", "name,description", "--", name], {
      cwd,
    });
    t.is(r.code, 0, `${name}: ${r.stderr}`);
    t.deepEqual(jsonl(r.stdout), [{ description: `for ${name}`, name }]);
  }
  const list = await run("forge-label", ["list", "-L", "100", "--json", "name"], { cwd });
  // After GitHub's 9 default labels, which a store starts with.
  t.deepEqual(
    jsonl(list.stdout)
      .map((x) => x.name)
      .slice(9),
    LITERAL
  );
  const human = await run("forge-label", ["list", "-L", "100"], { cwd });
  t.deepEqual(
    human.stdout
      .trimEnd()
      .split("\n")
      .map((l) => l.split("\t")[0])
      .slice(9),
    LITERAL
  );
  // labels.md is canonical: the fast reader takes it (and agrees with the general engine on all it takes:
  // canonical_test.ts).
  const text = readFileSync(join(cwd, ".forge", "labels.md"), "utf8");
  const fm = parseFrontmatterFast(text, "labels.md");
  t.truthy(fm, "labels.md is in the canonical subset");
  t.deepEqual((fm!.data.labels as Array<{ name: string }>).map((l) => l.name).slice(9), LITERAL);
  t.true(text.includes('  - name: "$(touch pwned)"\n'), "stored quoted, as text");
  // An issue that carries such a label gets its definition.
  const i = await run("forge-issue", ["create", "-t", "x", "-l", "a: b", "-l", "#hash", "--json", "labels"], { cwd });
  t.is(i.code, 0, i.stderr);
  t.deepEqual(
    (jsonl(i.stdout)[0]!.labels as Array<{ name: string; description: string }>).map((l) => [l.name, l.description]),
    [
      ["a: b", "for a: b"],
      ["#hash", "for #hash"],
    ]
  );
});

/** Names refused by create (and by edit --name), each with a word of its message. */
const REFUSED: Array<[string, string]> = [
  ["a\nb", "one line"],
  ["a\rb", "one line"],
  ["tab\there", "one line"],
  ["bell\u0007x", "one line"],
  ["ls\u2028x", "one line"],
  ["a,b", "comma"],
  [" lead", "space"],
  ["trail ", "space"],
  ["", "empty"],
  ["   ", "empty"],
  ["x".repeat(51), "50 characters"],
];

/** A name for a test title: quoted, cut at 12 characters, invisible characters as \\uXXXX. */
function printable(s: string): string {
  return `"${s.slice(0, 12).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`;
}

for (const [name, word] of REFUSED) {
  test(`forge-label create and edit --name refuse ${printable(name)} with one line, writing nothing`, async (t) => {
    const cwd = await kanbanRepo();
    const before = snapshot(cwd);
    assertOneLineError(t, await run("forge-label", ["create", "--", name], { cwd }), "forge-label create", [word], 2);
    assertOneLineError(
      t,
      await run("forge-label", ["edit", "bug", `--name=${name}`], { cwd }),
      "forge-label edit",
      [word],
      2
    );
    t.deepEqual(snapshot(cwd), before);
  });
}

test(
  "forge-label refuses a multi-line description and " + "forge-milestone a multi-line title, writing nothing",
  async (t) => {
    const cwd = await kanbanRepo();
    const before = snapshot(cwd);
    assertOneLineError(
      t,
      await run("forge-label", ["create", "x", "-d", "a\nb"], { cwd }),
      "forge-label create",
      ["description"],
      2
    );
    assertOneLineError(
      t,
      await run("forge-milestone", ["create", "v1\n---\nx: y"], { cwd }),
      "forge-milestone create",
      ["one line"],
      2
    );
    assertOneLineError(
      t,
      await run("forge-milestone", ["edit", "v1", "-t", " v1"], { cwd }),
      "forge-milestone edit",
      ["space"],
      2
    );
    assertOneLineError(
      t,
      await run("forge-milestone", ["create", "v9", "-d", "a\u2029b"], { cwd }),
      "forge-milestone create",
      ["description"],
      2
    );
    t.deepEqual(snapshot(cwd), before);
  }
);

test("forge-milestone stores titles full of YAML syntax literally", async (t) => {
  const cwd = scratch(tempRepo("forge-hostile-"));
  const titles = ["v1: the start", "#2", "[draft]", "*", "null", "2026-01-01", "'q'"];
  for (const title of titles) t.is((await run("forge-milestone", ["create", title], { cwd })).code, 0, title);
  const r = await run("forge-milestone", ["list", "--json", "number,title"], { cwd });
  t.deepEqual(
    jsonl(r.stdout),
    titles.map((title, i) => ({ number: i + 1, title }))
  );
  // a title that looks like a number is found as a title first
  const e = await run("forge-milestone", ["close", "#2", "--json", "number,state"], { cwd });
  t.deepEqual(jsonl(e.stdout), [{ number: 2, state: "CLOSED" }]);
});

test(
  "hand-edited labels.md and milestones.md outside the canonical form are read, and rewritten canonically by the " +
    "next write",
  async (t) => {
    const cwd = scratch(tempRepo("forge-hostile-"));
    const dir = join(cwd, ".forge");
    writeFileSync(
      join(dir, "labels.md"),
      [
        "---",
        "# our labels",
        "labels: [{name: bug, color: 'd73a4a', description: \"Something isn't working\"}, {name: 'help wanted', " +
          "team: " +
          "ops}]",
        "---",
        "Edit with care.",
        "",
      ].join("\n")
    );
    writeFileSync(
      join(dir, "milestones.md"),
      [
        "---",
        "milestones:",
        "- title: v1   # the first",
        "  dueOn: '2026-03-01T00:00:00Z'",
        "  description: >-",
        "    First",
        "    release",
        "---",
        "",
      ].join("\n")
    );
    const l = await run("forge-label", ["list", "--json"], { cwd });
    t.is(l.code, 0, l.stderr);
    t.deepEqual(jsonl(l.stdout), [
      { color: "d73a4a", description: "Something isn't working", name: "bug" },
      { color: "", description: "", name: "help wanted" },
    ]);
    const m = await run("forge-milestone", ["list", "--json", "title,dueOn,description,state"], { cwd });
    t.deepEqual(jsonl(m.stdout), [
      { description: "First release", dueOn: "2026-03-01T00:00:00Z", state: "OPEN", title: "v1" },
    ]);
    const i = await run("forge-issue", ["create", "-t", "x", "-l", "bug", "-m", "v1", "--json", "labels,milestone"], {
      cwd,
    });
    t.deepEqual(jsonl(i.stdout), [
      {
        labels: [{ name: "bug", color: "d73a4a", description: "Something isn't working" }],
        milestone: { number: 1, title: "v1", description: "First release", dueOn: "2026-03-01T00:00:00Z" },
      },
    ]);
    t.is((await run("forge-label", ["create", "ui", "-c", "c5def5"], { cwd })).code, 0);
    t.is(
      readFileSync(join(dir, "labels.md"), "utf8"),
      [
        "---",
        "labels:",
        "  - name: bug",
        "    color: d73a4a",
        '    description: "Something isn\'t working"',
        "  - name: help wanted",
        "    team: ops",
        "  - name: ui",
        "    color: c5def5",
        "---",
        "Edit with care.",
        "",
      ].join("\n")
    );
    t.is((await run("forge-milestone", ["close", "v1"], { cwd })).code, 0);
    t.is(
      readFileSync(join(dir, "milestones.md"), "utf8"),
      '---\nmilestones:\n  - title: v1\n    dueOn: "2026-03-01T00:00:00Z"\n    state: closed\n    description: First ' +
        "release\n---\n"
    );
  }
);

test(
  "an invalid labels.md is one line naming the file and " + "field for every label verb, and nothing is written",
  async (t) => {
    const cwd = await kanbanRepo();
    writeFileSync(join(cwd, ".forge", "labels.md"), "---\nlabels:\n  - color: d73a4a\n---\n");
    const before = snapshot(cwd);
    const needles = [".forge/labels.md", "labels[0].name", "missing"];
    for (const args of [["list"], ["create", "x"], ["edit", "x", "-c", "000000"], ["delete", "x", "--yes"]]) {
      assertOneLineError(t, await run("forge-label", args, { cwd }), `forge-label ${args[0]}`, needles);
    }
    // issues need the definitions too, and say the same
    assertOneLineError(t, await run("forge-issue", ["list"], { cwd }), "forge-issue list", needles);
    t.deepEqual(snapshot(cwd), before);
  }
);

test("an invalid milestones.md is one line naming the file and field, and nothing is written", async (t) => {
  const cwd = await kanbanRepo();
  writeFileSync(join(cwd, ".forge", "milestones.md"), "---\nmilestones:\n  - title: v1\n    dueOn: next week\n---\n");
  const before = snapshot(cwd);
  for (const args of [["list"], ["create", "v2"], ["close", "v1"]]) {
    assertOneLineError(t, await run("forge-milestone", args, { cwd }), `forge-milestone ${args[0]}`, [
      ".forge/milestones.md",
      "milestones[0].dueOn",
    ]);
  }
  t.deepEqual(snapshot(cwd), before);
});

test("a YAML bomb in labels.md is refused in one line (aliases are off)", async (t) => {
  const cwd = await kanbanRepo();
  let bomb = "---\na0: &a0 [x, x, x, x, x, x, x, x, x]\n";
  for (let i = 1; i <= 9; i++)
    bomb += `a${i}: &a${i} [${Array(9)
      .fill(`*a${i - 1}`)
      .join(", ")}]\n`;
  writeFileSync(join(cwd, ".forge", "labels.md"), bomb + "labels:\n---\n");
  const before = snapshot(cwd);
  assertOneLineError(t, await run("forge-label", ["create", "x"], { cwd }), "forge-label create", [
    ".forge/labels.md",
    /alias/i,
  ]);
  t.deepEqual(snapshot(cwd), before);
});

test("forge-task list reports a broken task file in one line, lists the others, and keeps their numbers", async (t) => {
  const cwd = await kanbanRepo();
  const file = join(cwd, ".forge", "tasks", "bbcd0003-0000-4000-8000-000000000003", "task.md");
  writeFileSync(file, readFileSync(file, "utf8").replace("status: blocked", "status: someday"));
  const r = await run("forge-task", ["list", "--json", "number"], { cwd });
  assertOneLineError(t, r, "forge-task list", [
    ".forge/tasks/bbcd0003-0000-4000-8000-000000000003/task.md",
    "status",
    "todo|doing|blocked|done",
  ]);
  t.deepEqual(
    jsonl(r.stdout).map((x) => x.number),
    [1, 6, 7, 2, 4]
  );
  const before = snapshot(cwd);
  assertOneLineError(t, await run("forge-task", ["move", "3", "doing"], { cwd }), "forge-task move", ["status"]);
  t.deepEqual(snapshot(cwd), before);
});

test("forge-task stores a title with shell and YAML syntax literally", async (t) => {
  const cwd = scratch(tempRepo("forge-hostile-"));
  const title = `$(touch pwned); \`id\` | "a: b" #c &d *e`;
  const r = await run("forge-task", ["create", "-t", title, "--json", "title"], { cwd });
  t.is(r.code, 0, r.stderr);
  t.deepEqual(jsonl(r.stdout), [{ title }]);
  const m = await run("forge-task", ["move", "1", "doing", "--json", "title,status"], { cwd });
  t.deepEqual(jsonl(m.stdout), [{ status: "doing", title }]);
});
