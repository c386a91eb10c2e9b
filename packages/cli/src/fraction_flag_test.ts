import test from "ava";
import { fractionFlag } from "./fraction_flag.js";

test("fractionFlag(): a fraction in micros, the default when absent, a usage error naming the flag otherwise", (t) => {
  t.is(fractionFlag("precision", "0.3", 1), 300_000);
  t.is(fractionFlag("precision", ".25", 1), 250_000);
  t.is(fractionFlag("precision", "1", 1), 1_000_000);
  t.is(fractionFlag("precision", "0.000001", 1), 1);
  t.is(fractionFlag("precision", undefined, 7), 7);
  for (const bad of ["", ".", "1.5", "2", "-0.1", "0.1234567", "abc"]) {
    const message = /^invalid threshold '.*' \(a fraction, e\.g\. 0\.3\)$/;
    t.throws(() => fractionFlag("threshold", bad, 1), { message }, bad);
  }
  t.throws(() => fractionFlag("x", "0.6", 1, 0.5), { message: /invalid x '0\.6'/ });
});
