import test from "ava";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readlinkSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newActivationId, Target } from "./_activation.js";

const made: string[] = [];
test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function target(): Target {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "forge-target-")));
  made.push(dir);
  const t = new Target(join(dir, "app"), true);
  for (const tag of ["v1", "v2"]) {
    mkdirSync(t.installed(tag));
    writeFileSync(join(t.installed(tag), "VERSION"), `${tag}\n`);
  }
  return t;
}

test(
  "switchTo() renames a new symlink over current: a " + "reader looking all the while never finds it missing",
  async (t) => {
    const tg = target();
    tg.switchTo("v1");
    // A separate process reads current in a tight loop while this one switches it back and forth.
    const reader = spawn(
      "sh",
      [
        "-c",
        'n=0; while [ ! -e "$1/stop" ]; do readlink "$1/current" >/dev/null || echo missing; n=$((n+1)); done; echo ' +
          '"reads $n"',
        "sh",
        tg.dir,
      ],
      { stdio: ["ignore", "pipe", "inherit"] }
    );
    let out = "";
    reader.stdout.on("data", (d: Buffer) => (out += d.toString()));
    const closed = new Promise((res) => reader.on("close", res));
    const end = Date.now() + 1500;
    let switches = 0;
    while (Date.now() < end) {
      tg.switchTo(switches % 2 === 0 ? "v2" : "v1");
      switches++;
      if (switches % 50 === 0) await new Promise((res) => setImmediate(res));
    }
    writeFileSync(join(tg.dir, "stop"), "");
    await closed;
    t.false(out.includes("missing"), out.slice(0, 200));
    t.regex(out, /reads [1-9]/);
    t.true(switches > 100, `${switches} switches`);
    t.true(["releases/v1", "releases/v2"].includes(readlinkSync(tg.current)));
  }
);

test("currentTag() reads forge's link, none when absent, and refuses anything else", (t) => {
  const tg = target();
  t.is(tg.currentTag(), undefined);
  tg.switchTo("v2");
  t.is(tg.currentTag(), "v2");
  tg.switchTo(undefined);
  t.is(tg.currentTag(), undefined);
  mkdirSync(tg.current);
  t.throws(() => tg.currentTag(), { message: /is not a symlink/ });
});

test("newActivationId() sorts by time", (t) => {
  const a = newActivationId(new Date("2026-12-01T09:00:00.001Z"));
  const b = newActivationId(new Date("2026-12-01T09:00:00.010Z"));
  t.regex(a, /^20261201T090000001Z-[0-9a-f]{8}$/);
  t.true(a < b);
});
