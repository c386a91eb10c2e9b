/**
 * `forge fsck` and `forge migrate` against real stores: a clean store has no
 * problem; every planted problem is found, one line naming its file; the
 * fixture store of the previous shape (test/fixtures/store-v1) is read (and
 * written) by every command as it is (N−1), migrated by a dry run then
 * `--apply` (resumable) with a one-hop note in merges/migrations/, and read
 * afterwards; a newer store is refused.
 */
import test from "ava";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git, jsonl, ROOT, run, sh, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

async function ok(dir: string, cmd: string, args: string[], env?: Record<string, string>): Promise<string> {
  const r = await run(cmd, args, { cwd: dir, env });
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

/** A store with one of each thing fsck checks: issues, a comment, a PR with a review, a task, labels. */
async function fullStore(): Promise<string> {
  const dir = scratch(tempRepo("forge-fsck-"));
  writeFileSync(join(dir, "a.txt"), "1\n");
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "init"]);
  git(dir, ["checkout", "-qb", "topic"]);
  writeFileSync(join(dir, "a.txt"), "2\n");
  git(dir, ["commit", "-qam", "change"]);
  git(dir, ["checkout", "-q", "main"]);
  await ok(dir, "forge-label", ["create", "triage"]);
  await ok(dir, "forge-issue", ["create", "-t", "one", "-l", "triage"]);
  await ok(dir, "forge-issue", ["create", "-t", "two"]);
  await ok(dir, "forge-issue", ["comment", "1", "-b", "a comment"]);
  await ok(dir, "forge-pr", ["create", "-t", "pr", "-H", "topic", "-B", "main"]);
  await ok(dir, "forge-pr", ["review", "1", "--approve"], { FORGE_AUTHOR: "bob" });
  await ok(dir, "forge-task", ["create", "-t", "task"]);
  await ok(dir, "forge-issue", ["list", "--state", "all"]);
  return dir;
}

