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

/**
 * A fresh node that bounds its heap, then starts a thread and waits for it to run, then keeps 300,000 objects,
 * asking again (`again`) or not: the young generation's size at the end.
 */
function passWithThread(again: boolean): number {
  const src =
    `const m = await import(${JSON.stringify(MOD)}); const { Worker } = await import("node:worker_threads");` +
    `const keep = []; let capped = false;` +
    `for (let i = 1; !capped; i++) { keep.push({ id: "x" + i }); if ((i & 255) === 0) capped = m.boundHeap(${MIB}); }` +
    `const sab = new SharedArrayBuffer(4); const flag = new Int32Array(sab);` +
    `new Worker("Atomics.store(new Int32Array(require('node:worker_threads').workerData), 0, 1);",` +
    ` { eval: true, workerData: sab, execArgv: [] }).unref();` +
    `while (Atomics.load(flag, 0) === 0) await new Promise((r) => setTimeout(r, 5));` +
    (again ? `m.boundHeap(${MIB}, true);` : "") +
    `for (let i = 1; i <= 300000; i++) keep.push({ id: "y" + i, n: i });` +
    `console.log(m.youngCapacity());`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", src], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return Number(r.stdout);
}

test("a thread set up after the bound undoes it; asked again once the thread runs, it holds", (t) => {
  const undone = passWithThread(false);
  t.true(undone > 4 * MIB, `bounded, then a thread: ${undone}`);
  const held = passWithThread(true);
  t.true(held <= 2 * MIB, `asked again: ${held}`);
});
