import test from "ava";
import { parseDocument } from "yaml";
import { formatCanonical, parseCanonical } from "./canonical.js";

function yamlParse(text: string): unknown {
  const doc = parseDocument(text, { schema: "core", uniqueKeys: true });
  if (doc.errors.length) throw doc.errors[0];
  return doc.toJS() ?? {};
}

// Deterministic PRNG (mulberry32) so failures reproduce.
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  "a",
  "Z",
  "0",
  "9",
  " ",
  ":",
  ": ",
  "#",
  " #",
  "-",
  "- ",
  "'",
  '"',
  "\\",
  "\n",
  "\t",
  "é",
  "→",
  "null",
  "true",
  "yes",
  "No",
  "~",
  "[",
  "]",
  "{",
  "}",
  ",",
  "&x",
  "*x",
  "!",
  "|",
  ">",
  "%",
  "@",
  "`",
  "1e3",
  "0x1F",
  "0o7",
  ".inf",
  "2026-01-02",
  "\u2028",
  "\u0000",
  "_",
  ".",
];

function randomString(r: () => number): string {
  const n = Math.floor(r() * 5);
  let s = "";
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(r() * PIECES.length)];
  return s;
}

function randomScalar(r: () => number): string | number | boolean | null {
  const k = r();
  if (k < 0.7) return randomString(r);
  if (k < 0.85) return Math.floor((r() - 0.5) * 1e6);
  if (k < 0.95) return r() < 0.5;
  return null;
}

test("formatCanonical() output parses back to the same data, and yaml agrees, for 3000 random mappings", (t) => {
  const r = rng(42);
  for (let i = 0; i < 3000; i++) {
    const data: Record<string, unknown> = {};
    const nkeys = 1 + Math.floor(r() * 5);
    for (let k = 0; k < nkeys; k++) {
      const key = `k${k}`;
      const shape = r();
      if (shape < 0.6) data[key] = randomScalar(r);
      else if (shape < 0.85) data[key] = Array.from({ length: Math.floor(r() * 4) }, () => randomString(r) || "x");
      else
        data[key] = Array.from({ length: 1 + Math.floor(r() * 3) }, () => ({
          name: randomString(r) || "n",
          size: Math.floor(r() * 100),
        }));
    }
    const text = formatCanonical(data);
    const expected = JSON.parse(JSON.stringify(data, (_k, v) => (Array.isArray(v) && v.length === 0 ? null : v)));
    const fast = parseCanonical(text);
    t.deepEqual(fast, expected, `fast parser, case ${i}: ${JSON.stringify(text)}`);
    t.deepEqual(yamlParse(text), expected, `yaml, case ${i}: ${JSON.stringify(text)}`);
  }
});

test("parseCanonical() agrees with yaml on every input it accepts (random line soup)", (t) => {
  const r = rng(7);
  const LINES = [
    "a: 1",
    "b: x y",
    'c: "q: \\"r\\""',
    "d:",
    "  - p",
    "- q",
    "  - k: v",
    "    m: 2",
    "e: []",
    "f: null",
    "g: True",
    "h: 'single'",
    "i: a #c",
    "# comment",
    "",
    "j: [1, 2]",
    "k: {a: 1}",
    "l: &x 1",
    "m: *x",
    "  n: 1",
    "o: |",
    "  text",
    "p: -1",
    "q: 007",
    "r: 1.5",
    "s: 0b2",
    "t:  two",
    "u: x:y",
    "v: 3f2a9c1e-0000-4000-8000-000000000001",
    "w: -",
    "x: ~",
  ];
  let accepted = 0;
  for (let i = 0; i < 5000; i++) {
    const n = 1 + Math.floor(r() * 6);
    const text = Array.from({ length: n }, () => LINES[Math.floor(r() * LINES.length)]).join("\n") + "\n";
    const fast = parseCanonical(text);
    if (fast === undefined) continue;
    accepted++;
    let y: unknown;
    try {
      y = yamlParse(text);
    } catch {
      t.fail(`fast parser accepted what yaml rejects: ${JSON.stringify(text)}`);
      continue;
    }
    t.deepEqual(fast, y, JSON.stringify(text));
  }
  t.true(accepted > 200, `only ${accepted} inputs accepted; the generator no longer exercises the fast path`);
});

for (const [name, text] of [
  ["a comment line", "# hi\na: 1\n"],
  ["a single-quoted string", "a: 'x'\n"],
  ["a trailing comment", "a: x # c\n"],
  ["a flow sequence", "a: [1]\n"],
  ["an anchor", "a: &x 1\n"],
  ["a block scalar", "a: |\n  x\n"],
  ["a tab", "a:\tx\n"],
  ["CRLF line ends", "a: 1\r\n"],
  ["a duplicate key", "a: 1\na: 2\n"],
  ["a nested mapping", "a:\n  b: 1\n"],
  ["a float", "a: 1.5\n"],
  ["a leading-zero number", "a: 007\n"],
  ["a __proto__ key", "__proto__: 1\n"],
  ["a missing final newline", "a: 1"],
] as const) {
  test(`parseCanonical() leaves ${name} to the general engine`, (t) => {
    t.is(parseCanonical(text), undefined);
  });
}

test("formatCanonical() quotes words YAML 1.1 reads as booleans and values that look like numbers", (t) => {
  t.is(
    formatCanonical({ a: "yes", b: "No", c: "on", d: "123", e: "null", f: "1.5", g: "" }),
    'a: "yes"\nb: "No"\nc: "on"\nd: "123"\ne: "null"\nf: "1.5"\ng: ""\n'
  );
});

test("formatCanonical() writes an empty list as a bare key line and leaves out undefined", (t) => {
  t.is(formatCanonical({ labels: [], x: undefined, assignees: ["bob"] }), "labels:\nassignees:\n  - bob\n");
});

test("formatCanonical() refuses values outside the subset", (t) => {
  t.throws(() => formatCanonical({ a: 1.5 }), { instanceOf: TypeError });
  t.throws(() => formatCanonical({ a: { b: 1 } as never }), { instanceOf: TypeError });
  t.throws(() => formatCanonical({ "bad key": 1 }), { instanceOf: TypeError });
});
