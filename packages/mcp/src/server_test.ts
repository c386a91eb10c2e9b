import test from "ava";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callTool } from "./server.js";
import type { Invocation } from "./tools.js";

/** A root with a store and a bin/ holding `forge-fake`, a node script doing what `body` says. */
function world(body: string): { root: string; bin: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "forge-mcp-call-")));
  mkdirSync(join(root, ".forge"));
  mkdirSync(join(root, "bin"));
  writeFileSync(join(root, "bin", "forge-fake"), body);
  return { root, bin: join(root, "bin") };
}

const inv =
  (many = false) =>
  (): Invocation => ({ exe: "forge-fake", argv: ["view", "--json"], many });

test("callTool() returns one record as structuredContent, with a one-line summary", async (t) => {
  const w = world(`process.stdout.write(JSON.stringify({ number: 3, title: "T", state: "OPEN" }) + "\\n");`);
  try {
    const r = await callTool(w, inv(), {});
    t.deepEqual(r.structuredContent, { number: 3, title: "T", state: "OPEN" });
    t.deepEqual(r.content, [{ type: "text", text: "forge-fake view: #3 T OPEN" }]);
    t.falsy(r.isError);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

test("callTool() wraps a list verb's lines, and more than one line of any verb, in {items}", async (t) => {
  const w = world(`process.stdout.write('{"a":1}\\n{"a":2}\\n');`);
  try {
    t.deepEqual((await callTool(w, inv(true), {})).structuredContent, { items: [{ a: 1 }, { a: 2 }] });
    t.deepEqual((await callTool(w, inv(false), {})).structuredContent, { items: [{ a: 1 }, { a: 2 }] });
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

test("callTool() turns a failing executable into isError with its own one-line error, not its progress", async (t) => {
  const w = world(`process.stderr.write("#1 ✓ 10-ok pass\\nforge-fake view: no thing #9\\n"); process.exitCode = 1;`);
  try {
    const r = await callTool(w, inv(), {});
    t.true(r.isError);
    t.deepEqual(r.content, [{ type: "text", text: "forge-fake view: no thing #9" }]);
    t.is(r.structuredContent, undefined);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

test("callTool() refuses output that is not JSON lines, and a repo outside the root, in one line", async (t) => {
  const w = world(`process.stdout.write("not json\\n");`);
  try {
    const r = await callTool(w, inv(), {});
    t.true(r.isError);
    t.regex((r.content[0] as { text: string }).text, /^forge-mcp: forge-fake view: printed a line that is not JSON$/);
    const out = await callTool(w, inv(), { repo: ".." });
    t.true(out.isError);
    t.regex((out.content[0] as { text: string }).text, /^forge-mcp: repo: "\.\." is outside /);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});
