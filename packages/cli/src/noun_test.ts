import test from "ava";
import { createIssue, formatTimestamp, ISSUE, ISSUES, updateIssue, type LoadedEntity } from "@forge/core";
import { changeStateEach, NounStore, passesFilters, writeEach } from "./noun.js";
import { removeTemps, tempCtx } from "./test_io.js";

test.after.always(removeTemps);

test("passesFilters() checks labels (all), assignee, author and milestone", (t) => {
  const d = { labels: ["bug", "ui"], assignees: ["bob"], author: "alice", milestone: "v1" };
  t.true(passesFilters(d, { labels: ["bug"], assignee: "bob", author: "alice", milestone: "v1" }));
  t.false(passesFilters(d, { labels: ["bug", "x"] }));
  t.false(passesFilters(d, { labels: [], assignee: "carol" }));
  t.false(passesFilters(d, { labels: [], author: "bob" }));
  t.false(passesFilters(d, { labels: [], milestone: "v2" }));
});

test("passesFilters() ignores case, as gh's label, login and milestone filters do", (t) => {
  const d = { labels: ["Bug", "\u212a"], assignees: ["Bob"], author: "alice", milestone: "V1" };
  t.true(passesFilters(d, { labels: ["bug", "K"], assignee: "BOB", author: "Alice", milestone: "v1" }));
  t.false(passesFilters(d, { labels: ["bugs"] }));
  t.false(passesFilters({ ...d, milestone: 1 }, { labels: [], milestone: "1" }));
});

test(
  "NounStore resolves refs by number; writeEach and " + "changeStateEach confirm on stderr and skip what is already so",
  async (t) => {
    const ctx = tempCtx();
    const nouns = new NounStore(ctx.io, ISSUES, ISSUE, "issue");
    createIssue(nouns.store, {
      title: "One",
      body: "",
      author: "a",
      labels: [],
      assignees: [],
      now: formatTimestamp(),
    });
    const { entity, number } = await nouns.resolve("1");
    t.is(number, 1);
    t.is(entity.data.title, "One");
    const json = async (e: LoadedEntity, n: number) => ({
      number: n,
      title: e.data.title as string,
      state: e.data.state as string,
    });
    const batch = { failed: 0 };
    const edited = [];
    for await (const r of writeEach(ctx, nouns, "1", batch, "Edited", json)) edited.push(r);
    t.deepEqual(edited, [{ number: 1, title: "One", state: "open" }]);
    const change = {
      to: "closed",
      verb: "Closed",
      apply: (e: LoadedEntity) => updateIssue(e, (d) => void (d.state = "closed")),
      json,
    };
    const closed = [];
    for await (const r of changeStateEach(ctx, new NounStore(ctx.io, ISSUES, ISSUE, "issue"), "1", batch, change))
      closed.push(r.state);
    for await (const r of changeStateEach(ctx, new NounStore(ctx.io, ISSUES, ISSUE, "issue"), "1", batch, change))
      closed.push(r.state);
    t.deepEqual(closed, ["closed", "closed"]);
    t.is(ctx.err(), "Edited issue #1 (One)\nClosed issue #1 (One)\n! Issue #1 (One) is already closed\n");
  }
);
