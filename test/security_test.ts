/**
 * Security fixtures (DESIGN §7, SEC-01 to SEC-04 and SEC-10), end to end:
 * each case writes a hostile file straight into a temp store next to one
 * valid issue and runs the built `forge-issue`. A refusal is one stderr line
 * naming the file (never its contents), exit 1, no stack trace, no crash and
 * no hang, the valid issue still listed, and nothing in the store changed.
 */
import test, { type ExecutionContext } from "ava";
import { randomUUID } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseFrontmatter } from "@forge/core";
import {
  assertOneLineError,
  hostileRepo,
  issueFields,
  lines,
  snapshot,
  VALID_TITLE,
  writeIssue,
  type HostileRepo,
} from "./lib/hostile.js";
import { jsonl, run, tempRepo, type Ran } from "./lib/run.js";

// Deep and giant inputs take a few seconds on a slow machine: generous, never a timed assertion.
const SLOW = 120_000;

/**
 * Run every kind of reader and writer against the hostile issue and check
 * each refuses it cleanly; the valid issue stays readable and the store is
 * byte-for-byte unchanged. Returns every run, for leak checks.
 */
async function refusedEverywhere(t: ExecutionContext, r: HostileRepo, needles: Array<string | RegExp>): Promise<Ran[]> {
  const before = snapshot(r.cwd);
  const runs: Ran[] = [];
  const fi = async (args: string[]): Promise<Ran> => {
    const x = await run("forge-issue", args, { cwd: r.cwd });
    runs.push(x);
    return x;
  };
  const list = await fi(["list"]);
  assertOneLineError(t, list, "forge-issue list", [r.file, ...needles]);
  t.deepEqual(
    lines(list.stdout).map((l) => l.split("\t")[2]),
    [VALID_TITLE],
    "list still prints the valid issue"
  );
  const json = await fi(["list", "--json", "title"]);
  assertOneLineError(t, json, "forge-issue list", [r.file, ...needles]);
  t.deepEqual(jsonl(json.stdout), [{ title: VALID_TITLE }]);
  for (const [verb, ...rest] of [
    ["view"],
    ["edit", "--add-label", "bug"],
    ["comment", "-b", "hi"],
    ["close"],
  ] as const) {
    const x = await fi([verb, r.id, ...rest]);
    assertOneLineError(t, x, `forge-issue ${verb}`, [r.file, ...needles]);
    t.is(x.stdout, "", `${verb} printed nothing`);
  }
  const ok = await fi(["view", r.validId, "--json", "title"]);
  t.is(ok.code, 0, ok.stderr);
  t.is(ok.stderr, "");
  t.deepEqual(jsonl(ok.stdout), [{ title: VALID_TITLE }]);
  t.deepEqual(snapshot(r.cwd), before, "the store is unchanged");
  return runs;
}

/** A case: write the hostile file, then expect refusal everywhere with these words. */
const refused = test.macro(async (t, write: (r: HostileRepo) => void, needles: Array<string | RegExp>) => {
  t.timeout(SLOW);
  const r = await hostileRepo();
  write(r);
  await refusedEverywhere(t, r, needles);
});

// --- SEC-01: size, aliases, depth, code-evaluating engines ---

test(
  "forge-issue refuses a 10 MiB frontmatter before parsing it",
  refused,
  (r: HostileRepo) => {
    writeIssue(r, `${issueFields(r.id)}x: ${"a".repeat(10 * 1024 * 1024)}\n`);
  },
  ["larger than 256 KiB"]
);

test(
  "forge-issue refuses a YAML alias bomb (billion laughs)",
  refused,
  (r: HostileRepo) => {
    let bomb = 'l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    for (let i = 1; i <= 9; i++)
      bomb += `l${i}: &l${i} [${Array(9)
        .fill(`*l${i - 1}`)
        .join(",")}]\n`;
    writeIssue(r, issueFields(r.id) + bomb);
  },
  [/alias/i]
);

test(
  "forge-issue refuses a single harmless alias too (aliases are off)",
  refused,
  (r: HostileRepo) => {
    writeIssue(r, `${issueFields(r.id)}a: &a x\nb: *a\n`);
  },
  [/alias/i]
);

const DEEP = "nesting deeper than 32";

test(
  "forge-issue refuses 1,000-deep flow nesting",
  refused,
  (r: HostileRepo) => {
    writeIssue(r, `${issueFields(r.id)}x: ${"[".repeat(1000)}${"]".repeat(1000)}\n`);
  },
  [DEEP]
);

