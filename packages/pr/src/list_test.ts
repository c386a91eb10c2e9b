import test from "ava";
import { join } from "node:path";
import { parseArgv, removeTemps, tempCtx } from "@forge/cli";
import { createPr, storeAt, type LoadedEntity, type PrJson } from "@forge/core";
import { LIST_DEFAULT_FIELDS, wanted } from "./_shared.js";
import list, { listPrs, matches, parseListOptions, type ListPrOptions } from "./list.js";

test.after.always(removeTemps);

const parse = (argv: string[]) => parseListOptions(parseArgv(argv, list.args));

test("parseListOptions() defaults to open PRs, limit 30", (t) => {
  t.deepEqual(parse([]), {
    state: "open",
    labels: [],
    author: undefined,
    assignee: undefined,
    base: undefined,
    head: undefined,
    search: undefined,
    draft: undefined,
    limit: 30,
  });
});

test("parseListOptions() reads gh's flags and letters", (t) => {
  t.deepEqual(
    parse([
      "-s",
      "merged",
      "-l",
      "bug,ui",
      "-A",
      "@me",
      "-a",
      "bob",
      "-B",
      "main",
      "-H",
      "fix/x",
      "-S",
      "drain",
      "-L",
      "5",
    ]),
    {
      state: "merged",
      labels: ["bug", "ui"],
      author: "@me",
      assignee: "bob",
      base: "main",
      head: "fix/x",
      search: "drain",
      draft: undefined,
      limit: 5,
    }
  );
});

for (const bad of ["0", "-1", "x", "1.5"]) {
  test(`parseListOptions() rejects --limit ${bad}`, (t) => {
    t.throws(() => parse([`--limit=${bad}`]), { message: /invalid limit/ });
  });
}

test("parseListOptions() rejects an unknown state", (t) => {
  t.throws(() => parse(["--state", "draft"]), { message: /open\|closed\|merged\|all/ });
});

function pr(state: string, over: Record<string, unknown> = {}, archived = false): LoadedEntity {
  const data = {
    title: "Fix the drain",
    state,
    author: "bob",
    baseRefName: "main",
    headRefName: "fix/x",
    labels: ["bug"],
    assignees: ["carol"],
    ...over,
  };
  return { path: "", file: "", data, extra: {}, body: "Waits for DRAIN.\n", warnings: [], ref: { id: "x", archived } };
}
const o = (over: Partial<ListPrOptions> = {}): ListPrOptions => ({ state: "open", labels: [], limit: 30, ...over });

test("matches(): --state closed includes merged PRs (as gh), --state merged only merged ones", (t) => {
  t.deepEqual(
    ["open", "closed", "merged"].map((s) => matches(pr(s), o({ state: "closed" }))),
    [false, true, true]
  );
  t.deepEqual(
    ["open", "closed", "merged"].map((s) => matches(pr(s), o({ state: "merged" }))),
    [false, false, true]
  );
  t.deepEqual(
    ["open", "closed", "merged"].map((s) => matches(pr(s), o({ state: "all" }))),
    [true, true, true]
  );
  t.deepEqual(
    ["open", "closed", "merged"].map((s) => matches(pr(s), o())),
    [true, false, false]
  );
});

test("matches() filters by label, author, assignee, base, head and --draft, and never lists archived PRs", (t) => {
  const p = pr("open");
  t.true(matches(p, o({ labels: ["bug"], author: "bob", assignee: "carol", base: "main", head: "fix/x" })));
  t.false(matches(p, o({ labels: ["bug", "ui"] })));
  t.false(matches(p, o({ author: "carol" })));
  t.false(matches(p, o({ assignee: "bob" })));
  t.false(matches(p, o({ base: "release" })));
  t.false(matches(p, o({ head: "fix" })));
  t.false(matches(pr("open"), o({ draft: true })));
  t.true(matches(pr("open", { isDraft: true }), o({ draft: true })));
  t.false(matches(pr("open", {}, true), o({ state: "all" })));
});

test("listPrs() yields as it goes: the first line alone, then about 4 KiB; nothing once the reader left", async (t) => {
  const ctx = tempCtx();
  const s = storeAt(join(ctx.root, ".forge"));
  for (let i = 0; i < 40; i++) {
    const at = `2026-01-01T00:00:${String(i).padStart(2, "0")}Z`;
    const patch = Buffer.from(`From 0 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] p${i}\n\n---\n`);
    createPr(s, {
      ...{ title: `PR ${i}`, body: "x".repeat(200), author: "a", baseRefName: "main", headRefName: `b${i}` },
      ...{ baseSha: "0".repeat(40), headSha: "1".repeat(40), patch, isDraft: false, closes: [], labels: [] },
      ...{ assignees: [], now: at, id: `${String(i).padStart(8, "0")}-0000-4000-8000-000000000000` },
    });
  }
  const opts = parseListOptions(parseArgv(["-s", "all", "-L", "1000"], list.args));
  const fields = [...LIST_DEFAULT_FIELDS].sort();
  const want = wanted({ fields }, false);
  const all = async (lines?: readonly string[]): Promise<Array<PrJson | Buffer>> => {
    const got: Array<PrJson | Buffer> = [];
    for await (const x of listPrs(ctx, opts, want, lines, { failed: 0 }))
      got.push(Buffer.isBuffer(x) ? Buffer.from(x) : x);
    return got;
  };
  // Records one at a time, newest first; lines as bytes: the same JSON, key for key.
  const records = (await all()) as PrJson[];
  t.deepEqual(
    records.map((r) => r.number),
    Array.from({ length: 40 }, (_, k) => 40 - k)
  );
  const chunks = (await all(fields)) as Buffer[];
  const text = records.map((r) => JSON.stringify(Object.fromEntries(fields.map((f) => [f, r[f as keyof PrJson]]))));
  t.is(Buffer.concat(chunks).toString("utf8"), text.map((l) => `${l}\n`).join(""));
  t.is(chunks[0]!.toString("utf8"), `${text[0]}\n`, "the first line alone");
  t.true(chunks.length >= 3 && chunks[1]!.length >= 4096 && chunks[1]!.length < 8192, `then ${chunks[1]?.length}`);
  // A reader gone after the first line or record: nothing more is made.
  for (const lines of [fields, undefined]) {
    ctx.out.closed = false;
    const made = listPrs(ctx, opts, want, lines, { failed: 0 });
    t.false((await made.next()).done);
    ctx.out.closed = true;
    t.true((await made.next()).done, lines ? "lines" : "records");
  }
});
