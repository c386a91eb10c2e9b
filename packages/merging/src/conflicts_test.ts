import test from "ava";
import { conflictFiles } from "./_conflicts.js";

test("conflictFiles() names each failing file once, in git's order", (t) => {
  const stderr =
    [
      "error: patch failed: a.txt:1",
      "error: a.txt: patch does not apply",
      "error: b/c.txt: already exists in index",
      "error: gone.txt: does not exist in index",
      "error: w.txt: already exists in working directory",
      "error: m.txt: does not match index",
    ].join("\n") + "\n";
  t.deepEqual(conflictFiles(stderr), ["a.txt", "b/c.txt", "gone.txt", "w.txt", "m.txt"]);
});

test("conflictFiles() keeps a colon in a file name (patch failed: FILE:LINE splits at the last colon)", (t) => {
  t.deepEqual(conflictFiles("error: patch failed: x:y.txt:12\n"), ["x:y.txt"]);
});

test("conflictFiles() finds nothing in errors that are not about a file (corrupt patch, invalid path)", (t) => {
  t.deepEqual(conflictFiles("error: corrupt patch at line 7\n"), []);
  t.deepEqual(conflictFiles("error: invalid path '.git/hooks/x'\n"), []);
});

test("conflictFiles() unquotes the names git quotes", (t) => {
  const stderr = 'error: patch failed: "caf\\303\\251.txt":2\nerror: "caf\\303\\251.txt": patch does not apply\n';
  t.deepEqual(conflictFiles(stderr), ["café.txt"]);
});
