/**
 * Pipelines through real shells (bash -o pipefail): `list --json` feeding the
 * verbs that take `-`, the `forge` dispatcher, and refs (numbers, ids,
 * prefixes) as a user types them.
 */
import test from "ava";
import { FIXTURE, fixtureRepo } from "./lib/fixture.js";
import { removeScratch, scratch } from "./lib/scratch.js";
import { jsonl, run, sh, tempRepo } from "./lib/run.js";

test.after.always(removeScratch);

/** `number → state` for every issue, archived included (one `view -` over numbers 1..8). */
async function states(cwd: string): Promise<Record<number, string>> {
  const input = [1, 2, 3, 4, 5, 6, 7, 8].map((number) => JSON.stringify({ number })).join("\n");
  const r = await run("forge-issue", ["view", "-", "--json", "number,state"], { cwd, input });
  if (r.code !== 0) throw new Error(r.stderr);
  return Object.fromEntries(jsonl(r.stdout).map((x) => [x.number, x.state]));
}

test("forge-issue list --label bug --json | forge-issue close - closes exactly the open bug issues", async (t) => {
  const cwd = await fixtureRepo();
  const r = await sh("forge-issue list --label bug --json | forge-issue close -", { cwd });
  t.is(r.code, 0, r.stderr);
  t.is(r.stdout, "");
  t.is(r.stderr, "Closed issue #4 (Button misaligned)\nClosed issue #1 (Crash on start)\n");
  // 1 and 4 were the open bugs; 3 and 6 were closed already; 7 is archived and open.
  t.deepEqual(await states(cwd), {
    1: "CLOSED",
    2: "OPEN",
    3: "CLOSED",
    4: "CLOSED",
    5: "OPEN",
    6: "CLOSED",
    7: "OPEN",
    8: "OPEN",
  });
  const left = await run("forge-issue", ["list", "--label", "bug", "--json", "number"], { cwd });
  t.is(left.stdout, "");
});

test("forge-issue close - with --json emits one line per closed issue", async (t) => {
  const cwd = await fixtureRepo();
  const r = await sh("forge-issue list --label bug --json number | forge-issue close - --json number,state", { cwd });
  t.is(r.code, 0, r.stderr);
  t.deepEqual(jsonl(r.stdout), [
    { number: 4, state: "CLOSED" },
    { number: 1, state: "CLOSED" },
  ]);
});

test("forge-issue list --state all ... | close - notes the issues that were closed already", async (t) => {
  const cwd = await fixtureRepo();
  const r = await sh("forge-issue list --state all --label bug --json id | forge-issue close -", { cwd });
  t.is(r.code, 0, r.stderr);
  t.is(
    r.stderr,
    [
      "! Issue #6 (Slow list with many issues) is already closed",
      "Closed issue #4 (Button misaligned)",
      "Closed issue #1 (Crash on start)",
      "",
    ].join("\n")
  );
});

test("forge-issue list --label bug --json | forge-issue comment - -b hi comments on each bug issue", async (t) => {
  const cwd = await fixtureRepo();
  const r = await sh("forge-issue list --label bug --json | forge-issue comment - -b hi --json number,comments", {
    cwd,
  });
  t.is(r.code, 0, r.stderr);
  const rows = jsonl(r.stdout) as Array<{ number: number; comments: Array<{ body: string }> }>;
  t.deepEqual(
    rows.map((x) => x.number),
    [4, 1]
  );
  t.deepEqual(
    rows.map((x) => x.comments.map((c) => c.body)),
    [["hi"], ["Same here.", "Fixed by restarting?\n\nNot really.", "hi"]]
  );
  const two = await run("forge-issue", ["view", "2", "--json", "comments", "--jq", ".comments | length"], { cwd });
  t.is(two.stdout, "0\n");
});

test(
  "forge-issue list --label bug --json | forge-issue " + "edit - --add-label enhancement labels each bug issue",
  async (t) => {
    const cwd = await fixtureRepo();
    const r = await sh("forge-issue list --label bug --json | forge-issue edit - --add-label enhancement", { cwd });
    t.is(r.code, 0, r.stderr);
    const x = await run(
      "forge-issue",
      ["list", "--state", "all", "--label", "bug", "--label", "enhancement", "--json", "number"],
      { cwd }
    );
    t.deepEqual(jsonl(x.stdout), [{ number: 4 }, { number: 1 }]);
  }
);

test("forge-issue list --label bug --json | forge-issue archive - archives them and keeps every number", async (t) => {
  const cwd = await fixtureRepo();
  const before = jsonl((await run("forge-issue", ["list", "--state", "all", "--json", "number,id"], { cwd })).stdout);
  const r = await sh("forge-issue list --label bug --json | forge-issue archive -", { cwd });
  t.is(r.code, 0, r.stderr);
  const after = jsonl((await run("forge-issue", ["list", "--state", "all", "--json", "number,id"], { cwd })).stdout);
  t.deepEqual(
    after,
    before.filter((x) => x.number !== 1 && x.number !== 4)
  );
  const v = await run("forge-issue", ["view", "4", "--json", "number,isArchived,title"], { cwd });
  t.deepEqual(jsonl(v.stdout), [{ isArchived: true, number: 4, title: "Button misaligned" }]);
});