test(
  "forge-issue refuses 100,000-deep flow nesting",
  refused,
  (r: HostileRepo) => {
    writeIssue(r, `${issueFields(r.id)}x: ${"[".repeat(100_000)}${"]".repeat(100_000)}\n`);
  },
  [DEEP]
);

test(
  "forge-issue refuses 1,000-deep nested flow mappings",
  refused,
  (r: HostileRepo) => {
    writeIssue(r, `${issueFields(r.id)}x: ${"{a: ".repeat(1000)}b${"}".repeat(1000)}\n`);
  },
  [DEEP]
);

test(
  "forge-issue refuses 1,000-deep block nesting by indentation",
  refused,
  (r: HostileRepo) => {
    // `k:` then `- k:` one level in, each line a mapping in a sequence: two
    // levels per line, the densest indentation-only form (about 250 KB,
    // just under the size cap, so the depth cap is what refuses it).
    let s = "k:\n";
    for (let i = 0; i < 500; i++) s += `${" ".repeat(2 * i)}- k:\n`;
    writeIssue(r, issueFields(r.id) + s);
  },
  [DEEP]
);

test(
  "forge-issue refuses 700-deep block mappings",
  refused,
  (r: HostileRepo) => {
    let s = "";
    for (let i = 0; i < 700; i++) s += `${" ".repeat(i)}k:\n`;
    writeIssue(r, issueFields(r.id) + s);
  },
  [DEEP]
);

test(
  "forge-issue refuses 1,000-deep compact block sequences",
  refused,
  (r: HostileRepo) => {
    writeIssue(r, `${issueFields(r.id)}x:\n${"- ".repeat(1000)}y\n`);
  },
  [DEEP]
);

test(
  "forge-issue refuses 100,000-deep compact block sequences",
  refused,
  (r: HostileRepo) => {
    writeIssue(r, `${issueFields(r.id)}x:\n${"- ".repeat(100_000)}y\n`);
  },
  [DEEP]
);

test(
  "forge-issue refuses 100,000-deep block mappings by the size cap",
  refused,
  (r: HostileRepo) => {
    // Indentation makes this form quadratic: 100,000 levels would be ~5 GB, so
    // write the first 2,000 (~2 MB); the size cap refuses it before any parse.
    let s = "";
    for (let i = 0; i < 2000; i++) s += `${" ".repeat(i)}k:\n`;
    writeIssue(r, issueFields(r.id) + s);
  },
  ["larger than 256 KiB"]
);

for (const lang of ["js", "javascript"]) {
  test(`forge-issue never evaluates a ---${lang} frontmatter`, async (t) => {
    const r = await hostileRepo();
    const pwned = join(tmpdir(), `PWNED-${randomUUID()}`);
    const code = `{title: require('fs').writeFileSync(${JSON.stringify(pwned)}, 'x'), id: ${JSON.stringify(r.id)}}\n`;
    writeIssue(r, code, { lang });
    await refusedEverywhere(t, r, [`language '${lang}'`]);
    t.false(existsSync(pwned), "the frontmatter's code ran");
  });
}

// --- strict schema ---

for (const field of ["createdAt", "title"]) {
  test(
    `forge-issue names the file and the field when '${field}' is missing`,
    refused,
    (r: HostileRepo) => {
      writeIssue(r, issueFields(r.id, [field]));
    },
    [`field '${field}'`, "missing"]
  );
}

test("forge-issue warns on one line about an unknown field and keeps it through an edit", async (t) => {
  const r = await hostileRepo();
  writeIssue(r, `${issueFields(r.id)}frobnicate: 7\n`);
  const list = await run("forge-issue", ["list"], { cwd: r.cwd });
  t.is(list.code, 0, list.stderr);
  const err = lines(list.stderr);
  t.is(err.length, 1, list.stderr);
  t.true(err[0]!.startsWith("forge-issue list: "), err[0]);
  for (const n of ["warning", r.file, "'frobnicate'"]) t.true(err[0]!.includes(n), `${n} not in ${err[0]}`);
  t.deepEqual(
    lines(list.stdout)
      .map((l) => l.split("\t")[2])
      .sort(),
    [VALID_TITLE, "hostile"].sort()
  );

  const edit = await run("forge-issue", ["edit", r.id, "--add-label", "bug"], { cwd: r.cwd });
  t.is(edit.code, 0, edit.stderr);
  const fm = await parseFrontmatter(readFileSync(r.abs, "utf8"), r.file);
  t.is(fm.data.frobnicate, 7);
  t.deepEqual(fm.data.labels, ["bug"]);
  t.is(fm.data.title, "hostile");
});

