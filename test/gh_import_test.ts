/**
 * `forge import gh`: gh's JSON (a hand-made `gh issue list --json <every
 * field>` and `gh pr list --json …`) and GitHub's REST payloads recorded in
 * `@octokit/fixtures` come in without losing a field forge models; `forge-issue
 * list --json` gives gh's values back; a second import changes 0 files;
 * conflicts are kept; truncation is told; hostile input writes nothing.
 */
import test, { type ExecutionContext } from "ava";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { assertOneLineError, snapshot } from "./lib/hostile.js";
import { jsonl, ROOT, run, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

const GH = join(ROOT, "test", "fixtures", "gh");
const FIELDS = "number,title,state,stateReason,labels,author,createdAt,comments";

type Rec = Record<string, unknown>;

async function forge(
  cwd: string,
  args: string[],
  input?: string
): Promise<{ code: number | null; out: string; err: string }> {
  const r = await run("forge", args, { cwd, input });
  return { code: r.code, out: r.stdout, err: r.stderr };
}

async function issues(cwd: string, fields = FIELDS): Promise<Rec[]> {
  const r = await run("forge-issue", ["list", "--state", "all", "-L", "1000", "--json", fields], { cwd });
  if (r.code !== 0) throw new Error(r.stderr);
  return jsonl(r.stdout);
}

/** A new store to import into (removed when this file's tests are done). */
const ghRepo = (): string => scratch(tempRepo("forge-ghimport-"));

/** `forge import gh --json <files>` in `repo`, which must succeed: its lines and its stderr. */
async function imported(t: ExecutionContext, repo: string, files: string[]): Promise<{ lines: Rec[]; err: string }> {
  const r = await forge(repo, ["import", "gh", "--json", ...files]);
  t.is(r.code, 0, r.err);
  return { lines: jsonl(r.out), err: r.err };
}

/** `rows` as gh would print them, written to `<name>` in `repo`: the file's path. */
function ghFile(repo: string, name: string, rows: unknown): string {
  const f = join(repo, name);
  writeFileSync(f, JSON.stringify(rows));
  return f;
}

/** The values gh gave, in forge's comparison: comments by author, body and time. */
function ghView(i: Rec): Rec {
  return {
    number: i.number,
    title: i.title,
    state: i.state,
    stateReason: i.stateReason ?? "",
    labels: ((i.labels as Rec[]) ?? []).map((l) => l.name),
    author: ((i.author as Rec | null)?.login as string | undefined) ?? "ghost",
    createdAt: i.createdAt,
    comments: ((i.comments as Rec[] | undefined) ?? []).map((c) => [(c.author as Rec).login, c.body, c.createdAt]),
  };
}

test("gh issue list --json <every field>: forge-issue list --json gives gh's values back", async (t) => {
  const repo = ghRepo();
  await imported(t, repo, [join(GH, "issue_list.json")]);
  const want = (JSON.parse(readFileSync(join(GH, "issue_list.json"), "utf8")) as Rec[]).map(ghView);
  const got = (await issues(repo)).map(ghView);
  t.deepEqual(got, want);
  // The other fields forge models come back too.
  const more = await issues(repo, "number,body,assignees,milestone,closedAt,updatedAt,isPinned,closed");
  const src = JSON.parse(readFileSync(join(GH, "issue_list.json"), "utf8")) as Rec[];
  for (const s of src) {
    const g = more.find((x) => x.number === s.number)!;
    t.is(g.body, (s.body as string).replace(/\n$/, ""), `#${s.number} body`);
    t.deepEqual(
      (g.assignees as Rec[]).map((a) => a.login),
      (s.assignees as Rec[]).map((a) => a.login)
    );
    t.is((g.milestone as Rec | null)?.title, (s.milestone as Rec | null)?.title, `#${s.number} milestone`);
    t.is((g.milestone as Rec | null)?.dueOn, (s.milestone as Rec | null)?.dueOn);
    t.is(g.closedAt, s.closedAt, `#${s.number} closedAt`);
    t.is(g.updatedAt, s.updatedAt, `#${s.number} updatedAt`);
    t.is(g.isPinned, s.isPinned);
    t.is(g.closed, s.closed);
  }
  const labels = await run("forge-label", ["list", "--json", "name,color,description"], { cwd: repo });
  t.deepEqual(
    jsonl(labels.stdout).find((l) => l.name === "bug"),
    { color: "d73a4a", description: "Something isn't working", name: "bug" }
  );
});

test("a store without labels.md: the repository's own definitions replace GitHub's stand-in defaults", async (t) => {
  const repo = tempRepo("forge-ghimport-");
  const src = JSON.parse(readFileSync(join(GH, "issue_list.json"), "utf8")) as Rec[];
  const one = { ...src[0]!, labels: [{ id: "LA_1", name: "Bug", color: "ee0701", description: "Broken" }] };
  const file = join(repo, "one.json");
  writeFileSync(file, JSON.stringify([one]));
  const r = await forge(repo, ["import", "gh", "--json", file]);
  t.is(r.code, 0, r.err);
  t.deepEqual(
    jsonl(r.out).filter((l) => l.kind === "label"),
    [{ kind: "label", url: "Bug", result: "added" }]
  );
  const labels = jsonl((await run("forge-label", ["list", "--json", "name,color", "-L", "100"], { cwd: repo })).stdout);
  // In the default's place, once; the other defaults stay (a new repository has them).
  t.deepEqual(labels.slice(0, 2), [
    { name: "Bug", color: "ee0701" },
    { name: "documentation", color: "0075ca" },
  ]);
  t.is(labels.length, 9);
  // Once labels.md exists, a differing definition is a conflict, kept as it is here.
  one.labels = [{ id: "LA_1", name: "bug", color: "000000", description: "Broken" }];
  writeFileSync(file, JSON.stringify([one]));
  const again = await forge(repo, ["import", "gh", "--json", file]);
  t.is(again.code, 1);
  t.regex(again.err, /conflict: label bug: color differ/);
});

test("a second import of the same file (and a newer one) adds only what is new", async (t) => {
  const repo = ghRepo();
  const file = join(GH, "issue_list.json");
  t.is((await forge(repo, ["import", "gh", file, join(GH, "pr_list.json")])).code, 0);
  const before = snapshot(repo);
  const again = await forge(repo, ["import", "gh", "--json", file, join(GH, "pr_list.json")]);
  t.is(again.code, 0, again.err);
  t.deepEqual(snapshot(repo), before, "0 files changed");
  t.true(jsonl(again.out).every((l) => l.result === "unchanged"));
  // A newer list: issue 5 has a fourth comment, and there is an issue 6.
  const src = JSON.parse(readFileSync(file, "utf8")) as Rec[];
  const five = src.find((i) => i.number === 5)!;
  (five.comments as Rec[]).push({
    id: "IC_new",
    author: { login: "erin" },
    body: "Also on 1.3.",
    createdAt: "2024-03-10T08:00:00Z",
    url: "https://github.com/acme/rocket/issues/5#issuecomment-9999",
  });
  five.updatedAt = "2024-03-10T08:00:00Z";
  src.unshift({
    ...src[src.length - 1]!,
    number: 8,
    title: "New one",
    url: "https://github.com/acme/rocket/issues/8",
    createdAt: "2024-03-11T00:00:00Z",
    updatedAt: "2024-03-11T00:00:00Z",
  });
  const newer = ghFile(repo, "newer.json", src);
  const added = (await imported(t, repo, [newer])).lines.filter((l) => l.result === "added");
  t.deepEqual(
    added.map((l) => [l.kind, l.url]),
    [
      ["comment", "https://github.com/acme/rocket/issues/5#issuecomment-9999"],
      ["issue", "https://github.com/acme/rocket/issues/8"],
    ]
  );
  const after = await issues(repo);
  t.is((after.find((i) => i.title === "Crash when the config file is empty")!.comments as Rec[]).length, 4);
  const third = snapshot(repo);
  t.is((await forge(repo, ["import", "gh", newer])).code, 0);
  t.deepEqual(snapshot(repo), third, "the newer file again: 0 files changed");
});

test("a later import adds new reviews and comments to PRs already here, once", async (t) => {
  const repo = ghRepo();
  const full = JSON.parse(readFileSync(join(GH, "pr_list.json"), "utf8")) as Rec[];
  // The first file: PR 7 without its review and comment yet.
  const early = full.map((p) => (p.number === 7 ? { ...p, reviews: [], comments: [] } : p));
  const first = ghFile(repo, "early.json", early);
  await imported(t, repo, [first]);
  const view = async (): Promise<Rec> =>
    JSON.parse((await run("forge-pr", ["view", "2", "--json", "title,reviews,comments"], { cwd: repo })).stdout) as Rec;
  const v0 = await view();
  t.is(v0.title, "Fix the empty-config crash");
  t.deepEqual([(v0.reviews as Rec[]).length, (v0.comments as Rec[]).length], [0, 0]);
  // The newer file: the review and the comment, and a second review by a hand-made entry without an address.
  const seven = full.find((p) => p.number === 7)!;
  (seven.reviews as Rec[]).push({
    author: { login: "dave" },
    state: "COMMENTED",
    body: "One nit.",
    submittedAt: "2024-03-04T18:00:00Z",
  });
  const newer = ghFile(repo, "newer.json", full);
  const { lines } = await imported(t, repo, [newer]);
  t.deepEqual(
    lines.filter((l) => l.result === "added").map((l) => l.kind),
    ["comment", "review", "review"]
  );
  t.true(lines.filter((l) => l.kind === "pr").every((l) => l.result === "unchanged"));
  const v1 = await view();
  t.deepEqual(
    (v1.reviews as Rec[]).map((x) => [(x.author as Rec).login, x.state, x.body]),
    [
      ["alice", "APPROVED", ((full[0]!.reviews as Rec[])[0] as Rec).body],
      ["dave", "COMMENTED", "One nit."],
    ]
  );
  t.is((v1.comments as Rec[]).length, 1);
  // Again, and the newer file with the older one: nothing doubled, 0 files changed.
  const before = snapshot(repo);
  for (const files of [[newer], [first, newer]]) {
    const again = await forge(repo, ["import", "gh", "--json", ...files]);
    t.is(again.code, 0, again.err);
    t.true(
      jsonl(again.out).every((l) => l.result === "unchanged"),
      files.join(" ")
    );
    t.deepEqual(snapshot(repo), before, `${files.join(" ")}: 0 files changed`);
  }
});

test("a conflict is reported and kept, never overwritten", async (t) => {
  const repo = ghRepo();
  const file = join(GH, "issue_list.json");
  t.is((await forge(repo, ["import", "gh", file])).code, 0);
  t.is((await run("forge-issue", ["edit", "1", "--title", "Local title"], { cwd: repo })).code, 0);
  const before = snapshot(repo);
  const r = await forge(repo, ["import", "gh", "--json", file]);
  t.is(r.code, 1);
  t.regex(r.err, /conflict: issue https:\/\/github.com\/acme\/rocket\/issues\/1: title differ/);
  t.deepEqual(snapshot(repo), before);
});

test("gh pr list --json: merged and closed records with their metadata, no patch (said)", async (t) => {
  const repo = ghRepo();
  t.regex((await imported(t, repo, [join(GH, "pr_list.json")])).err, /without a patch/);
  const prs = jsonl(
    (
      await run(
        "forge-pr",
        [
          "list",
          "--state",
          "all",
          "--json",
          "number,title,state,baseRefName,headRefName,isDraft,mergedAt,author,labels",
        ],
        { cwd: repo }
      )
    ).stdout
  );
  t.deepEqual(
    prs.map((p) => [p.title, p.state, p.baseRefName, p.headRefName, p.mergedAt, (p.author as Rec).login]),
    [
      ["Fix the empty-config crash", "MERGED", "main", "fix-empty-config", "2024-03-05T09:00:00Z", "bob"],
      ["WIP: TOML arrays", "CLOSED", "main", "toml-arrays", null, "carol"],
    ]
  );
  const view = await run("forge-pr", ["view", "2", "--json", "reviews,comments"], { cwd: repo });
  const v = JSON.parse(view.stdout) as Rec;
  t.is(((v.reviews as Rec[])[0]!.author as Rec).login, "alice");
  t.is((v.comments as Rec[]).length, 1);
});

test("gh's 100-item cap is detected and reported", async (t) => {
  const repo = ghRepo();
  const src = JSON.parse(readFileSync(join(GH, "issue_list.json"), "utf8")) as Rec[];
  const one = { ...src[src.length - 1]! };
  one.comments = Array.from({ length: 100 }, (_, i) => ({
    author: { login: "bot" },
    body: `ping ${i}`,
    createdAt: `2024-03-01T12:${String(Math.floor(i / 60)).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z`,
    url: `https://github.com/acme/rocket/issues/1#issuecomment-${i}`,
  }));
  const { err } = await imported(t, repo, [ghFile(repo, "capped.json", [one])]);
  t.regex(err, /issue #1: 100 comments: gh's lists stop at 100/);
});

const HOSTILE: Array<[string, string, string]> = [
  ["not JSON", "{", "not JSON"],
  ["deep nesting", "[".repeat(100) + "]".repeat(100), "nested deeper than 32"],
  [
    "a title of two lines",
    JSON.stringify([
      {
        number: 1,
        title: "a\nb",
        url: "https://github.com/a/b/issues/1",
        state: "OPEN",
        createdAt: "2024-01-01T00:00:00Z",
      },
    ]),
    "[0].title",
  ],
  [
    "a bad time",
    JSON.stringify([
      { number: 1, title: "a", url: "https://github.com/a/b/issues/1", state: "OPEN", createdAt: "yesterday" },
    ]),
    "[0].createdAt",
  ],
  ["no url", JSON.stringify([{ number: 1, title: "a", state: "OPEN", createdAt: "2024-01-01T00:00:00Z" }]), "[0].url"],
  [
    "a bad state",
    JSON.stringify([
      {
        number: 1,
        title: "a",
        url: "https://github.com/a/b/issues/1",
        state: "GONE",
        createdAt: "2024-01-01T00:00:00Z",
      },
    ]),
    "[0].state",
  ],
  [
    "a huge body",
    JSON.stringify([
      {
        number: 1,
        title: "a",
        url: "https://github.com/a/b/issues/1",
        state: "OPEN",
        createdAt: "2024-01-01T00:00:00Z",
        body: "x".repeat(300 * 1024),
      },
    ]),
    "larger than 256 KiB",
  ],
];

for (const [what, text, needle] of HOSTILE)
  test(`hostile input (${what}): one line, exit 1, nothing written`, async (t) => {
    const repo = ghRepo();
    // A good file first on the command line: nothing of it may be written either.
    const good = join(GH, "issue_list.json");
    const f = join(repo, "bad.json");
    writeFileSync(f, text);
    const before = snapshot(repo);
    const r = await run("forge", ["import", "gh", good, f], { cwd: repo });
    assertOneLineError(t, r, "forge", [needle]);
    t.deepEqual(snapshot(repo), before);
  });

/** The recorded REST responses of a scenario of @octokit/fixtures (2xx, JSON), one file each. */
function octokitScenario(name: string, dir: string): string[] {
  const req = createRequire(join(ROOT, "package.json"));
  const base = dirname(req.resolve("@octokit/fixtures/package.json"));
  const recs = JSON.parse(
    readFileSync(join(base, "scenarios", "api.github.com", name, "normalized-fixture.json"), "utf8")
  ) as Rec[];
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  recs.forEach((r, i) => {
    if ((r.status as number) >= 300 || typeof r.response !== "object" || r.method === "delete") return;
    const p = join(dir, `${name}-${i}.json`);
    writeFileSync(p, JSON.stringify(r.response));
    files.push(p);
  });
  return files;
}

for (const scenario of ["paginate-issues", "add-labels-to-issue", "search-issues"])
  test(`@octokit/fixtures ${scenario}: REST issues come in with every field forge models`, async (t) => {
    const repo = ghRepo();
    const files = octokitScenario(scenario, join(repo, "in"));
    t.true(files.length > 0);
    await imported(t, repo, files);
    // Every REST issue, as its last response gave it.
    const rest = new Map<string, Rec>();
    for (const f of files) {
      const v = JSON.parse(readFileSync(f, "utf8")) as Rec | Rec[];
      const xs = Array.isArray(v) ? v : Array.isArray(v.items) ? (v.items as Rec[]) : [v];
      for (const x of xs) if (typeof x.number === "number") rest.set(x.html_url as string, x);
    }
    t.true(rest.size > 0);
    const got = await issues(
      repo,
      "number,title,state,stateReason,labels,author,createdAt,updatedAt,body,assignees,closedAt,milestone,url"
    );
    t.is(got.length, rest.size);
    const sorted = [...rest.values()].sort((a, b) => (a.number as number) - (b.number as number));
    sorted.forEach((x, k) => {
      const g = got.find((i) => i.title === x.title && i.createdAt === x.created_at)!;
      t.truthy(g, `${x.html_url as string}`);
      t.is(g.state, (x.state as string).toUpperCase());
      t.deepEqual(
        (g.labels as Rec[]).map((l) => l.name),
        (x.labels as Rec[]).map((l) => l.name)
      );
      t.is((g.author as Rec).login, (x.user as Rec).login);
      t.is(g.body, ((x.body as string | null) ?? "").replace(/\n$/, ""));
      t.is(g.updatedAt, x.updated_at);
      t.is(g.closedAt, x.closed_at);
      t.deepEqual(
        (g.assignees as Rec[]).map((a) => a.login),
        (x.assignees as Rec[]).map((a) => a.login)
      );
      t.is((g.milestone as Rec | null)?.title, (x.milestone as Rec | null)?.title);
      // GitHub's numbers are contiguous in each scenario's repository: forge's are the same.
      if (rest.size === (sorted[sorted.length - 1]!.number as number)) t.is(g.number, x.number);
      void k;
    });
    const before = snapshot(repo);
    t.is((await forge(repo, ["import", "gh", ...files])).code, 0);
    t.deepEqual(snapshot(repo), before, "a second import changes 0 files");
  });

test("forge import gh: usage errors exit 2", async (t) => {
  const repo = ghRepo();
  const before = snapshot(repo);
  assertOneLineError(
    t,
    await run("forge", ["import", "gitlab", "x"], { cwd: repo }),
    "forge",
    ["unknown import source"],
    2
  );
  assertOneLineError(t, await run("forge", ["import", "gh"], { cwd: repo }), "forge", ["no file"], 2);
  assertOneLineError(
    t,
    await run("forge", ["import", "gh", "--jsn", "x"], { cwd: repo }),
    "forge",
    ["unknown flag"],
    2
  );
  t.deepEqual(snapshot(repo), before);
});
