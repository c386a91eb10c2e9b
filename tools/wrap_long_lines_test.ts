import test from "ava";
import { stripCode } from "./strip_code.js";
import { wrapLongLines } from "./wrap_long_lines.js";

/** `n` four-character words, w000 w001 …, from `from`. */
const words = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `w${String(i + from).padStart(3, "0")}`).join(" ");

test("wrapLongLines() splits long // and block comment lines at spaces, keeping their prefix and text", (t) => {
  const src = [
    `  // ${words(30)}`,
    `  /** ${words(30)} */`,
    "  /**",
    `   * ${words(30)}`,
    `   * ${words(30)} */`,
    "",
  ].join("\n");
  const { text, split } = wrapLongLines(src);
  t.is(split, 4);
  for (const l of text.split("\n")) t.true([...l].length <= 120, l);
  t.deepEqual(text.split("\n").slice(0, 2), [`  // ${words(23)}`, `  // ${words(7, 23)}`]);
  t.deepEqual(text.split("\n").slice(2, 6), ["  /**", `   * ${words(23)}`, `   * ${words(7, 23)}`, "   */"]);
  // The words, in order, are unchanged.
  const ws = (s: string) => s.match(/w\d{3}/g)!.join(" ");
  t.is(ws(text), ws(src));
});

test("wrapLongLines() never touches code, strings, a comment after code, or a line with no safe break", (t) => {
  const src = [
    `const s = "// ${words(30)}";`,
    `f(s); // ${words(30)}`,
    `// https://example.com/${"a".repeat(120)}`,
    `/* ${"x".repeat(118)} @tag */`,
    `const t = \`${words(30)}\`;`,
    "",
  ].join("\n");
  const r = wrapLongLines(src);
  t.is(r.split, 0);
  t.is(r.text, src);
  t.is(stripCode(r.text).code, stripCode(src).code);
});