// --- SEC-02: symlinks out of the store, never read, never printed ---

/** A folder outside the repo holding a complete, valid issue whose text is a secret. */
function outsideIssue(id: string): { dir: string; file: string; secret: string } {
  const secret = `SECRET-${randomUUID()}`;
  const dir = join(mkdtempSync(join(tmpdir(), "forge-outside-")), id);
  mkdirSync(dir);
  const file = join(dir, "issue.md");
  writeFileSync(file, `---\n${issueFields(id).replace("title: hostile", `title: ${secret}`)}---\n${secret}\n`);
  return { dir, file, secret };
}

function assertNoLeak(t: ExecutionContext, runs: Ran[], secret: string): void {
  t.true(runs.length > 0);
  for (const x of runs) {
    t.false(x.stdout.includes(secret), "secret on stdout");
    t.false(x.stderr.includes(secret), "secret on stderr");
  }
}

test("forge-issue refuses an issue.md symlinked outside .forge/ and never prints its content", async (t) => {
  const r = await hostileRepo();
  const out = outsideIssue(r.id);
  symlinkSync(out.file, r.abs);
  const runs = await refusedEverywhere(t, r, ["symlink", "outside .forge/"]);
  assertNoLeak(t, runs, out.secret);
  t.true(readFileSync(out.file, "utf8").includes(out.secret), "the outside file is untouched");
});

test("forge-issue refuses an issue folder symlinked outside .forge/ and writes nothing there", async (t) => {
  const r = await hostileRepo();
  const out = outsideIssue(r.id);
  rmdirSync(join(r.cwd, ".forge", "issues", r.id));
  symlinkSync(out.dir, join(r.cwd, ".forge", "issues", r.id));
  const runs = await refusedEverywhere(t, r, ["symlink", "out of .forge/"]);
  assertNoLeak(t, runs, out.secret);
  t.deepEqual(readdirSync(out.dir), ["issue.md"], "no comment or temp file was written outside");
});

// --- SEC-04: shell metacharacters are data ---

test("forge-issue stores and prints a title full of shell metacharacters literally", async (t) => {
  const cwd = tempRepo("forge-sec-");
  const home = mkdtempSync(join(tmpdir(), "forge-home-"));
  mkdirSync(join(home, "canary"));
  const marker = join(home, "executed");
  const title = `$(touch ${marker}) ; rm -rf ~/canary | && \`touch ${marker}\` "quotes" 'single' #hash`;
  const env = { HOME: home };
  const c = await run("forge-issue", ["create", "-t", title, "--json", "id,title"], { cwd, env });
  t.is(c.code, 0, c.stderr);
  const made = jsonl(c.stdout)[0] as { id: string; title: string };
  t.is(made.title, title);

  const file = `.forge/issues/${made.id}/issue.md`;
  const fm = await parseFrontmatter(readFileSync(join(cwd, file), "utf8"), file);
  t.is(fm.data.title, title, "stored literally");

  const list = await run("forge-issue", ["list"], { cwd, env });
  t.is(list.code, 0, list.stderr);
  t.deepEqual(
    lines(list.stdout).map((l) => l.split("\t")[2]),
    [title],
    "printed literally by list"
  );
  const view = await run("forge-issue", ["view", "1", "--json"], { cwd, env });
  t.is(view.code, 0, view.stderr);
  t.is(jsonl(view.stdout)[0]?.title, title, "printed literally by view --json");

  t.false(existsSync(marker), "a command in the title ran");
  t.true(existsSync(join(home, "canary")), "rm in the title ran");
});

// --- SEC-03: a write killed between temp file and rename ---

test("forge-issue edit killed before rename leaves the old issue.md byte for byte", async (t) => {
  const r = await hostileRepo();
  rmdirSync(join(r.cwd, ".forge", "issues", r.id));
  const dir = join(r.cwd, ".forge", "issues", r.validId);
  const old = readFileSync(join(dir, "issue.md"));
  const e = await run("forge-issue", ["edit", r.validId, "-t", "new"], {
    cwd: r.cwd,
    env: { FORGE_TEST_FAULT: "kill-before-rename" },
  });
  t.is(e.signal, "SIGKILL", `exit ${e.code}: ${e.stderr}`);
  t.true(
    readdirSync(dir).some((n) => /^\.issue\.md\..+\.tmp$/.test(n)),
    "the temp file was written (the kill came after it)"
  );
  t.deepEqual(readFileSync(join(dir, "issue.md")), old);

  const list = await run("forge-issue", ["list", "--json", "title"], { cwd: r.cwd });
  t.is(list.code, 0, list.stderr);
  t.is(list.stderr, "", "the stray temp file is ignored");
  t.deepEqual(jsonl(list.stdout), [{ title: VALID_TITLE }]);
});

