/**
 * Every executable closes its stdout as its last step when stdout is a pipe
 * or a socket, so the next command of a pipeline sees the end at once, not
 * after this process has given back its memory; a file or a terminal is
 * left to the exit.
 */
import test from "ava";
import { spawnSync } from "node:child_process";
import { mkdtempSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, baseEnv, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

// At the process's exit event: is fd 1 still open?
const HOOK = join(scratch(mkdtempSync(join(tmpdir(), "forge-stdout-end-"))), "hook.cjs");
writeFileSync(
  HOOK,
  `process.on("exit", () => { let open = true; try { require("fs").fstatSync(1); } catch { open = false; } ` +
    `process.stderr.write("fd1 " + (open ? "open" : "closed") + "\\n"); });\n`
);

function atExit(bin: string, args: string[], stdout: "pipe" | number, cwd: string): string {
  const r = spawnSync(process.execPath, ["-r", HOOK, join(BIN, bin), ...args], {
    cwd,
    env: baseEnv() as NodeJS.ProcessEnv,
    stdio: ["ignore", stdout, "pipe"],
    encoding: "utf8",
  });
  return r.stderr;
}

test(
  "stdout that is a socket (a parent's pipe) is closed before the exit, with every byte written; a file is left " +
    "open",
  (t) => {
    const repo = scratch(tempRepo());
    spawnSync(join(BIN, "forge-issue"), ["create", "-t", "one"], { cwd: repo, env: baseEnv() as NodeJS.ProcessEnv });
    const r = spawnSync(process.execPath, ["-r", HOOK, join(BIN, "forge-issue"), "list", "--json", "number,title"], {
      cwd: repo,
      env: baseEnv() as NodeJS.ProcessEnv,
      encoding: "utf8",
    });
    t.is(r.status, 0);
    t.is(r.stdout, '{"number":1,"title":"one"}\n');
    t.is(r.stderr, "fd1 closed\n");
    t.is(atExit("forge-observe", ["--json"], "pipe", repo), "fd1 closed\n");
    const file = join(repo, "out.txt");
    const fd = openSync(file, "w");
    t.is(atExit("forge-issue", ["list"], fd, repo), "fd1 open\n");
    t.regex(readFileSync(file, "utf8"), /^1\tOPEN\tone/);
  }
);

test("a shell pipe (a FIFO) is closed before the exit too, and an error exit still closes it", (t) => {
  const repo = scratch(tempRepo());
  const r = spawnSync("sh", ["-c", `"${process.execPath}" -r "${HOOK}" "${join(BIN, "forge-issue")}" view 99 | cat`], {
    cwd: repo,
    env: baseEnv() as NodeJS.ProcessEnv,
    encoding: "utf8",
  });
  t.regex(r.stderr, /^forge-issue view: .*\nfd1 closed\n$/);
  const ok = spawnSync("sh", ["-c", `"${process.execPath}" -r "${HOOK}" "${join(BIN, "forge-label")}" list | cat`], {
    cwd: repo,
    env: baseEnv() as NodeJS.ProcessEnv,
    encoding: "utf8",
  });
  t.is(ok.stderr, "fd1 closed\n");
});
