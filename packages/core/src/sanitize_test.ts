import test from "ava";
import { printable } from "./sanitize.js";

test("printable() shows control characters as ? and cuts to the cap, without an ellipsis", (t) => {
  t.is(printable("a\nb\x00c\x7fd\te"), "a?b?c?d?e");
  t.is(printable("x".repeat(100), 80), "x".repeat(80));
  t.is(printable("\x1b[31m" + "y".repeat(70), 60), "?[31m" + "y".repeat(55));
  t.is(printable("ünï ✓", 3), "ünï", "not a control character: kept");
  t.is(printable(""), "");
});
