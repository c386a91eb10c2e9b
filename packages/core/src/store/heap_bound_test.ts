import test from "ava";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const MOD = fileURLToPath(new URL("./heap_bound.js", import.meta.url));
const MIB = 1 << 20;

/**
 * A fresh node that keeps 300,000 small objects alive (as a listing does), asking for the cap every 256 when
 * `cap`: the young generation's size at the start and at the end, and what the first ask answered.
 */
function pass(cap: boolean): { start: number; end: number; first: boolean | null } {
  const src =
    `const m = await import(${JSON.stringify(MOD)});` +
    `const start = m.youngCapacity(); let first = null; let capped = false;` +
    `const keep = []; for (let i = 1; i <= 300000; i++) { keep.push({ id: "x" + i, n: i });` +
    (cap ? `if (!capped && (i & 255) === 0) { capped = m.boundHeap(${2 * MIB}); first ??= capped; }` : "") +
    `}` +
    `console.log(JSON.stringify({ start, end: m.youngCapacity(), first, n: keep.length }));`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", src], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as { start: number; end: number; first: boolean | null };
}

test("boundHeap() lets the young generation reach its size and no further; unasked, it grows on", (t) => {
  const free = pass(false);
  t.true(free.end > 4 * MIB, `unasked: ${free.start} → ${free.end}`);
  const held = pass(true);
  t.false(held.first, "not yet at 2 MiB on the first ask");
  t.true(held.end >= 2 * MIB && held.end <= 2 * 2 * MIB, `held: ${held.start} → ${held.end}`);
});
