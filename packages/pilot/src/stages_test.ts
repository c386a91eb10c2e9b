import test from "ava";
import type { LoopConfig } from "./flags.js";
import { recover } from "./recover.js";
import { exportAct } from "./stages.js";
import type { Tools } from "./tools.js";

/** Tools whose forge-ci lists `runs` and whose forge-export imports every line it is sent (its ids in `exported`). */
function fakeTools(runs: Array<Record<string, string>>, exported: string[][]): Tools {
  const listed = runs.map((r) => JSON.stringify(r) + "\n").join("");
  const run = (name: string, args: readonly string[], input = "") => {
    if (name === "forge-export") {
      const ids = input
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => String((JSON.parse(l) as { id: string }).id));
      exported.push(ids);
      return Promise.resolve({ code: 0, stdout: ids.map(() => '{"status":"imported"}\n').join(""), stderr: "" });
    }
    const inProgress = name === "forge-ci" && args.includes("--status");
    return Promise.resolve({ code: 0, stdout: name === "forge-ci" && !inProgress ? listed : "", stderr: "" });
  };
  const lines = async (name: string, args: readonly string[]) =>
    (await run(name, args)).stdout
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as unknown);
  return { run, lines } as unknown as Tools;
}

test("a pilot run sends each completed CI run once: an act skips those its pick-up sent the same second", async (t) => {
  const at = "2026-01-02T03:04:05Z";
  const before = [
    { id: "r1", createdAt: at, status: "completed" },
    { id: "r2", createdAt: at, status: "in_progress" },
  ];
  const exported: string[][] = [];
  const sent = new Set<string>();
  const picked = await recover(fakeTools(before, exported), "default", null, sent);
  t.deepEqual(exported, [["r1", "r2"]]);
  t.is(picked.exports, 2);
  // The act started in the same second: r1 is in its window by the clock, but was sent; r2 has completed since.
  const after = [{ id: "r3", createdAt: at, status: "completed" }, { ...before[1]!, status: "completed" }, before[0]!];
  const c = { scope: "default" } as LoopConfig;
  const ex = await exportAct(fakeTools(after, exported), c, null, Date.parse(at) + 400, null, sent);
  t.deepEqual(exported[1], ["r3", "r2"]);
  t.is(ex.exports, 2);
  // Nothing is sent twice in the run.
  t.is((await exportAct(fakeTools(after, exported), c, null, Date.parse(at) + 900, null, sent)).exports, 0);
  t.is(exported.length, 2);
});
