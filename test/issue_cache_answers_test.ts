/**
 * Every answer `forge-issue` gives through its caches (`.forge/.cache/`:
 * the order, the list's records) is, byte for byte, the answer it gives
 * with the caches deleted: after each kind of write made while the caches
 * were warm, after a `git pull` that rewrites files under them, and with a
 * torn or garbled cache file. "Cold" below is each command run alone with
 * no cache at all (a fresh clone): the first list then opens each file once
 * and builds both caches as it goes.
 */
import test, { type ExecutionContext } from "ava";
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { setTimeout as sleep } from "node:timers/promises";
import { FIXTURE, fixtureRepo } from "./lib/fixture.js";
import { removeScratch, scratch } from "./lib/scratch.js";
import { git, jsonl, run } from "./lib/run.js";

test.after.always(removeScratch);

/** The full list (it warms every cache). */
const FULL = ["list", "--json", "-s", "all", "-L", "1000"];

/** The answers compared: filters, the full list, a short one, --ready, a plain-text list, one issue by number. */
const ANSWERS: string[][] = [
  // First, before any full list re-stamps the records after a write: a filter, a state and a search tried on what
  // the file says, whose matches must then show updatedAt as their record folders have it now.
  ["list", "-s", "all", "-l", "ui", "--json"],
  ["list", "-s", "open", "-L", "1000", "--json", "number,updatedAt"],
  ["list", "-S", "is:open label:ui", "--json", "number,updatedAt"],
  FULL,
  ["list", "--json", "number,title,state,labels", "-L", "3"],
  ["list", "--ready", "--json", "number,title,state"],
  ["list", "-s", "all", "-L", "1000"],
  ["view", "2", "--json", "number,title,state,labels,comments"],
  ["list", "-s", "all", "-l", "bug", "--json", "number,title,labels"],
  ["list", "-s", "all", "-l", "bug"],
  ["list", "-s", "all", "--json", "number,title,state", "--jq", '.[] | "\\(.number) \\(.state) \\(.title)"'],
];

/** Filters the record cache answers (issue 33), each with a full record and with a few fields. */
const FILTERS: string[][] = [
  ["-l", "bug"],
  ["-l", "bug", "-l", "ui"],
  ["-a", "alice"],
  ["-a", "@me"],
  ["-A", "bob"],
  ["-m", "v1"],
  ["-l", "bug", "-A", "alice", "-m", "v1"],
  ["-l", "nosuch"],
  // gh's filters ignore case (its list flags are search qualifiers; logins are GitHub's).
  ["-l", "BUG"],
  ["-a", "ALICE"],
  ["-A", "Bob"],
  ["-m", "V1"],
  ["-l", "Bug", "-A", "ALICE", "-m", "V1"],
];

const cache = (repo: string): string => join(repo, ".forge", ".cache");

