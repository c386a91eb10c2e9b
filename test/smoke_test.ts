import test from "ava";
import { jsonl, run, tempRepo } from "./lib/run.js";

test("forge-issue create then list --json shows the issue with gh's shape", async (t) => {
  const cwd = tempRepo();
  const c = await run("forge-issue", ["create", "-t", "Hello", "-l", "bug"], { cwd });
  t.is(c.code, 0, c.stderr);
  const l = await run("forge-issue", ["list", "--json", "number,state,title,labels"], { cwd });
  t.is(l.code, 0);
  t.deepEqual(jsonl(l.stdout), [
    {
      labels: [{ color: "d73a4a", description: "Something isn't working", name: "bug" }],
      number: 1,
      state: "OPEN",
      title: "Hello",
    },
  ]);
});
