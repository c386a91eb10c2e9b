import test from "ava";
import { checkTitle, milestoneJson, parseDue, wantsCounts } from "./_shared.js";

test("parseDue() stores a date as RFC 3339 at midnight UTC, takes a full timestamp, and '' as none", (t) => {
  t.is(parseDue("2026-03-01"), "2026-03-01T00:00:00Z");
  t.is(parseDue("2024-02-29"), "2024-02-29T00:00:00Z");
  t.is(parseDue("2026-03-01T12:30:00Z"), "2026-03-01T12:30:00Z");
  t.is(parseDue(""), undefined);
});

for (const bad of [
  "2026-02-29",
  "2026-13-01",
  "2026-3-1",
  "tomorrow",
  "2026-03-01T12:30:00+01:00",
  "2026-03-01 00:00",
]) {
  test(`parseDue() refuses '${bad}'`, (t) => {
    t.throws(() => parseDue(bad), { message: /invalid due date/ });
  });
}

test("checkTitle() keeps YAML syntax and refuses what cannot be one line", (t) => {
  t.is(checkTitle("v1: the start #1"), "v1: the start #1");
  t.throws(() => checkTitle(""), { message: /empty/ });
  t.throws(() => checkTitle("a\nb"), { message: /one line/ });
  t.throws(() => checkTitle("v1 "), { message: /space/ });
});

test("milestoneJson() is GitHub's shape: number from the position, state upper case, counts only when given", (t) => {
  const m = { title: "v1", dueOn: "2026-03-01T00:00:00Z", state: "closed" };
  t.deepEqual(milestoneJson(m, 1), {
    closed: true,
    description: "",
    dueOn: "2026-03-01T00:00:00Z",
    number: 2,
    state: "CLOSED",
    title: "v1",
  });
  t.deepEqual(milestoneJson({ title: "v2" }, 0, new Map([["v2", { open: 3, closed: 1 }]])), {
    closed: false,
    closedIssues: 1,
    description: "",
    dueOn: null,
    number: 1,
    openIssues: 3,
    state: "OPEN",
    title: "v2",
  });
});

test("wantsCounts() is true for every field or when a count is asked for", (t) => {
  t.deepEqual(
    [
      null,
      { fields: null },
      { fields: ["title"] },
      { fields: ["openIssues"] },
      { fields: ["closedIssues", "title"] },
    ].map(wantsCounts),
    [false, true, false, true, true]
  );
});
