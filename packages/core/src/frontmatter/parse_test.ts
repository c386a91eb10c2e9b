import test from "ava";
import { parseFrontmatter, parseFrontmatterFast, formatFrontmatter, MAX_FILE_BYTES } from "./parse.js";
import { parseWithEngine } from "./_engine.js";

const F = ".forge/issues/x/issue.md";

test("parseFrontmatter() reads canonical text on the fast path with the body intact", async (t) => {
  const text = '---\ntitle: "a: b"\nlabels:\n  - bug\n---\nbody\n\nmore\n';
  t.deepEqual(parseFrontmatterFast(text, F), { data: { title: "a: b", labels: ["bug"] }, body: "body\n\nmore\n" });
  t.deepEqual(await parseFrontmatter(text, F), { data: { title: "a: b", labels: ["bug"] }, body: "body\n\nmore\n" });
});

test("parseFrontmatter() gives the same data and body as gray-matter with the yaml engine", async (t) => {
  for (const text of [
    "---\na: 1\n---\nbody\n",
    "---\na: x\n---\n",
    "---\n---\nonly body\n",
    "---\nb: [1, 2]\n---\n\nlead blank\n",
  ]) {
    const viaEngine = parseWithEngine(text);
    t.deepEqual(await parseFrontmatter(text, F), viaEngine, JSON.stringify(text));
  }
});

test("parseFrontmatter() falls back to the yaml engine for hand-written YAML", async (t) => {
  const r = await parseFrontmatter("---\ntitle: 'single'  # note\nlabels: [a, b]\n---\nx\n", F);
  t.deepEqual(r.data, { title: "single", labels: ["a", "b"] });
  t.is(r.body, "x\n");
});

test("parseFrontmatter() refuses a file over 256 KiB before parsing, naming the file", async (t) => {
  const big = "---\ntitle: " + "a".repeat(MAX_FILE_BYTES) + "\n---\n";
  await t.throwsAsync(parseFrontmatter(big, F), { message: `${F}: larger than 256 KiB` });
});

for (const lang of ["js", "javascript", "coffee", "json", " js"]) {
  test(`parseFrontmatter() refuses a '---${lang}' frontmatter without evaluating it`, async (t) => {
    const text = `---${lang}\n{title: (globalThis.__pwned = 1)}\n---\n`;
    await t.throwsAsync(parseFrontmatter(text, F), { message: /is not allowed/ });
    t.is((globalThis as { __pwned?: number }).__pwned, undefined);
  });
}

test("parseFrontmatter() refuses aliases (billion laughs)", async (t) => {
  const bomb =
    "---\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, " +
    "*b, *b, *b, *b]\n---\n";
  await t.throwsAsync(parseFrontmatter(bomb, F), { message: new RegExp(`^${F}: `) });
});

test("parseFrontmatter() refuses deep flow and block nesting before composing", async (t) => {
  await t.throwsAsync(parseFrontmatter("---\na: " + "[".repeat(100000) + "\n---\n", F), {
    message: /nesting deeper than 32/,
  });
  let block = "---\n";
  for (let i = 0; i < 300; i++) block += " ".repeat(i) + `k${i}:\n`;
  await t.throwsAsync(parseFrontmatter(block + "---\n", F), { message: /nesting deeper than 32/ });
});

test("parseFrontmatter() names the file for missing frontmatter and a missing closing fence", async (t) => {
  await t.throwsAsync(parseFrontmatter("title: x\n", F), {
    message: `${F}: no frontmatter (expected a '---' first line)`,
  });
  await t.throwsAsync(parseFrontmatter("---\ntitle: x\n", F), { message: `${F}: frontmatter has no closing '---'` });
});

test("parseFrontmatter() refuses frontmatter that is not a mapping", async (t) => {
  await t.throwsAsync(parseFrontmatter("---\n- a\n- b\n---\n", F), { message: /not a mapping/ });
});

test("formatFrontmatter() round-trips through parseFrontmatter byte for byte", async (t) => {
  const text = formatFrontmatter(
    { title: "x: y", id: "0b8c2a8e-6f43-4b8a-9a55-3a4f0f7b2d11", labels: ["a", "b c"] },
    "hello\n"
  );
  const r = await parseFrontmatter(text, F);
  t.is(formatFrontmatter(r.data, r.body), text);
});