/** A command's stdout; it must succeed, and a read (`quiet`) must say nothing on stderr. */
async function issue(repo: string, args: string[], quiet = true): Promise<string> {
  const r = await run("forge-issue", args, { cwd: repo });
  if (r.code !== 0 || (quiet && r.stderr !== ""))
    throw new Error(`forge-issue ${args.join(" ")}: exit ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/** Every field a list writes without a field list (all but comments). */
const LISTED =
  "assignees,author,body,closed,closedAt,createdAt,id,isArchived,isPinned,labels,milestone,number,state,stateReason," +
  "title,updatedAt,url";

/**
 * `list -s all <filter> --json <fields>` on the general path, which reads every file and applies the CLI's filters
 * (a field list with `comments` is no list the record cache answers), comments taken out again.
 */
async function fromFiles(repo: string, filter: string[], fields: string): Promise<Array<Record<string, unknown>>> {
  const args = ["list", "-s", "all", ...filter, "--json", `${fields},comments`];
  return (jsonl(await issue(repo, args)) as Array<Record<string, unknown>>).map(({ comments: _, ...r }) => r);
}

/**
 * `list -s all <filter> --json <fields>` from the caches, checked against the same list on the general path; the
 * cached answer.
 */
async function sameAsFiles(t: ExecutionContext, repo: string, filter: string[], fields: string[]): Promise<unknown[]> {
  const args = ["list", "-s", "all", ...filter, "--json", ...fields];
  const cached = jsonl(await issue(repo, args));
  t.deepEqual(cached, await fromFiles(repo, filter, fields[0] ?? LISTED), args.join(" "));
  return cached;
}

/**
 * The answers a list gives from the records the cache holds, but not as JSON lines: a table (its columns alone),
 * --jq, gh's one array (FORGE_JSON=array), each checked against the records on the general path.
 */
async function sameRendered(t: ExecutionContext, repo: string, filter: string[]): Promise<void> {
  const files = await fromFiles(repo, filter, "number,state,title,labels,updatedAt");
  const names = (r: Record<string, unknown>): string =>
    (r.labels as Array<{ name: string }>).map((l) => l.name).join(", ");
  const rows = files.map((r) => `${r.number}\t${r.state}\t${r.title}\t${names(r)}\t${r.updatedAt}\n`).join("");
  t.is(await issue(repo, ["list", "-s", "all", ...filter]), rows, `table ${filter.join(" ")}`);
  const jq = [
    "list",
    "-s",
    "all",
    ...filter,
    "--json",
    "number,labels",
    "--jq",
    '.[] | "\\(.number) \\([.labels[].name])"',
  ];
  const lines = files.map(
    (r) => `${r.number} ${JSON.stringify((r.labels as Array<{ name: string }>).map((l) => l.name))}\n`
  );
  t.is(await issue(repo, jq), lines.join(""), `--jq ${filter.join(" ")}`);
  const args = ["list", "-s", "all", ...filter, "--json", "title,number,author"];
  const r = await run("forge-issue", args, { cwd: repo, env: { FORGE_JSON: "array" } });
  t.is(r.code, 0, r.stderr);
  t.is(
    r.stdout,
    `${JSON.stringify(await fromFiles(repo, filter, "author,number,title"))}\n`,
    `array ${filter.join(" ")}`
  );
}

/** Every answer with whatever caches there are (each run may update them for the next). */
async function answers(repo: string): Promise<string[]> {
  const out: string[] = [];
  for (const args of ANSWERS) out.push(await issue(repo, args));
  return out;
}

/** Every answer with no cache at all: each command alone on a store whose cache folder was deleted. */
async function coldAnswers(repo: string): Promise<string[]> {
  const out: string[] = [];
  for (const args of ANSWERS) {
    rmSync(cache(repo), { recursive: true, force: true });
    out.push(await issue(repo, args));
  }
  return out;
}

/**
 * Warm caches (built by a cold full list, then by every other answer), past the racy-clean window; the answers.
 */
async function warmed(repo: string): Promise<string[]> {
  await sleep(120);
  rmSync(cache(repo), { recursive: true, force: true });
  return answers(repo);
}

const WRITES: Array<[string, string[]]> = [
  ["create", ["create", "-t", "a new one ✓", "-b", "body\nwith lines", "-l", "bug"]],
  ["edit", ["edit", "1", "--title", "Renamed ünïcödé", "--body", "new body"]],
  ["comment", ["comment", "2", "-b", "a comment"]],
  ["close", ["close", "2"]],
  ["reopen", ["reopen", "3"]],
  ["label", ["edit", "2", "--add-label", "bug"]],
  ["archive", ["archive", "4"]],
];

for (const [name, write] of WRITES) {
  test.serial(
    `after ${name}, every answer from the caches written before it is the answer with no cache`,
    async (t) => {
      const repo = await fixtureRepo();
      const before = await warmed(repo);
      await issue(repo, write, false);
      const after = await answers(repo); // the caches as the write left them
      const again = await answers(repo); // as the answers after it rebuilt them
      const cold = await coldAnswers(repo);
      t.notDeepEqual(after, before, "the write changed some answer");
      t.deepEqual(after, cold);
      t.deepEqual(again, cold);
    }
  );
}

test.serial(
  "after labels.md and milestones.md are rewritten, every answer from the caches is the answer with no cache",
  async (t) => {
    const repo = await fixtureRepo();
    const before = await warmed(repo); // the definitions' caches too (.cache/labels.defs, milestones.defs)
    for (const [cmd, args] of [
      ["forge-label", ["edit", "bug", "--color", "112233", "--description", "Broken now"]],
      ["forge-milestone", ["edit", "v1", "--description", "The first one"]],
    ] as const) {
      const r = await run(cmd, [...args], { cwd: repo });
      t.is(r.code, 0, r.stderr);
    }
    const after = await answers(repo);
    t.notDeepEqual(after, before, "the write changed some answer");
    t.true(after[ANSWERS.indexOf(FULL)]!.includes('"color":"112233"'));
    t.deepEqual(after, await coldAnswers(repo));
  }
);

for (const f of FILTERS) {
  test.serial(`list ${f.join(" ")} from the record cache is the answer from the files`, async (t) => {
    const repo = await fixtureRepo();
    await sleep(120);
    await issue(repo, FULL); // the caches, warm
    for (const fields of [[], ["number,labels,author"], ["url"], ["title,updatedAt"]]) {
      const cached = await sameAsFiles(t, repo, f, fields);
      if (!f.includes("nosuch")) t.true(cached.length > 0, "it matches something");
    }
    await sameRendered(t, repo, f);
  });
}

test.serial("labels a file spells in another case are found by the record cache as by the files", async (t) => {
  const repo = await fixtureRepo();
  // Issue 1 (`Crash on start`), labelled by hand: BUG, the Kelvin sign (it lowercases to k), Ünïcode.
  const file = join(repo, ".forge", "issues", FIXTURE[0]!.id, "issue.md");
  const text = readFileSync(file, "utf8");
  t.true(text.includes("labels:\n  - bug\n"));
  writeFileSync(file, text.replace("labels:\n  - bug\n", "labels:\n  - BUG\n  - \u212a\n  - Ünïcode\n"));
  await sleep(120);
  await issue(repo, FULL); // the records of the files as they are now, cached
  for (const f of [
    ["-l", "bug"],
    ["-l", "k"],
    ["-l", "ÜNÏCODE"],
    ["-l", "Bug", "-l", "ünïcode", "-A", "ALICE"],
  ]) {
    for (const fields of [[], ["number,labels"]]) {
      const numbers = (await sameAsFiles(t, repo, f, fields)).map((r) => (r as { number: number }).number);
      t.true(numbers.includes(1), `${f.join(" ")} finds issue 1`);
    }
    await sameRendered(t, repo, f);
  }
  t.deepEqual(jsonl(await issue(repo, ["list", "-s", "all", "-l", "nosuch", "-l", "bug", "--json", "number"])), []);
});

test.serial(
  "an issue's createdAt changed by hand under warm caches: a write by number refuses, a list says so, then every " +
    "answer is the answer with no cache",
  async (t) => {
    const repo = await fixtureRepo();
    await warmed(repo);
    // Issue 1 (`Crash on start`, the oldest) made the newest by hand: every number moves.
    const file = join(repo, ".forge", "issues", FIXTURE[0]!.id, "issue.md");
    const text = readFileSync(file, "utf8");
    t.true(text.includes(`createdAt: "${FIXTURE[0]!.createdAt}"`));
    writeFileSync(file, text.replace(`createdAt: "${FIXTURE[0]!.createdAt}"`, 'createdAt: "2030-01-01T00:00:00Z"'));
    const edit = await run("forge-issue", ["edit", "1", "--title", "edited"], { cwd: repo });
    t.is(edit.code, 1);
    t.regex(edit.stderr, /issue\.md: createdAt is not the one #1 was numbered by .*run the command again\n$/);
    t.is(readFileSync(file, "utf8").includes("edited"), false, "nothing written");
    t.deepEqual(await answers(repo), await coldAnswers(repo));
    // Again, found by a list's walk this time (the cache warm, the file read as it changed).
    await warmed(repo);
    writeFileSync(file, text);
    const list = await run("forge-issue", FULL, { cwd: repo });
    t.is(list.code, 1);
    t.regex(list.stderr, /issue\.md: createdAt is not the one it was numbered by .*run the command again\n$/);
    t.deepEqual(await answers(repo), await coldAnswers(repo));
  }
);

test.serial("a cold list cut short by --limit leaves caches that answer as no cache does", async (t) => {
  const repo = await fixtureRepo();
  await sleep(120);
  rmSync(cache(repo), { recursive: true, force: true });
  const short = await issue(repo, ["list", "--json", "-s", "all", "-L", "1"]);
  t.is(jsonl(short).length, 1);
  t.true(readFileSync(join(cache(repo), "issues.records"), "utf8").length > 0, "the whole cache, from one read each");
  t.deepEqual(await answers(repo), await coldAnswers(repo));
});

test.serial(
  "after a git pull that rewrites issue files under warm caches, every answer is the answer with no cache",
  async (t) => {
    const origin = await fixtureRepo();
    git(origin, ["add", "-A"]);
    git(origin, ["commit", "-q", "-m", "fixture", "--allow-empty"]);
    const clone = scratch(`${origin}-clone`);
    execFileSync("git", ["clone", "-q", origin, clone], { stdio: "ignore" });
    git(clone, ["config", "user.name", "bob"]);
    git(clone, ["config", "user.email", "bob@example.com"]);
    const before = await warmed(clone);
    await issue(origin, ["edit", "1", "--title", "Pulled title", "--add-label", "enhancement"], false);
    await issue(origin, ["reopen", "3"], false);
    await issue(origin, ["create", "-t", "made upstream"], false);
    git(origin, ["add", "-A"]);
    git(origin, ["commit", "-q", "-m", "upstream"]);
    git(clone, ["pull", "-q", "--no-rebase", "origin", "main"]);
    const after = await answers(clone);
    const cold = await coldAnswers(clone);
    t.notDeepEqual(after, before, "the pull changed some answer");
    t.deepEqual(after, cold);
    t.true(cold[ANSWERS.indexOf(FULL)]!.includes('"title":"Pulled title"'));
  }
);

const DAMAGE: Array<[string, (f: string) => void]> = [
  ["truncated mid-line", (f) => truncateSync(f, Math.floor(readFileSync(f).length / 2) + 7)],
  ["empty (a torn write)", (f) => truncateSync(f, 0)],
  // An order cache's line is 60 bytes: one whole line cut off, as a torn append would leave it.
  ["torn by 60 bytes at its end", (f) => truncateSync(f, readFileSync(f).length - 60)],
  [
    "grown by a copy of 60 bytes after its first line",
    (f) => {
      const b = readFileSync(f);
      const nl = b.indexOf(10) + 1;
      writeFileSync(f, Buffer.concat([b.subarray(0, nl), b.subarray(nl, nl + 60), b.subarray(nl)]));
    },
  ],
  [
    "garbled in the middle",
    (f) => {
      const b = readFileSync(f);
      b.fill(0x78, Math.floor(b.length / 2), Math.floor(b.length / 2) + 40);
      writeFileSync(f, b);
    },
  ],
];

// The records carry a checksum per block; the order cache is trusted by its folders' stamp and its shape, its lines
// counted (a garbled line under a stamp that still holds is not detected: not tested here).
for (const file of ["issues.records", "issues.order", "labels.defs"]) {
  for (const [what, harm] of DAMAGE) {
    if (file === "issues.order" && what.startsWith("garbled")) continue;
    test.serial(`${file} ${what} answers as no cache does, and is rebuilt`, async (t) => {
      const repo = await fixtureRepo();
      const cold = await warmed(repo); // as no cache answers (the --limit test checks it)
      harm(join(cache(repo), file));
      t.deepEqual(await answers(repo), cold);
      t.deepEqual(await answers(repo), cold, "then rebuilt");
    });
  }
}

test.serial(
  "a record cache made by hand, checksums and all, is named in one line when a table cannot read it",
  async (t) => {
    const repo = await fixtureRepo();
    await warmed(repo);
    // The first block's first `"labels":` value made bad JSON of the same brackets, its checksum made again.
    const f = join(cache(repo), "issues.records");
    const text = readFileSync(f, "latin1");
    const start = text.indexOf("\n") + 1;
    const end = text.indexOf("\x1e");
    const block = text.slice(start, end).replace(/"labels":\[/, '"labels":[,');
    t.not(block, text.slice(start, end));
    const sum = crc32(Buffer.from(block, "latin1")).toString(16).padStart(8, "0");
    writeFileSync(f, `${text.slice(0, start)}${block}\x1e${sum}\n${text.slice(text.indexOf("\n", end) + 1)}`, "latin1");
    const r = await run("forge-issue", ["list", "-s", "all", "-L", "1000"], { cwd: repo });
    t.is(r.code, 1);
    t.is(
      r.stderr,
      "forge-issue list: .forge/.cache/issues.records: a record that is not JSON (delete the file: it is rebuilt)\n"
    );
    rmSync(f);
    t.deepEqual(await answers(repo), await coldAnswers(repo), "deleted, it is rebuilt");
  }
);

test.serial(
  "a filter's shortcut over the cached bytes: quoted names, look-alike text, the same name in another member",
  async (t) => {
    const repo = await fixtureRepo();
    const fl = (args: string[]): Promise<string> =>
      run("forge-label", args, { cwd: repo }).then((r) =>
        r.code === 0 ? r.stdout : Promise.reject(new Error(r.stderr))
      );
    await fl(["create", 'say "hi" ✓', "--color", "ededed"]);
    await fl(["create", "v1", "--color", "ededed"]);
    await fl(["create", "bugfix", "--color", "ededed"]);
    const ms = await run("forge-milestone", ["create", "bug"], { cwd: repo });
    t.is(ms.code, 0, ms.stderr);
    const make = async (args: string[], author: string): Promise<void> => {
      const r = await run("forge-issue", ["create", ...args], { cwd: repo, env: { FORGE_AUTHOR: author } });
      if (r.code !== 0) throw new Error(r.stderr);
    };
    // The members a filter looks for, as text in a body and a title (escaped there), and as another member's value.
    await make(["-t", "v1", "-b", '"name":"bug" and "login":"alice" and "title":"v1"'], "carol");
    await make(["-t", 'labelled say "hi" ✓', "-l", 'say "hi" ✓'], "bug");
    await make(["-t", "label named like a milestone", "-l", "v1"], "dave");
    // A label filter alone is decided by its bytes (`"name":"bug"`), unparsed: bug as an assignee, a milestone, a
    // label's prefix, and in an escaped quote, must not pass it.
    await make(["-t", "assigned to bug", "-a", "bug", "-m", "bug", "-l", "bugfix", "-b", '\\"name":"bug"'], "erin");
    // The logins and milestone titles are read where the record holds them: a login as an author, not an assignee
    // (and the other way round), a login's prefix, a quoted login and milestone, a milestone named like a label.
    const quoted = await run("forge-milestone", ["create", 'say "ms"'], { cwd: repo });
    t.is(quoted.code, 0, quoted.stderr);
    await make(["-t", "by alice", "-a", "bob", "-m", "v1"], "alice");
    await make(["-t", "for alicex", "-a", "alicex,carol", "-m", 'say "ms"'], "alicex");
    await make(["-t", "for al quote", "-a", 'al"ice', "-b", '{"login":"alice"}'], 'al"ice');
    await sleep(120);
    await issue(repo, FULL); // the caches, warm
    for (const f of [
      ["-l", "bug"],
      ["-l", 'say "hi" ✓'],
      ["-A", "alice"],
      ["-a", "alice"],
      ["-m", "v1"],
      ["-l", "v1"],
      ["-a", "alicex"],
      ["-A", "alicex"],
      ["-a", 'al"ice'],
      ["-A", 'al"ice'],
      ["-m", 'say "ms"'],
      ["-m", "bug"],
      ["-a", "carol", "-A", "alicex"],
      ["-a", "bob", "-m", "v1", "-A", "alice"],
      ["-l", "bugfix", "-a", "bug"],
    ]) {
      // Whole records (copied as bytes) and some fields (parsed).
      for (const fields of [[], ["number,title,labels,author,milestone"]]) await sameAsFiles(t, repo, f, fields);
    }
    // The body that names the members matches none of them; the quoted label matches its issue.
    const titles = async (f: string[]): Promise<unknown[]> =>
      jsonl(await issue(repo, ["list", "-s", "all", ...f, "--json", "title"])).map((x) => x.title);
    t.false((await titles(["-l", "bug"])).includes("v1"));
    t.false((await titles(["-l", "bug"])).includes("assigned to bug"));
    t.deepEqual(await titles(["-m", "bug"]), ["assigned to bug"]);
    t.deepEqual(await titles(["-l", 'say "hi" ✓']), ['labelled say "hi" ✓']);
    t.false((await titles(["-m", "v1"])).includes("v1"));
    t.true((await titles(["-A", "alice"])).includes("by alice"));
    t.false((await titles(["-a", "alice"])).includes("by alice"));
    t.deepEqual(await titles(["-a", "alicex"]), ["for alicex"]);
    t.deepEqual(await titles(["-a", 'al"ice']), ["for al quote"]);
    t.deepEqual(await titles(["-m", 'say "ms"']), ["for alicex"]);
  }
);

test.serial("list -S from the record cache is the answer from the files, for every query it answers", async (t) => {
  const repo = await fixtureRepo();
  const make = async (args: string[]): Promise<void> => {
    const r = await run("forge-issue", ["create", ...args], { cwd: repo, env: { FORGE_AUTHOR: "erin" } });
    if (r.code !== 0) throw new Error(r.stderr);
  };
  // U+212A (the Kelvin sign) lowercases to "k": an ASCII-only shortcut over the bytes would miss it.
  await make(["-t", "\u212Aernel panic", "-b", 'says "quoted" and a\\back slash']);
  await make(["-t", "plain kernel words", "-b", "nothing else\n"]);
  // A title with a quote and a backslash run before it, and a body that names members (the bytes must not be taken
  // for them).
  await make(["-t", 'say "hi" \\\\"there"', "-b", '"title":"v1" and "body":"x"\\']);
  await sleep(120);
  await issue(repo, FULL); // the caches, warm
  const queries = [
    "kernel",
    "KERNEL in:title",
    "panic in:body",
    '"quoted"',
    "back",
    "kernel -panic",
    "is:open kernel",
    "is:closed",
    "-is:open",
    "author:erin",
    "author:@me kernel",
    "no:label",
    "label:bug",
    "created:>2020-01-01",
    "closed:<2030-01-01",
    "assignee:*",
    "milestone:v1",
    "type:issue words",
    "updated:>2020-01-01",
    "updated:<2020-01-01",
    // Words where a title and a body are not: a label, a login, a milestone's title, a member's name.
    "bug",
    "alice in:title,body",
    "v1 in:title",
    "title in:body",
    "there in:title",
    "hi -there",
    '\\"there',
    // Sorted: every match read from the records, then sorted by the key read with them.
    "sort:created-asc kernel",
    "sort:updated-desc",
    "sort:updated-asc is:open",
    "sort:updated label:bug",
    "sort:created-desc author:erin",
    // Not the records': answered from the files (the same answer either way).
    "reason:completed",
    "sort:comments-desc",
    "kernel in:comments",
    "is:blocked",
  ];
  // Whole records (decided from the title's and body's bytes, unparsed) and some fields (parsed).
  for (const q of queries)
    for (const fields of [[], ["number,title,state"]]) await sameAsFiles(t, repo, ["-S", q], fields);
  // A sort cut short: the first of every match sorted, not the first matches.
  for (const q of ["sort:updated-asc", "sort:created-asc"]) {
    await sameAsFiles(t, repo, ["-S", q, "-L", "2"], ["number"]);
    await sameRendered(t, repo, ["-S", q, "-L", "3"]);
  }
  // With a label filter (its needles decide the label, the title and body the words), and with an assignee filter
  // (whose needle is in the author too: decided where the assignees are).
  for (const f of [
    ["-l", "bug"],
    ["-a", "alice"],
  ])
    for (const q of ["crash", "-crash in:title", "panic", "kernel"]) await sameAsFiles(t, repo, [...f, "-S", q], []);
  const titles = async (q: string): Promise<unknown[]> =>
    jsonl(await issue(repo, ["list", "-S", q, "--json", "title"])).map((x) => x.title);
  t.deepEqual(await titles("kernel"), ["plain kernel words", "\u212Aernel panic"]);
});
