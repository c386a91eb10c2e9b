import test from "ava";
import { batch, claim, supports } from "./_fixture.js";
import { compile } from "./compile.js";
import { schedule } from "./schedule.js";

test("schedule() puts supporters first and breaks ties by id", (t) => {
  const c = compile(
    batch(
      [claim("z"), claim("a"), claim("m", "fixes"), claim("b", "fixes")],
      [],
      [supports("z", "b"), supports("b", "m"), supports("a", "m")]
    )
  );
  t.deepEqual(schedule(c), { order: ["a", "z", "b", "m"], blocked: [] });
});

test("schedule() blocks nodes in or downstream of a cycle", (t) => {
  const c = compile(
    batch(
      [claim("a"), claim("x", "fixes"), claim("y", "fixes"), claim("w", "fixes")],
      [],
      [supports("x", "y"), supports("y", "x"), supports("y", "w"), supports("a", "x")]
    )
  );
  t.deepEqual(schedule(c), { order: ["a"], blocked: ["w", "x", "y"] });
});
