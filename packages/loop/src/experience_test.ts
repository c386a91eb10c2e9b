import test from "ava";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storeAt } from "@forge/core";
import { learn, recallExperience, readExperience, retract, supersede } from "./experience.js";

function store() {
  const dir = join(mkdtempSync(join(tmpdir(), "loop-exp-")), ".forge");
  mkdirSync(dir);
  return storeAt(dir);
}
const T0 = new Date("2026-01-01T00:00:00Z");
const at = (days: number) => new Date(T0.getTime() + days * 86_400_000);
const base = { scope: "repo", rationale: null, observedAt: null, expiresAt: null };

test("learn() gives an observation 30 days and a hypothesis 90 days, by explicit timestamps", (t) => {
  const s = store();
  const o = learn(s, { ...base, kind: "observation", text: "the parser test is slow" }, T0);
  const h = learn(s, { ...base, kind: "hypothesis", text: "the cache causes the flake" }, T0);
  t.is(o.expiresAt, "2026-01-31T00:00:00Z");
  t.is(h.expiresAt, "2026-04-01T00:00:00Z");
  const ids = (d: number) =>
    recallExperience(s, { scope: "repo", limit: 10, maxBytes: 10_000, now: at(d) })
      .map((r) => r.id)
      .sort();
  t.deepEqual(ids(29), [o.id, h.id].sort());
  t.deepEqual(ids(30), [h.id], "an observation is not recalled at its expiry");
  t.deepEqual(ids(90), []);
});

test("learn() refuses a lesson without an expiry or a rationale, a future observation and an expiry before it", (t) => {
  const s = store();
  t.throws(() => learn(s, { ...base, kind: "lesson", text: "x" }, T0), {
    message: /lesson needs --expires or --rationale/,
  });
  t.is(learn(s, { ...base, kind: "lesson", text: "x", rationale: "true by construction" }, T0).expiresAt, null);
  t.throws(() => learn(s, { ...base, kind: "observation", text: "x", observedAt: "2026-01-02T00:00:00Z" }, T0), {
    message: /future/,
  });
  t.throws(() => learn(s, { ...base, kind: "observation", text: "x", expiresAt: "2025-12-31T00:00:00Z" }, T0), {
    message: /after the observation/,
  });
});

test("supersede() and retract() refuse a stale revision and change nothing", (t) => {
  const s = store();
  const e = learn(s, { ...base, kind: "hypothesis", text: "a" }, T0);
  const [made, old] = supersede(s, e.id, 1, { text: "b" }, at(1));
  t.is(old.status, "superseded");
  t.is(old.revision, 2);
  t.is(made.supersedes, e.id);
  t.throws(() => retract(s, made.id, 2, "wrong", at(2)), {
    code: "E_CONFLICT",
    message: /stale revision: .* is at revision 1, not 2/,
  });
  t.throws(() => supersede(s, e.id, 1, { text: "c" }, at(2)), { code: "E_CONFLICT", message: /stale revision/ });
  t.is(readExperience(s).length, 2);
});

test("a retracted or superseded lesson is never recalled, and stays on file for audit", (t) => {
  const s = store();
  const l = learn(s, { ...base, kind: "lesson", text: "run the migration twice", rationale: "idempotent" }, T0);
  learn(s, { ...base, kind: "lesson", text: "pin every dependency", rationale: "SEC-09" }, T0);
  retract(s, l.id, 1, "it was never idempotent", at(1));
  const sup = learn(s, { ...base, kind: "hypothesis", text: "old idea" }, T0);
  supersede(s, sup.id, 1, { text: "new idea" }, at(1));
  const ids = recallExperience(s, { scope: "repo", query: "migration", limit: 10, maxBytes: 10_000, now: at(2) }).map(
    (r) => r.text
  );
  t.deepEqual(ids.sort(), ["new idea", "pin every dependency"]);
  t.is(readExperience(s).find((e) => e.id === l.id)!.status, "retracted");
});

test(
  "recallExperience() filters by scope before ranking, ranks by query words then kind, and is bounded in items " +
    "and bytes",
  (t) => {
    const s = store();
    learn(s, { ...base, scope: "other", kind: "lesson", text: "parser parser parser", rationale: "r" }, T0);
    const a = learn(s, { ...base, kind: "observation", text: "the parser is slow" }, T0);
    const b = learn(s, { ...base, kind: "lesson", text: "keep commits small", rationale: "r" }, T0);
    const c = learn(s, { ...base, kind: "hypothesis", text: "x".repeat(500) }, T0);
    const all = recallExperience(s, { scope: "repo", query: "parser", limit: 10, maxBytes: 10_000, now: at(1) });
    t.deepEqual(
      all.map((r) => r.id),
      [a.id, b.id, c.id]
    );
    t.true(all.every((r) => r.advisory === true && r.scope === "repo"));
    t.deepEqual(
      recallExperience(s, { scope: "repo", query: "parser", limit: 2, maxBytes: 10_000, now: at(1) }).map((r) => r.id),
      [a.id, b.id]
    );
    t.deepEqual(
      recallExperience(s, { scope: "repo", query: "parser", limit: 10, maxBytes: 100, now: at(1) }).map((r) => r.id),
      [a.id, b.id]
    );
    t.deepEqual(recallExperience(s, { scope: "none", limit: 10, maxBytes: 10_000, now: at(1) }), []);
  }
);
