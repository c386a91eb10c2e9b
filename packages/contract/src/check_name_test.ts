import test from "ava";
import { checkName, splitCheck, subjectCheck } from "./check_name.js";

test("a check name is the step, or the step › the test id; the first › splits it", (t) => {
  t.is(checkName("20-unit", null), "20-unit");
  t.is(checkName("20-unit", "parser › handles --"), "20-unit › parser › handles --");
  t.deepEqual(splitCheck("20-unit › parser › handles --"), { step: "20-unit", test: "parser › handles --" });
  t.deepEqual(splitCheck("20-unit"), { step: "20-unit", test: null });
  t.is(subjectCheck({ step: "20-unit", test: "a › b", tree: "x" }), "20-unit › a › b");
  t.is(subjectCheck({ step: "20-unit", tree: "x" }), "20-unit");
  t.is(subjectCheck({ issue: "x" }), null);
  t.is(subjectCheck(null), null);
});