test("forge-issue close - reports a bad line on stderr, goes on, and exits 1", async (t) => {
  const cwd = await fixtureRepo();
  const input = '{"number":99}\nnot json\n{"number":2}\n{"id":"abcd5678-1234-4def-8abc-ba9876543210"}\n';
  const r = await run("forge-issue", ["close", "-", "--json", "number"], { cwd, input });
  t.is(r.code, 1);
  t.deepEqual(jsonl(r.stdout), [{ number: 2 }, { number: 4 }]);
  const errs = r.stderr.split("\n").filter((l) => l.startsWith("forge-issue close: "));
  t.is(errs.length, 2, r.stderr);
});

test("an empty list piped into close - closes nothing and exits 0", async (t) => {
  const cwd = await fixtureRepo();
  const r = await sh("forge-issue list --label nope --json | forge-issue close -", { cwd });
  t.deepEqual([r.code, r.stdout, r.stderr], [0, "", ""]);
});

test("forge-issue comment - -F - is a usage error: stdin cannot carry both", async (t) => {
  const cwd = await fixtureRepo();
  const r = await sh("forge-issue list --json | forge-issue comment - -F -", { cwd });
  t.is(r.code, 2);
  t.is(r.stderr.split("\n").length, 2, r.stderr);
});

test("forge-issue archive - reports an already archived issue and archives the rest", async (t) => {
  const cwd = await fixtureRepo();
  const a = await run("forge-issue", ["archive", "-", "--json", "number,isArchived"], {
    cwd,
    input: '{"number":7}\n{"number":8}\n',
  });
  t.is(a.code, 1);
  t.deepEqual(jsonl(a.stdout), [{ isArchived: true, number: 8 }]);
  t.regex(
    a.stderr,
    new RegExp(
      /^forge-issue archive: issue #7: \.forge\/archive\/issues\/9b8a[^\n]* is already archived\n/.source +
        /Archived issue #8 \(Question about setup\)\n$/.source
    )
  );
});

test("forge issue list dispatches to forge-issue list with the same output", async (t) => {
  const cwd = await fixtureRepo();
  for (const args of [["list"], ["list", "--state", "all", "--json"], ["view", "1"], ["list", "--jq", ".[].number"]]) {
    const direct = await run("forge-issue", args, { cwd });
    const viaForge = await run("forge", ["issue", ...args], { cwd });
    t.is(viaForge.code, 0);
    t.is(viaForge.stdout, direct.stdout);
    t.is(viaForge.stderr, direct.stderr);
  }
});

test("forge issue passes through the exit code and the error line", async (t) => {
  const cwd = await fixtureRepo();
  const r = await run("forge", ["issue", "view", "abc"], { cwd });
  t.is(r.code, 2);
  t.is(r.stdout, "");
  t.is(r.stderr.split("\n").length, 2);
  t.true(r.stderr.startsWith("forge-issue view: "));
});

test("forge issue list --json | forge issue close - works through the dispatcher", async (t) => {
  const cwd = await fixtureRepo();
  const r = await sh("forge issue list --label ui --json | forge issue close -", { cwd });
  t.is(r.code, 0, r.stderr);
  t.deepEqual((await states(cwd))[2], "CLOSED");
  t.deepEqual((await states(cwd))[4], "CLOSED");
});

test("forge nope exits 2 with one line on stderr", async (t) => {
  const cwd = scratch(tempRepo());
  const r = await run("forge", ["nope"], { cwd });
  t.is(r.code, 2);
  t.is(r.stdout, "");
  t.regex(r.stderr, /^forge: [^\n]*nope[^\n]*\n$/);
});

// Refs: 1 = 3f2a9c1e-…, 2 = abcd1234-…, 4 = abcd5678-… (see FIXTURE).
const REFS: Array<[string, number]> = [
  ["1", 1],
  ["#4", 4],
  [FIXTURE[0]!.id, 1],
  [FIXTURE[3]!.id, 4],
  ["3f2a", 1],
  ["3f2a9c1e", 1],
  ["abcd1", 2],
  ["abcd5", 4],
  ["ABCD5678", 4],
  ["abcd5678-1234", 4],
  ["9b8a", 7],
];

let shared: Promise<string> | undefined;

for (const [ref, number] of REFS) {
  test(`forge-issue view ${ref} resolves to issue #${number}`, async (t) => {
    const cwd = await (shared ??= fixtureRepo());
    const r = await run("forge-issue", ["view", ref, "--json", "number"], { cwd });
    t.is(r.code, 0, r.stderr);
    t.deepEqual(jsonl(r.stdout), [{ number }]);
  });
}

const BAD_REFS: Array<[string, number]> = [
  ["abcd", 1],
  ["3f2", 2],
  ["0", 2],
  ["99", 1],
  ["ffff", 1],
  ["xyz1", 2],
  ["", 2],
];

for (const [ref, code] of BAD_REFS) {
  test(`forge-issue close '${ref}' exits ${code} with one line and changes nothing`, async (t) => {
    const cwd = await fixtureRepo();
    const r = await run("forge-issue", ["close", ref], { cwd });
    t.is(r.code, code);
    t.is(r.stdout, "");
    t.is(r.stderr.split("\n").length, 2, r.stderr);
    t.deepEqual(await states(cwd), {
      1: "OPEN",
      2: "OPEN",
      3: "CLOSED",
      4: "OPEN",
      5: "OPEN",
      6: "CLOSED",
      7: "OPEN",
      8: "OPEN",
    });
  });
}
