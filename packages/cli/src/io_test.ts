import test from "ava";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, openSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

test("processIo(): a cache write put off runs before the process exits, though nothing flushed it", (t) => {
  const d = mkdtempSync(join(tmpdir(), "forge-io-"));
  const io = fileURLToPath(new URL("./io.js", import.meta.url));
  const core = fileURLToPath(import.meta.resolve("@forge/core"));
  const script =
    `Promise.all([import(${JSON.stringify(io)}), import(${JSON.stringify(core)})])` +
    ".then(([io, m]) => { io.processIo(); " +
    `m.writeCacheLater(() => m.writeCacheFile(${JSON.stringify(join(d, "z"))}, "ok")); })`;
  execFileSync(process.execPath, ["-e", script]);
  t.is(readFileSync(join(d, "z"), "utf8"), "ok");
});

const ioJs = fileURLToPath(new URL("./io.js", import.meta.url));
const outJs = fileURLToPath(new URL("./output.js", import.meta.url));
/** A node script that writes `n` numbered lines through processIo's stdout and `Out`, then tells on stderr. */
const writer = (n: number): string =>
  `Promise.all([import(${JSON.stringify(ioJs)}), import(${JSON.stringify(outJs)})]).then(async ([io, o]) => {` +
  "const pio = io.processIo(); const out = new o.Out(pio.stdout);" +
  `for (let i = 0; i < ${n} && !out.closed; i++) await out.write(String(i).padStart(9, "0") + "\\n");` +
  "await out.flush();" +
  "process.stderr.write(JSON.stringify({ fd1: pio.stdout instanceof io.Fd1, closed: out.closed }) + '\\n'); })";
const numbered = (n: number): string => Array.from({ length: n }, (_, i) => String(i).padStart(9, "0") + "\n").join("");

test("processIo(): stdout on a file is fd 1, written in order", (t) => {
  const d = mkdtempSync(join(tmpdir(), "forge-io-"));
  const r = spawnSync(process.execPath, ["-e", writer(20_000)], {
    stdio: ["ignore", openSync(join(d, "out"), "w"), "pipe"],
    encoding: "utf8",
  });
  t.is(r.status, 0, r.stderr);
  t.deepEqual(JSON.parse(r.stderr), { fd1: true, closed: false });
  t.is(readFileSync(join(d, "out"), "utf8"), numbered(20_000));
});

test("processIo(): stdout on a pipe whose reader has gone ends quietly (EPIPE closes the writer)", (t) => {
  const r = spawnSync("sh", ["-c", `"$0" -e "$1" | head -c 10`, process.execPath, writer(200_000)], {
    encoding: "utf8",
  });
  t.is(r.status, 0, r.stderr);
  t.is(r.stdout, "000000000\n");
  t.deepEqual(JSON.parse(r.stderr), { fd1: true, closed: true });
});

test("processIo(): a pipe left non-blocking by another writer (EAGAIN when full) loses and reorders nothing", (t) => {
  // A node beside it makes the shared pipe O_NONBLOCK while it runs (its process.stdout does; node puts the flag
  // back when it exits); the reader waits, so the pipe fills.
  const script = `"$0" -e "process.stdout.write(''); setTimeout(() => {}, 2000)" & sleep 0.2; "$0" -e "$1"; wait`;
  const r = spawnSync("sh", ["-c", `{ ${script}; } | { sleep 0.3; cat; }`, process.execPath, writer(100_000)], {
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  t.is(r.status, 0, r.stderr);
  t.is(r.stdout, numbered(100_000));
  t.deepEqual(JSON.parse(r.stderr), { fd1: true, closed: false });
});
