import test from "ava";
import * as fs from "node:fs";
import { mkdtempSync, mkdirSync, openSync, closeSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isFileMode, raw, rawStat, rawStats, type RawStat } from "./raw_stat.js";

const blank = rawStat;
const fields = (s: fs.Stats): RawStat => ({
  ino: s.ino,
  size: s.size,
  mtimeMs: s.mtimeMs,
  ctimeMs: s.ctimeMs,
  mode: s.mode,
  nlink: s.nlink,
});
const codeOf = (f: () => unknown): string => {
  try {
    f();
    return "none";
  } catch (err) {
    return String((err as NodeJS.ErrnoException).code);
  }
};

/** A folder of the entries a store can hold: files, folders, a link to each, a dangling link. */
function tree(): { dir: string; paths: string[] } {
  const dir = mkdtempSync(join(tmpdir(), "forge-raw-stat-"));
  mkdirSync(join(dir, "sub", "deeper"), { recursive: true });
  writeFileSync(join(dir, "empty"), "");
  writeFileSync(join(dir, "sub", "issue.md"), "---\ntitle: x\n---\n");
  for (let i = 0; i < 40; i++) writeFileSync(join(dir, `f${i}`), "x".repeat(i * 37));
  symlinkSync(join(dir, "sub", "issue.md"), join(dir, "to-file"));
  symlinkSync(join(dir, "sub"), join(dir, "to-dir"));
  symlinkSync(join(dir, "nowhere"), join(dir, "dangling"));
  const names = ["", "empty", "sub", "sub/deeper", "sub/issue.md", "to-file", "to-dir", "dangling", "missing"];
  const paths = [...names, ...Array.from({ length: 40 }, (_, i) => `f${i}`)].map((n) => join(dir, n));
  // Under a file (ENOTDIR), and under a missing folder.
  paths.push(join(dir, "empty", "x"), join(dir, "missing", "x"));
  return { dir, paths };
}

test("the binding is read on Node 20, and the thread's copy of rawStats is self-contained", (t) => {
  // The Node this project runs on (engines: >=20.19; .ci/run's); another major may call its binding otherwise.
  if (process.versions.node.startsWith("20.")) t.true(raw.fast);
  // The source the walk's threads run: nothing but its parameters and globals (a name from outside would throw in
  // the check before the first answer, and leave it to fs).
  const copy = new Function(`return (${rawStats.toString()});`)() as typeof rawStats;
  t.is(copy(fs, process).fast, raw.fast);
});

test("lstat, folder and fstat give fs's numbers and fs's errors, for every kind of entry", (t) => {
  const { paths } = tree();
  const copy = (new Function(`return (${rawStats.toString()});`)() as typeof rawStats)(fs, process);
  for (const r of [raw, copy]) {
    for (const p of paths) {
      const want = codeOf(() => fs.lstatSync(p, { throwIfNoEntry: false }));
      t.is(
        codeOf(() => r.lstat(p, blank())),
        want,
        p
      );
      if (want === "none") {
        const s = fs.lstatSync(p, { throwIfNoEntry: false });
        const got = blank();
        t.is(r.lstat(p, got), s !== undefined, p);
        if (s) {
          t.deepEqual(got, fields(s), p);
          t.is(isFileMode(got.mode), s.isFile(), p);
        }
      }
      const wantDir = codeOf(() => fs.statSync(p, { bigint: true, throwIfNoEntry: false }));
      t.is(
        codeOf(() => r.folder(p)),
        wantDir,
        p
      );
      if (wantDir === "none") {
        const g = fs.statSync(p, { bigint: true, throwIfNoEntry: false });
        t.deepEqual(r.folder(p), g && { ino: g.ino, mtimeNs: g.mtimeNs, nlink: Number(g.nlink) }, p);
      }
      let fd = -1;
      try {
        fd = openSync(p, "r");
      } catch {
        continue;
      }
      try {
        const got = blank();
        r.fstat(fd, got);
        t.deepEqual(got, fields(fs.fstatSync(fd)), p);
      } finally {
        closeSync(fd);
      }
    }
    t.is(
      codeOf(() => r.fstat(2 ** 30, blank())),
      codeOf(() => fs.fstatSync(2 ** 30))
    );
    // A NUL is refused as fs refuses it, not cut short.
    t.is(
      codeOf(() => r.lstat(`${paths[1]}\0x`, blank())),
      "ERR_INVALID_ARG_VALUE"
    );
    t.is(
      codeOf(() => r.folder(`${paths[2]}\0x`)),
      "ERR_INVALID_ARG_VALUE"
    );
  }
});

test("lstat's mtime and ctime are fs.Stats' numbers to the last bit, over 3,000 nanosecond times", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "forge-raw-stat-"));
  let differ = 0;
  for (let i = 0; i < 3000; i++) {
    const p = join(dir, `f${i}`);
    writeFileSync(p, "");
    // Fractional seconds the kernel keeps as nanoseconds: every digit of both parts varies.
    const secs = 1_700_000_000 + i * 7919.123456789 + ((i * i) % 997) / 1e7;
    utimesSync(p, secs, secs);
    const got = blank();
    raw.lstat(p, got);
    const s = fs.lstatSync(p);
    if (got.mtimeMs !== s.mtimeMs || got.ctimeMs !== s.ctimeMs) differ++;
  }
  t.is(differ, 0);
});

test("fs answers under the permission model, --pending-deprecation, a patched fs or a binding that disagrees", (t) => {
  const { paths } = tree();
  const file = paths[4]!;
  const want = fields(fs.lstatSync(file));
  const withProc = (p: Partial<NodeJS.Process> & Record<string, unknown>) =>
    Object.assign(Object.create(process) as NodeJS.Process, { env: {}, execArgv: [], ...p });
  const real = (name: string) => (process as unknown as { binding(n: string): unknown }).binding(name);
  const cases: [string, typeof fs, NodeJS.Process][] = [
    ["the permission model", fs, withProc({ permission: { has: () => true } })],
    ["--pending-deprecation", fs, withProc({ execArgv: ["--pending-deprecation"] })],
    ["--pending_deprecation", fs, withProc({ execArgv: ["--pending_deprecation"] })],
    ["NODE_OPTIONS", fs, withProc({ env: { NODE_OPTIONS: "--pending-deprecation" } })],
    ["NODE_PENDING_DEPRECATION", fs, withProc({ env: { NODE_PENDING_DEPRECATION: "1" } })],
    ["no process.binding", fs, withProc({ binding: undefined })],
    ["a patched lstatSync", { ...fs, lstatSync: ((p: string) => fs.lstatSync(p)) as typeof fs.lstatSync }, process],
    [
      "a binding whose numbers differ",
      fs,
      withProc({
        binding: (name: string) => {
          const b = real(name) as Record<string, (...a: unknown[]) => unknown>;
          const lstat = (...a: unknown[]) => {
            const v = b.lstat!(...a) as Float64Array | undefined;
            if (v) v[8] = v[8]! + 1;
            return v;
          };
          return { ...b, lstat };
        },
      }),
    ],
  ];
  for (const [name, nodeFs, proc] of cases) {
    const r = rawStats(nodeFs, proc);
    const got = blank();
    t.true(r.lstat(file, got), name);
    t.deepEqual(got, want, name);
    t.false(r.fast, name);
  }
  t.true(rawStats(fs, withProc({})).fast, "the same process, unchanged, reads the binding");
});
