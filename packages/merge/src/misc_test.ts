import test from "ava";
import { withVerb } from "./mod.js";

test("withVerb() turns a leading ref into the pr verb", (t) => {
  t.deepEqual(withVerb(["12", "--json"]), ["pr", "12", "--json"]);
  t.deepEqual(withVerb(["#3"]), ["pr", "#3"]);
  t.deepEqual(withVerb(["-"]), ["pr", "-"]);
});

test("withVerb() leaves verbs, flags and nothing alone", (t) => {
  t.deepEqual(withVerb(["import", "x"]), ["import", "x"]);
  t.deepEqual(withVerb(["pr", "1"]), ["pr", "1"]);
  t.deepEqual(withVerb(["-h"]), ["-h"]);
  t.deepEqual(withVerb(["--version"]), ["--version"]);
  t.deepEqual(withVerb([]), []);
});
