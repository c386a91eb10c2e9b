import test from "ava";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const MOD = fileURLToPath(new URL("./young_cap.js", import.meta.url));

/**
 * A fresh node that keeps 300,000 small objects alive (as a listing does), capped first or not: the semi-space
 * before and after.
 */
function grow(cap: boolean): [number, number] {
  const src =
    `const m = await import(${JSON.stringify(MOD)});` +
    `const before = m.youngCapacity();` +
    (cap ? "m.capYoungGeneration();" : "") +
    `const keep = []; for (let i = 0; i < 300000; i++) keep.push({ id: "x" + i, n: i });` +
    `console.log(JSON.stringify([before, m.youngCapacity(), keep.length]));`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", src], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  const [before, after] = JSON.parse(r.stdout) as number[];
  return [before!, after!];
}

test("capYoungGeneration() holds the young generation about where it is; without it, survivors grow it", (t) => {
  const [b0, a0] = grow(false);
  t.true(a0 > b0, `uncapped: ${b0} → ${a0}`);
  const [b1, a1] = grow(true);
  // V8 may still take one step (1 → 2 MiB) that was under way; never the doublings up to 16.
  t.true(a1 <= 2 * b1 && a1 < a0, `capped: ${b1} → ${a1} (uncapped: ${a0})`);
});
