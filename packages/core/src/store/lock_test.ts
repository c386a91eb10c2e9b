import test from "ava";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { holdLock, lockFile, setNoteSink, withKindLock, withLock, type StaleLock } from "./lock.js";
import { ISSUES } from "./store.js";

function file(): string {
  return join(mkdtempSync(join(tmpdir(), "forge-lock-")), "a.md");
}

test.serial("withLock() holds <file>.lock while it runs and removes it after, also on a throw", (t) => {
  const f = file();
  withLock(f, () => t.true(existsSync(f + ".lock")));
  t.false(existsSync(f + ".lock"));
  t.throws(
    () =>
      withLock(f, () => {
        throw new Error("boom");
      }),
    { message: "boom" }
  );
  t.false(existsSync(f + ".lock"));
});

test.serial(
  "a lock appears with its holder's line in it (no empty lock for another process to break), and no temp file stays",
  (t) => {
    const f = file();
    const dir = join(f, "..");
    withLock(f, () => {
      t.regex(readFileSync(f + ".lock", "latin1"), new RegExp(`^${process.pid} ${hostname()} [0-9]+\n$`));
      t.deepEqual(readdirSync(dir), ["a.md.lock"]);
    });
    t.deepEqual(readdirSync(dir), []);
  }
);

test.serial(
  "release removes only this process's lock (one broken as stale meanwhile and taken by another stays)",
  (t) => {
    const f = file();
    const held = lockFile(f);
    const other = `${process.pid + 1} ${hostname()} ${Date.now()}\n`;
    writeFileSync(f + ".lock", other);
    held.release();
    t.is(readFileSync(f + ".lock", "latin1"), other);
  }
);

test.serial("withLock() waits a bounded time for a live holder, then fails with one line naming the file", (t) => {
  const f = file();
  writeFileSync(f + ".lock", `${process.pid} ${hostname()} ${Date.now()}\n`);
  const t0 = Date.now();
  const err = t.throws(() => withLock(f, () => 1, { file: "x/a.md", waitMs: 150 }));
  t.true(Date.now() - t0 >= 150);
  t.regex(err!.message, new RegExp(`^x/a\\.md is locked by pid ${process.pid} `));
  t.false(err!.message.includes("\n"));
  t.true(existsSync(f + ".lock"), "a live holder's lock is never removed");
});

test.serial("withLock() breaks the lock of a dead process, with a note", (t) => {
  const f = file();
  const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  writeFileSync(f + ".lock", `${dead.stdout} ${hostname()} ${Date.now()}\n`);
  const notes: string[] = [];
  setNoteSink((n) => notes.push(n));
  t.is(
    withLock(f, () => 7, { file: "x/a.md", waitMs: 2000 }),
    7
  );
  setNoteSink(() => undefined);
  t.deepEqual(notes, [`broke a stale lock on x/a.md (pid ${dead.stdout} is gone)`]);
  t.false(existsSync(f + ".lock"));
});

test.serial("withLock() breaks a lock older than the bound even when its pid is alive (pids are reused)", (t) => {
  const f = file();
  writeFileSync(f + ".lock", `${process.pid} ${hostname()} 0\n`);
  const old = new Date(Date.now() - 3_600_000);
  utimesSync(f + ".lock", old, old);
  t.is(
    withLock(f, () => 1, { waitMs: 500 }),
    1
  );
});

test.serial(
  "withKindLock(): creates of one process queue (no synchronous wait on their own lock), one at a time, in call order",
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), "forge-kindlock-"));
    const store = { dir: join(dir, ".forge"), root: dir, real: join(dir, ".forge") };
    mkdirSync(join(store.dir, "issues"), { recursive: true });
    const log: string[] = [];
    let inside = 0;
    const create = (n: number) =>
      withKindLock(store, ISSUES, async () => {
        inside++;
        t.is(inside, 1, "one create at a time");
        log.push(`start ${n}`);
        await new Promise((r) => setTimeout(r, 20));
        log.push(`end ${n}`);
        inside--;
        return n;
      });
    const t0 = Date.now();
    t.deepEqual(await Promise.all([1, 2, 3, 4].map(create)), [1, 2, 3, 4]);
    t.deepEqual(log, ["start 1", "end 1", "start 2", "end 2", "start 3", "end 3", "start 4", "end 4"]);
    t.true(Date.now() - t0 < 5_000, "no lock wait ran out");
    t.false(existsSync(join(store.dir, "issues.lock")));
  }
);

