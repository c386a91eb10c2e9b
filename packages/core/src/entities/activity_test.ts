import test from "ava";
import { join } from "node:path";
import { ACTIVITY_RECORDS, activityDirs } from "./activity.js";

test("activityDirs() names each record folder of a live entity, and of an archived one its live folders too", (t) => {
  const store = "/tmp/x y/.forge";
  const id = "0b8c2a8e-6f43-4b8a-9a55-3a4f0f7b2d11";
  for (const plural of ["issues", "prs"]) {
    const subs = ACTIVITY_RECORDS[plural]!;
    t.true(subs.length > 0);
    const file = plural === "issues" ? "issue.md" : "pr.md";
    t.deepEqual(
      activityDirs(join(store, plural, id, file), false),
      subs.map((s) => join(store, plural, id, s))
    );
    t.deepEqual(activityDirs(join(store, "archive", plural, id, file), true), [
      ...subs.map((s) => join(store, "archive", plural, id, s)),
      ...subs.map((s) => join(store, plural, id, s)),
    ]);
  }
  t.deepEqual(activityDirs(join(store, "releases", "v1", "release.md"), false), []);
});
