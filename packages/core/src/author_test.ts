import test from "ava";
import { editList, expandMe } from "./author.js";

test("editList() drops the removed, appends each added once, keeps the order", (t) => {
  t.deepEqual(editList(["a", "b", "c"], ["d", "a", "d"], ["b"]), ["a", "c", "d"]);
  t.deepEqual(editList([], [], []), []);
  t.deepEqual(editList(["x"], ["x"], ["x"]), ["x"], "removed first, then added back");
});

test("expandMe() replaces @me with the author", (t) => {
  t.deepEqual(expandMe(["@me", "bob"], "alice"), ["alice", "bob"]);
});