test.serial("holdLock() for a lock held while its process lives: its pid alone, no wait, not broken alive", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "forge-lock-"));
  const lock = join(dir, "loop.lock");
  const busy = (pid: number | undefined): string => `busy ${String(pid)}`;
  const opts = { waitMs: 0, staleMs: Infinity, pidOnly: true, busy };
  const a = holdLock(lock, opts);
  t.is(readFileSync(lock, "latin1"), `${process.pid}\n`);
  utimesSync(lock, new Date(0), new Date(0));
  const held = { code: "E_CONFLICT", message: `busy ${process.pid}` };
  t.throws(() => holdLock(lock, opts), held, "an old lock of a live process stands");
  a.release();
  a.release();
  t.false(existsSync(lock));
  const broke: StaleLock[] = [];
  const notes: string[] = [];
  setNoteSink((n) => notes.push(n));
  for (const text of ["999999999\n", "garbage\n"]) {
    writeFileSync(lock, text);
    holdLock(lock, { ...opts, onBreak: (s) => broke.push(s) }).release();
  }
  setNoteSink(() => undefined);
  t.deepEqual(
    broke.map((s) => [s.pid, s.dead]),
    [
      [999999999, true],
      [undefined, true],
    ]
  );
  t.deepEqual(notes, [], "onBreak, not the note sink");
  t.deepEqual(readdirSync(dir), []);
});

/** A pid that was a process of this host and is gone. */
function deadPid(): string {
  return spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
}

/** Run `body` on another thread after `ms` (this one waits synchronously meanwhile, as a lock's taker does). */
function later(ms: number, body: string, data: Record<string, string>): Worker {
  const w = new Worker(
    `const fs = require("node:fs"); const d = require("node:worker_threads").workerData;
    setTimeout(() => { ${body} }, ${ms});`,
    { eval: true, workerData: data }
  );
  w.unref();
  return w;
}

test.serial(
  "a lock taken while another process breaks counts once the break is over and only if still its own",
  (t) => {
    const f = file();
    const token = f + ".lock.break.lock";
    const other = `${process.pid} ${hostname()} ${Date.now()}\n`;
    // The breaker moved the new lock aside and another took the name before it could put it back.
    writeFileSync(token, other);
    later(
      150,
      "fs.renameSync(d.lock, d.lock + '.aside.stale'); fs.writeFileSync(d.lock, d.other); fs.unlinkSync(d.token);",
      {
        lock: f + ".lock",
        other,
        token,
      }
    );
    const err = t.throws(() => lockFile(f, { waitMs: 600 }));
    t.is(err?.name, "ConflictError");
    t.is(readFileSync(f + ".lock", "latin1"), other, "the other holder's lock stands");
    // The break put it back: the lock is the taker's, once the break is over.
    const g = file();
    writeFileSync(g + ".lock.break.lock", other);
    later(150, "fs.unlinkSync(d.token);", { token: g + ".lock.break.lock" });
    const t0 = Date.now();
    const held = lockFile(g, { waitMs: 5000 });
    t.true(Date.now() - t0 >= 140, "it waited for the break");
    t.regex(readFileSync(g + ".lock", "latin1"), new RegExp(`^${process.pid} `));
    held.release();
    t.deepEqual(readdirSync(join(g, "..")), []);
  }
);

test.serial("one break at a time: a live breaker's token stands; a dead or stopped breaker's is cleared", (t) => {
  const f = file();
  const token = f + ".lock.break.lock";
  const stale = `${deadPid()} ${hostname()} ${Date.now()}\n`;
  writeFileSync(f + ".lock", stale);
  writeFileSync(token, `${process.pid} ${hostname()} ${Date.now()}\n`);
  t.throws(() => lockFile(f, { waitMs: 200 }), { name: "ConflictError" });
  t.is(readFileSync(f + ".lock", "latin1"), stale, "not broken while another breaks");
  const old = new Date(Date.now() - 3_600_000);
  utimesSync(token, old, old);
  lockFile(f, { waitMs: 2000 }).release();
  t.deepEqual(readdirSync(join(f, "..")), [], "the stopped breaker's token is gone, and the lock");
  writeFileSync(f + ".lock", stale);
  writeFileSync(token, `${deadPid()} ${hostname()} ${Date.now()}\n`);
  lockFile(f, { waitMs: 2000 }).release();
  t.deepEqual(readdirSync(join(f, "..")), [], "the dead breaker's token is gone, and the lock");
});