test("forge-issue create killed before rename leaves no half-made issue", async (t) => {
  const r = await hostileRepo();
  const issues = join(r.cwd, ".forge", "issues");
  rmdirSync(join(issues, r.id));
  const before = readdirSync(issues).sort();
  const c = await run("forge-issue", ["create", "-t", "half"], {
    cwd: r.cwd,
    env: { FORGE_TEST_FAULT: "kill-before-rename" },
  });
  t.is(c.signal, "SIGKILL", `exit ${c.code}: ${c.stderr}`);
  const after = readdirSync(issues).sort();
  t.deepEqual(
    after.filter((n) => !n.startsWith(".")),
    before,
    "no new issue folder"
  );
  t.true(
    after.some((n) => /^\..+\.tmp$/.test(n)),
    "the temp folder was made (the kill came inside create)"
  );

  const list = await run("forge-issue", ["list", "--json", "title"], { cwd: r.cwd });
  t.is(list.code, 0, list.stderr);
  t.is(list.stderr, "");
  t.deepEqual(jsonl(list.stdout), [{ title: VALID_TITLE }]);
  const again = await run("forge-issue", ["create", "-t", "whole"], { cwd: r.cwd });
  t.is(again.code, 0, again.stderr);
  const list2 = await run("forge-issue", ["list", "--json", "number,title"], { cwd: r.cwd });
  t.deepEqual(jsonl(list2.stdout), [
    { number: 2, title: "whole" },
    { number: 1, title: VALID_TITLE },
  ]);
});

// --- batches: one bad stdin line does not stop the rest ---

test("forge-issue close - closes every good stdin line and names the bad one", async (t) => {
  const cwd = tempRepo("forge-sec-");
  for (const title of ["one", "two"]) t.is((await run("forge-issue", ["create", "-t", title], { cwd })).code, 0);
  const c = await run("forge-issue", ["close", "-"], { cwd, input: '{"number":1}\nnot json\n{"number":2}\n' });
  t.is(c.code, 1);
  t.false(/^\s+at /m.test(c.stderr));
  const err = lines(c.stderr);
  const bad = err.filter((l) => !/^Closed issue #[12] /.test(l));
  t.is(bad.length, 1, c.stderr);
  t.true(bad[0]!.startsWith("forge-issue close: stdin line 2: "), bad[0]);
  const closed = await run("forge-issue", ["list", "--state", "closed", "--json", "number"], { cwd });
  t.deepEqual(jsonl(closed.stdout), [{ number: 2 }, { number: 1 }]);
});

// --- SEC-10: forge-loop quotes a report's field names and argv without control characters ---

test("SEC-10: forge-loop next quotes an unknown field's name and a bad flag value with '?' for ESC", async (t) => {
  const cwd = tempRepo("forge-sec-loop-");
  const env = { FORGE_NOW: "2026-12-01T09:00:00Z" };
  const s = await run("forge-loop", ["start", "--task", "t", "--criterion", "c", "--check", "true", "--json"], {
    cwd,
    env,
  });
  t.is(s.code, 0, s.stderr);
  const id = jsonl(s.stdout)[0]!.loop_id as string;
  const report = {
    format: "loopforge.round-report",
    outcome: "success",
    continuation: "continue",
    summary: "s",
    violations: [],
    "hunter2\u001b[2J": 1,
  };
  const r = await run("forge-loop", ["next", id, "-F", "-"], { cwd, env, input: JSON.stringify(report) });
  t.is(r.code, 1);
  t.is(r.stderr, "forge-loop next: invalid_round_report: stdin: field 'hunter2?[2J': unknown field\n");
  const g = await run("forge-loop", ["gate", "nope\u001b[2J", id], { cwd, env });
  t.is(g.code, 2);
  t.true(g.stderr.startsWith("forge-loop gate: unknown gate action 'nope?[2J' (check|resolve)"), g.stderr);
});
