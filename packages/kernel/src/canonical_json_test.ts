import test from "ava";
import { canonicalJson } from "./canonical_json.js";

test("canonicalJson() sorts keys at every depth and drops undefined", (t) => {
  t.is(
    canonicalJson({ b: 1, a: [true, null, { d: "x", c: undefined, b: 2 }] }),
    '{"a":[true,null,{"b":2,"d":"x"}],"b":1}'
  );
});

test("canonicalJson() gives the same bytes whatever the key insertion order", (t) => {
  t.is(canonicalJson({ x: 1, y: { p: 1, q: 2 } }), canonicalJson({ y: { q: 2, p: 1 }, x: 1 }));
});

test("canonicalJson() refuses a non-finite number", (t) => {
  t.throws(() => canonicalJson({ a: Number.NaN }), { instanceOf: TypeError });
});
