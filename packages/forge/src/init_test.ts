import test from "ava";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { IGNORED, initStore } from "./init.js";
import { SKILL } from "./skill.js";
import { rootHelp } from "./main.js";

test(
  "initStore() makes .forge with the machine-state ignore " + "lines, and adds only missing lines when run again",
  (t) => {
    const dir = mkdtempSync(join(tmpdir(), "forge-init-"));
    t.deepEqual(initStore(dir), { path: join(dir, ".forge"), existed: false });
    t.is(readFileSync(join(dir, ".forge/.gitignore"), "utf8"), IGNORED.join("\n") + "\n");
    writeFileSync(join(dir, ".forge/.gitignore"), "mine\n.cache/\n");
    t.true(initStore(dir).existed);
    t.is(
      readFileSync(join(dir, ".forge/.gitignore"), "utf8"),
      "mine\n.cache/\nci/runs/\nreleases/out/\npilot/\n*.tmp\n*.lock\nreleases/activations/\n*.stale\n"
    );
  }
);

test("SKILL fits in 30 lines and 1000 bytes; root help in 12 lines and 300 bytes", (t) => {
  t.true(Buffer.byteLength(SKILL) <= 1000);
  t.true(SKILL.split("\n").length - 1 <= 30);
  t.true(Buffer.byteLength(rootHelp()) <= 300);
  t.true(rootHelp().split("\n").length - 1 <= 12);
});

test(
  "initStore() gives a store without a version marker one (made by hand, or of version 1: init's ignore lines and " +
    "the marker are its whole migration)",
  (t) => {
    const dir = mkdtempSync(join(tmpdir(), "forge-init-marker-"));
    mkdirSync(join(dir, ".forge", "ci", "steps"), { recursive: true });
    t.true(initStore(dir).existed);
    t.is(readFileSync(join(dir, ".forge", "version"), "utf8"), "2\n");
    writeFileSync(join(dir, ".forge", "version"), "3\n");
    initStore(dir);
    t.is(readFileSync(join(dir, ".forge", "version"), "utf8"), "3\n", "an existing marker is never rewritten");
  }
);
