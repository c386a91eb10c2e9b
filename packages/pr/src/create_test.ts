import test from "ava";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgv } from "@forge/cli";
import { storeAt } from "@forge/core";
import create, { defaultBase, parseCreateOptions } from "./create.js";

const made: string[] = [];
test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

test("parseCreateOptions() reads gh's flags and letters, lists split on commas", (t) => {
  const p = parseArgv(
    [
      "-t",
      "T",
      "-B",
      "trunk",
      "-H",
      "fix/x",
      "-d",
      "-l",
      "bug,ui",
      "-a",
      "@me",
      "-m",
      "v1",
      "--issue",
      "1,#2",
      "--issue",
      "abcd",
    ],
    create.args
  );
  t.deepEqual(parseCreateOptions(p, "body"), {
    title: "T",
    body: "body",
    base: "trunk",
    head: "fix/x",
    draft: true,
    labels: ["bug", "ui"],
    assignees: ["@me"],
    milestone: "v1",
    issues: ["1", "#2", "abcd"],
  });
});

test("parseCreateOptions() leaves base and head to the defaults", (t) => {
  const o = parseCreateOptions(parseArgv(["-t", "T"], create.args), undefined);
  t.is(o.base, undefined);
  t.is(o.head, undefined);
  t.false(o.draft);
  t.is(o.body, "");
});

function store() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "forge-base-")));
  made.push(root);
  mkdirSync(join(root, ".forge", "ci"), { recursive: true });
  return storeAt(join(root, ".forge"));
}

test("defaultBase() is main without ci.env, main without a base line, and ci.env's base otherwise", (t) => {
  const s = store();
  t.is(defaultBase(s), "main");
  writeFileSync(join(s.dir, "ci", "ci.env"), "runner=local\n");
  t.is(defaultBase(s), "main");
  writeFileSync(join(s.dir, "ci", "ci.env"), "# default branch\nbase=trunk\n");
  t.is(defaultBase(s), "trunk");
});

test("defaultBase() refuses a bad ci.env, naming the file and line", (t) => {
  const s = store();
  writeFileSync(join(s.dir, "ci", "ci.env"), "base=--upload-pack=x\n");
  t.throws(() => defaultBase(s), { message: ".forge/ci/ci.env: line 1: 'base': expected a branch name" });
});
