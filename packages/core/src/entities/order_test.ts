import test from "ava";
import { mkdtempSync, rmSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storeAt, ISSUES, cacheDir } from "../store/store.js";
import { mkdirSync } from "node:fs";
import { createIssue } from "./issue.js";
import { entityOrder } from "./order.js";
import { ISSUE } from "./schema.js";

function store() {
  const dir = join(mkdtempSync(join(tmpdir(), "forge-order-")), ".forge");
  mkdirSync(dir);
  return storeAt(dir);
}
const id = (n: number) => `0000000${n}-0000-4000-8000-000000000000`;
const base = { body: "", author: "a", labels: [], assignees: [] };

test(
  "entityOrder() ranks by (createdAt, id) whatever " + "the creation order, and the cache changes no answer",
  async (t) => {
    const a = store();
    const b = store();
    const specs = [
      [3, "2026-01-01T00:00:00Z"],
      [1, "2026-01-02T00:00:00Z"],
      [2, "2026-01-01T00:00:00Z"],
    ] as const;
    for (const [n, now] of specs) createIssue(a, { ...base, title: `t${n}`, now, id: id(n) });
    for (const [n, now] of [...specs].reverse()) createIssue(b, { ...base, title: `t${n}`, now, id: id(n) });
    const ra = (await entityOrder(a, ISSUES, ISSUE)).entries.map((e) => e.ref.id);
    const rb = (await entityOrder(b, ISSUES, ISSUE)).entries.map((e) => e.ref.id);
    t.deepEqual(ra, [id(2), id(3), id(1)]);
    t.deepEqual(rb, ra);
    t.true(existsSync(join(cacheDir(a), "issues.order")));
    t.is(readFileSync(join(cacheDir(a), ".gitignore"), "utf8"), "*\n");
    // A new issue after the cache was written is picked up (stale cache detected by the folder set).
    createIssue(a, { ...base, title: "t4", now: "2025-12-31T00:00:00Z", id: id(4) });
    t.deepEqual(
      (await entityOrder(a, ISSUES, ISSUE)).entries.map((e) => e.ref.id),
      [id(4), id(2), id(3), id(1)]
    );
    rmSync(cacheDir(a), { recursive: true });
    t.deepEqual(
      (await entityOrder(a, ISSUES, ISSUE)).entries.map((e) => e.ref.id),
      [id(4), id(2), id(3), id(1)]
    );
  }
);

test("entityOrder() reports an unreadable issue and ranks the rest", async (t) => {
  const s = store();
  createIssue(s, { ...base, title: "ok", now: "2026-01-01T00:00:00Z", id: id(1) });
  mkdirSync(join(s.dir, "issues", id(2)));
  const o = await entityOrder(s, ISSUES, ISSUE);
  t.deepEqual(
    o.entries.map((e) => e.ref.id),
    [id(1)]
  );
  t.is(o.errors.length, 1);
  t.regex(o.errors[0]!.error.message, /issue\.md: no such file/);
});

test(
  "entityOrder() still ranks an issue whose only fault " + "is another field, so later numbers do not shift",
  async (t) => {
    const s = store();
    createIssue(s, { ...base, title: "first", now: "2026-01-01T00:00:00Z", id: id(1) });
    createIssue(s, { ...base, title: "second", now: "2026-01-02T00:00:00Z", id: id(2) });
    const f = join(s.dir, "issues", id(1), "issue.md");
    writeFileSync(f, readFileSync(f, "utf8").replace("title: first\n", ""));
    rmSync(cacheDir(s), { recursive: true, force: true });
    const o = await entityOrder(s, ISSUES, ISSUE);
    t.deepEqual(
      o.entries.map((e) => e.ref.id),
      [id(1), id(2)]
    );
    t.deepEqual(o.errors, []);
  }
);
