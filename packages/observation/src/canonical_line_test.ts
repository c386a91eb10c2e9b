import test from "ava";
import { canonicalJson } from "@forge/kernel";
import { canonicalLine } from "./canonical_line.js";

// Values where a plain JSON.stringify of a sorted copy would differ from the kernel's writer, and ordinary ones.
const CASES: unknown[] = [
  null,
  true,
  false,
  0,
  -0,
  1.5,
  1e21,
  "",
  'a\u2028b\ud800"\\',
  [],
  {},
  [undefined, null, 1],
  { b: 1, a: [true, null] },
  { z: { y: 2, x: [{ d: 1, c: undefined }] }, é: 1, Z: 2, "a b": 3 },
  { 10: "ten", 9: "nine", a: 1 },
  { "01": 1, "1": 2 },
  { nested: { 2: "x", 1: "y" } },
  JSON.parse('{"__proto__": {"x": 1}, "a": 2}'),
  { d: new Date(0) },
  { f: () => 1, a: 1 },
  [() => 1],
  { s: Symbol("s") },
  { n: 10n },
  { u: undefined },
  [NaN].slice(1),
  { o: Object.create(null) as object },
  // Already in order (written without a copy), and in order but for something nested.
  { A: 1, a: [undefined, { b: 2, c: undefined }], é: { x: null } },
  { a: 1, b: { d: 1, c: 2 } },
  { a: { d: new Date(0) } },
  { a: 1, b: { 0: 1 } },
  [{ a: 1 }, { b: 1, a: 2 }, undefined],
  { 1: undefined, a: 1 },
  { b: undefined, a: 1 },
  { a: [1, [{ z: 1, y: 2 }]], b: 2 },
];

test(
  "canonicalLine(): the same bytes as the kernel's canonicalJson, on every case (index keys, __proto__, toJSON, " +
    "non-JSON values included)",
  (t) => {
    for (const v of CASES) t.is(canonicalLine(v), canonicalJson(v), String(canonicalJson(v)));
  }
);

test("canonicalLine(): a non-finite number throws as the kernel's writer does", (t) => {
  t.throws(() => canonicalLine({ a: NaN }), { instanceOf: TypeError });
  t.throws(() => canonicalLine([Infinity]), { instanceOf: TypeError });
});

test("canonicalLine(): seeded random JSON values (shuffled keys) give the kernel's bytes", (t) => {
  let seed = 7;
  const rnd = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const keys = ["a", "b", "kind", "claim_id", "Ä", "0", "7", "x1", "_", "zz", "1a"];
  const value = (depth: number): unknown => {
    switch (rnd(depth > 3 ? 4 : 6)) {
      case 0:
        return rnd(2) === 0 ? null : rnd(2) === 0;
      case 1:
        return rnd(1000) - 500 + (rnd(2) ? 0.25 : 0);
      case 2:
        return "s" + rnd(100) + (rnd(5) === 0 ? "\n\u00e9" : "");
      case 3:
        return rnd(3) === 0 ? undefined : "u";
      case 4:
        return Array.from({ length: rnd(4) }, () => value(depth + 1));
      default: {
        const o: Record<string, unknown> = {};
        for (let i = rnd(5); i > 0; i--) o[keys[rnd(keys.length)]!] = value(depth + 1);
        return o;
      }
    }
  };
  for (let i = 0; i < 2000; i++) {
    const v = value(0);
    t.is(canonicalLine(v), canonicalJson(v));
  }
});