test("forge fsck finds nothing in a clean store, and each planted problem in a store with all of them", async (t) => {
  const dir = await fullStore();
  const clean = await run("forge", ["fsck"], { cwd: dir });
  t.is(clean.code, 0, clean.stdout + clean.stderr);
  t.is(clean.stdout, "");

  const issues = jsonl(await ok(dir, "forge-issue", ["list", "--state", "all", "--json", "id,number"]));
  const first = issues.find((i) => i.number === 1)!.id as string;
  const second = issues.find((i) => i.number === 2)!.id as string;
  const pr = (jsonl(await ok(dir, "forge-pr", ["list", "--json", "id"]))[0] as { id: string }).id;
  const f = (rel: string): string => join(dir, ".forge", rel);
  // 1. a file the reader refuses (schema); 2. a comment whose issue is gone; 3. a patch that is not the PR's
  writeFileSync(
    f(`issues/${second}/issue.md`),
    readFileSync(f(`issues/${second}/issue.md`), "utf8").replace("state: open", "state: maybe")
  );
  mkdirSync(f("issues/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d/comments"), { recursive: true });
  writeFileSync(
    f("issues/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d/comments/c1000000-0000-4000-8000-000000000001.md"),
    '---\nid: c1000000-0000-4000-8000-000000000001\nauthor: a\ncreatedAt: "2026-01-02T03:04:05Z"\n---\nx\n'
  );
  writeFileSync(f(`prs/${pr}/patch.diff`), "not the patch\n");
  // 4. a review with a bad state; 5. a merge record naming no PR; 6. a duplicate id (live and archived)
  const reviews = join(f(`prs/${pr}/reviews`));
  writeFileSync(
    join(reviews, "d1000000-0000-4000-8000-000000000001.md"),
    '---\nid: d1000000-0000-4000-8000-000000000001\nauthor: a\nstate: MEH\ncreatedAt: "2026-01-02T03:04:05Z"\n---\n'
  );
  mkdirSync(f("merges"), { recursive: true });
  writeFileSync(
    f("merges/e1000000-0000-4000-8000-000000000001.md"),
    `---\nid: e1000000-0000-4000-8000-000000000001\npr: 0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d\npatchSha256: ` +
      `${"a".repeat(64)}\nbaseRefName: main\nverdict: merged\ncreatedAt: "2026-01-02T03:04:05Z"\n---\n`
  );
  mkdirSync(f(`archive/issues/${first}`), { recursive: true });
  cpSync(f(`issues/${first}/issue.md`), f(`archive/issues/${first}/issue.md`));
  // 7. a stray temp file and a stray lock; 8. an evidence import that is not its batch; 9. a comment whose id is not
  // its name
  writeFileSync(f(`issues/${first}/.issue.md.123.abcd.tmp`), "half");
  writeFileSync(f("labels.md.lock"), "1 h 0\n");
  mkdirSync(f("evidence/imports"), { recursive: true });
  writeFileSync(
    f(`evidence/imports/${"b".repeat(64)}.json`),
    JSON.stringify({
      schema_version: "forge-evidence-import/v1",
      batch_id: "c".repeat(64),
      batch: { scope: "s" },
      kernel_payload: null,
      trial_episodes: "stored",
    })
  );
  const cdir = f(`issues/${first}/comments`);
  const cname = readdirSync(cdir)[0]!;
  writeFileSync(join(cdir, "f1000000-0000-4000-8000-000000000001.md"), readFileSync(join(cdir, cname), "utf8"));
  // 10. a wrong store version
  writeFileSync(f("version"), "x\n");

  const r = await run("forge", ["fsck"], { cwd: dir });
  t.is(r.code, 1);
  t.is(r.stderr, "");
  const lines = r.stdout.trim().split("\n");
  const want: Array<[string, RegExp]> = [
    ["version marker", /^\.forge\/version: not a store version/],
    ["schema", new RegExp(`^\\.forge/issues/${second}/issue\\.md: field 'state': expected one of open\\|closed$`)],
    [
      "orphan comments",
      new RegExp(
        /^\.forge\/issues\/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d\/issue\.md: /.source +
          /missing: the issue's records have no issue\.md$/.source
      ),
    ],
    ["patch", new RegExp(`^\\.forge/prs/${pr}/patch\\.diff: does not match the PR's patchSha256$`)],
    ["review", /reviews\/d1000000-0000-4000-8000-000000000001\.md: field 'state': expected one of/],
    ["merge ref", /^\.forge\/merges\/e1000000-0000-4000-8000-000000000001\.md: field 'pr': no pull request 0a1b2c3d/],
    ["duplicate", new RegExp(`^\\.forge/issues/${first}/issue\\.md: duplicate id: also archived`)],
    ["temp", new RegExp(`^\\.forge/issues/${first}/\\.issue\\.md\\.123\\.abcd\\.tmp: stray temp file`)],
    ["lock", /^\.forge\/labels\.md\.lock: stray lock file/],
    ["evidence", /^\.forge\/evidence\/imports\/b{64}\.json: field 'batch_id': does not match the file name$/],
    ["record id", /comments\/f1000000-0000-4000-8000-000000000001\.md: field 'id': does not match the file name$/],
  ];
  for (const [what, re] of want)
    t.true(
      lines.some((l) => re.test(l)),
      `${what} not found in:\n${r.stdout}`
    );
  t.is(lines.length, want.length, r.stdout);
  const json = await run("forge", ["fsck", "--json"], { cwd: dir });
  t.is(json.code, 1);
  t.deepEqual(
    jsonl(json.stdout).map((p) => `${String(p.file)}: ${String(p.problem)}`),
    lines
  );
  t.true(
    lines.every((l) => !l.includes(dir)),
    "no absolute path (SEC-10)"
  );

  // --prune-temp removes only stray temp files, and only old ones.
  const tmp = f(`issues/${first}/.issue.md.123.abcd.tmp`);
  const p1 = await run("forge", ["fsck", "--prune-temp"], { cwd: dir });
  t.true(p1.stdout.includes(".tmp: stray temp file"), "a fresh temp file is kept (a write may be in progress)");
  utimesSync(tmp, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
  const p2 = await run("forge", ["fsck", "--prune-temp"], { cwd: dir });
  t.regex(p2.stderr, /^forge fsck: removed \.forge\/issues\/.+\/\.issue\.md\.123\.abcd\.tmp\n$/);
  t.false(p2.stdout.includes(".tmp:"));
  t.true(p2.stdout.includes("labels.md.lock: stray lock file"), "locks are never pruned");
  t.is((await run("forge", ["fsck", "-h"], { cwd: dir })).stdout.split("\n").length - 1 <= 8, true);
});

test(
  "forge fsck: a label colour that is no colour is named; a broken lock's .stale is ignored by git and pruned; " +
    "--json survives a closed pipe",
  async (t) => {
    const dir = await fullStore();
    const f = (rel: string): string => join(dir, ".forge", rel);
    writeFileSync(f("labels.md"), readFileSync(f("labels.md"), "utf8").replace(/color: \S+/, "color: hunter2"));
    const stale = f(`labels.md.lock.4242.0a1b2c3d.stale`);
    writeFileSync(stale, "4242 h 0\n");
    const r = await run("forge", ["fsck"], { cwd: dir });
    t.is(r.code, 1);
    t.deepEqual(r.stdout.trim().split("\n"), [
      ".forge/labels.md: field 'labels[0].color': 'hunter2' is not a colour (6 lowercase hex digits, like d73a4a)",
      ".forge/labels.md.lock.4242.0a1b2c3d.stale: a broken lock set aside by an interrupted lock break " +
        "(forge fsck --prune-temp removes it)",
    ]);
    // forge init's ignore lines keep it out of commits.
    t.is(git(dir, ["check-ignore", ".forge/labels.md.lock.4242.0a1b2c3d.stale"]).trim(), stale.slice(dir.length + 1));
    utimesSync(stale, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    const p = await run("forge", ["fsck", "--prune-temp"], { cwd: dir });
    t.is(p.stderr, "forge fsck: removed .forge/labels.md.lock.4242.0a1b2c3d.stale\n");
    t.is(p.stdout.trim().split("\n").length, 1, p.stdout);
    // Many problems, a reader that reads one line: no EPIPE stack trace.
    for (let i = 0; i < 2000; i++) writeFileSync(f(`stray${i}.tmp`), "");
    const head = await sh("forge fsck --json | head -1", { cwd: dir });
    t.is(head.stderr, "", "no EPIPE stack trace");
    t.is(jsonl(head.stdout).length, 1);
  }
);

test("forge fsck reports an order cache that disagrees with the folders", async (t) => {
  const dir = scratch(tempRepo("forge-fsck-"));
  await ok(dir, "forge-issue", ["create", "-t", "one"]);
  await new Promise((r) => setTimeout(r, 100));
  await ok(dir, "forge-issue", ["list"]);
  await ok(dir, "forge-issue", ["list"]);
  const cache = join(dir, ".forge", ".cache", "issues.order");
  const text = readFileSync(cache, "latin1");
  t.is((await run("forge", ["fsck"], { cwd: dir })).code, 0);
  writeFileSync(cache, text.replace(/\n\d{4}-/, "\n1999-"));
  const r = await run("forge", ["fsck"], { cwd: dir });
  t.is(r.code, 1);
  t.regex(
    r.stdout,
    /^\.forge\/\.cache\/issues\.order: order cache disagrees with the folders \(1 wrong createdAt, 0 missing, 0 extra/
  );
});

function v1Store(): string {
  const dir = scratch(tempRepo("forge-v1-"));
  rmSync(join(dir, ".forge"), { recursive: true, force: true });
  cpSync(join(ROOT, "test", "fixtures", "store-v1", ".forge"), join(dir, ".forge"), { recursive: true });
  return dir;
}

test(
  "a store of the previous version (N−1) is read by every command as it is, " +
    "migrated by forge migrate (dry run first) with a one-hop note, then read",
  async (t) => {
    const dir = v1Store();
    const before = readFileSync(join(dir, ".forge", ".gitignore"), "utf8");
    const listed = await run("forge-issue", ["list", "--json", "number,title"], { cwd: dir });
    t.is(listed.code, 0, listed.stderr);
    t.is(listed.stdout, '{"number":1,"title":"Made before the version marker"}\n');
    const labels = await run("forge-label", ["list", "--json", "name"], { cwd: dir });
    t.is(labels.code, 0, labels.stderr);
    t.is(labels.stdout, '{"name":"bug"}\n');
    const made = await run("forge-issue", ["create", "-t", "written into a v1 store"], { cwd: dir });
    t.is(made.code, 0, made.stderr);
    t.is((await run("forge-issue", ["list", "--json", "number"], { cwd: dir })).stdout, '{"number":2}\n{"number":1}\n');
    t.false(existsSync(join(dir, ".forge", "version")), "reading or writing does not migrate");

    const dry = await run("forge", ["migrate"], { cwd: dir });
    t.is(dry.code, 0, dry.stderr);
    t.is(
      dry.stdout,
      "would add *.lock releases/activations/ *.stale: .forge/.gitignore\n" +
        "would write the one-hop note (1 → 2): .forge/merges/migrations/v1-to-v2.md\n" +
        "would write 2 (was 1): .forge/version\n"
    );
    t.is(readFileSync(join(dir, ".forge", ".gitignore"), "utf8"), before, "a dry run changes nothing");
    t.false(existsSync(join(dir, ".forge", "merges")), "a dry run writes no note");

    // Interrupted after its first write: the rerun plans only what is left.
    writeFileSync(join(dir, ".forge", ".gitignore"), before + "*.lock\nreleases/activations/\n*.stale\n");
    const rest = await run("forge", ["migrate"], { cwd: dir });
    t.is(
      rest.stdout,
      "would write the one-hop note (1 → 2): .forge/merges/migrations/v1-to-v2.md\n" +
        "would write 2 (was 1): .forge/version\n"
    );
    const done = await run("forge", ["migrate", "--apply"], { cwd: dir, env: { FORGE_AUTHOR: "migrator" } });
    t.is(done.code, 0, done.stderr);
    t.is(
      done.stdout,
      "write the one-hop note (1 → 2): .forge/merges/migrations/v1-to-v2.md\nwrite 2 (was 1): .forge/version\n"
    );
    t.is(readFileSync(join(dir, ".forge", "version"), "utf8"), "2\n");
    const note = readFileSync(join(dir, ".forge", "merges", "migrations", "v1-to-v2.md"), "utf8");
    t.regex(
      note,
      new RegExp(
        '^---\\nfrom: 1\\nto: 2\\nchanges:\\n {2}- "write 2 \\(was 1\\): \\.forge/version"\\nauthor: migrator\\n' +
          'createdAt: "\\d{4}-[^"]+Z"\\n---\\nforge migrate converted this store from version 1 to version 2, one hop'
      )
    );

    const list = await run("forge-issue", ["view", "1", "--json", "title,labels,comments"], { cwd: dir });
    t.is(list.code, 0, list.stderr);
    const v = jsonl(list.stdout)[0] as {
      title: string;
      labels: Array<{ name: string; color: string }>;
      comments: Array<{ body: string }>;
    };
    t.is(v.title, "Made before the version marker");
    t.deepEqual(
      v.labels.map((l) => [l.name, l.color]),
      [["bug", "d73a4a"]]
    );
    t.is(v.comments[0]!.body, "Still readable after the migration.");
    t.is((await run("forge", ["fsck"], { cwd: dir })).code, 0, "the note is no stray file for fsck");
    const again = await run("forge", ["migrate", "--apply"], { cwd: dir });
    t.is(again.stdout, "");
    t.regex(again.stderr, /version 2 already; nothing to do/);
    t.is(readFileSync(join(dir, ".forge", "merges", "migrations", "v1-to-v2.md"), "utf8"), note, "written once");
  }
);

test("forge fsck on a valid store of version N−1 reports nothing; a newer one is named", async (t) => {
  const dir = v1Store();
  const r = await run("forge", ["fsck"], { cwd: dir });
  t.deepEqual([r.code, r.stdout, r.stderr], [0, "", ""]);
  const j = await run("forge", ["fsck", "--json"], { cwd: dir });
  t.deepEqual([j.code, j.stdout], [0, ""]);
  t.false(existsSync(join(dir, ".forge", "version")), "fsck does not migrate");
  writeFileSync(join(dir, ".forge", "version"), "3\n");
  const n = await run("forge", ["fsck"], { cwd: dir });
  t.is(n.code, 1);
  t.regex(n.stdout, /^\.forge\/version: store version 3, /);
});

test("forge init on a store without a marker migrates it as forge migrate does: same lines, note", async (t) => {
  const dir = v1Store();
  const r = await run("forge", ["init"], { cwd: dir, env: { FORGE_AUTHOR: "initer" } });
  t.is(r.code, 0, r.stderr);
  t.is(
    r.stdout,
    "add *.lock releases/activations/ *.stale: .forge/.gitignore\n" +
      "write the one-hop note (1 → 2): .forge/merges/migrations/v1-to-v2.md\nwrite 2 (was 1): .forge/version\n" +
      `Reinitialized existing forge store in ${join(dir, ".forge")}/\n`
  );
  t.is(readFileSync(join(dir, ".forge", "version"), "utf8"), "2\n");
  t.regex(
    readFileSync(join(dir, ".forge", "merges", "migrations", "v1-to-v2.md"), "utf8"),
    /^---\nfrom: 1\nto: 2\nchanges:\n[^]*author: initer\n/
  );
  // Again (a marker now): no migration, no line.
  const again = await run("forge", ["init"], { cwd: dir });
  t.is(again.stdout, `Reinitialized existing forge store in ${join(dir, ".forge")}/\n`);
  t.is((await run("forge", ["fsck"], { cwd: dir })).code, 0);
});

test("forge migrate --apply on the fixture makes all three changes in one run", async (t) => {
  const dir = v1Store();
  const r = await run("forge", ["migrate", "--apply"], { cwd: dir });
  t.is(
    r.stdout,
    "add *.lock releases/activations/ *.stale: .forge/.gitignore\n" +
      "write the one-hop note (1 → 2): .forge/merges/migrations/v1-to-v2.md\nwrite 2 (was 1): .forge/version\n"
  );
  t.regex(
    readFileSync(join(dir, ".forge", "merges", "migrations", "v1-to-v2.md"), "utf8"),
    new RegExp(
      'changes:\\n {2}- "add \\*\\.lock releases/activations/ \\*\\.stale: \\.forge/\\.gitignore"\\n' +
        ' {2}- "write 2 \\(was 1\\): \\.forge/version"\\n'
    )
  );
  t.true(
    readFileSync(join(dir, ".forge", ".gitignore"), "utf8").endsWith("*.tmp\n*.lock\nreleases/activations/\n*.stale\n")
  );
  t.is((await run("forge-issue", ["list", "--json", "number"], { cwd: dir })).stdout, '{"number":1}\n');
});

test("a newer store is refused by every command and by forge migrate", async (t) => {
  const dir = scratch(tempRepo("forge-v3-"));
  writeFileSync(join(dir, ".forge", "version"), "3\n");
  const r = await run("forge-issue", ["list"], { cwd: dir });
  t.is(r.code, 1);
  t.is(r.stderr, "forge-issue list: this store is version 3, newer than this forge reads (2): upgrade forge\n");
  const m = await run("forge", ["migrate", "--apply"], { cwd: dir });
  t.is(m.code, 1);
  t.regex(m.stderr, /newer than this forge reads/);
  t.is(readFileSync(join(dir, ".forge", "version"), "utf8"), "3\n");
});

test("forge init writes the version marker", (t) => {
  const dir = scratch(tempRepo("forge-init-v-"));
  t.is(readFileSync(join(dir, ".forge", "version"), "utf8"), "2\n");
});
