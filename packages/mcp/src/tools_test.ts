import test from "ava";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveRepo } from "./repo.js";
import { ToolArgError, TOOLS } from "./tools.js";

const tool = (name: string) => TOOLS.find((t) => t.name === name)!;

test("invocation() turns arguments into the executable's argv, values as --flag=value", (t) => {
  t.deepEqual(tool("issue").invocation({ verb: "create", title: "-x", body: "b", label: "bug,ui" }), {
    exe: "forge-issue",
    argv: ["create", "--title=-x", "--body=b", "--label=bug,ui", "--json"],
    stdin: undefined,
    many: false,
  });
  t.deepEqual(tool("issue").invocation({ verb: "list", state: "all", fields: "number,title" }).argv, [
    "list",
    "--state=all",
    "--json=number,title",
  ]);
  t.true(tool("issue").invocation({ verb: "list" }).many);
  t.deepEqual(tool("task").invocation({ verb: "move", status: "doing", number: 3 }).argv, [
    "move",
    "3",
    "doing",
    "--json",
  ]);
  t.deepEqual(tool("pilot").invocation({ verb: "run", maxIterations: 2 }).argv, [
    "run",
    "--max-iterations=2",
    "--json",
  ]);
});

test("invocation() repeats an array flag and hands a report to stdin", (t) => {
  t.deepEqual(tool("loop").invocation({ verb: "start", task: "t", criterion: ["a", "b"] }).argv, [
    "start",
    "--task=t",
    "--criterion=a",
    "--criterion=b",
    "--json",
  ]);
  const next = tool("loop").invocation({ verb: "next", loop: "abcd", report: { outcome: "success" } });
  t.deepEqual(next.argv, ["next", "abcd", "--report=-", "--json"]);
  t.is(next.stdin, '{"outcome":"success"}');
});

test("invocation() refuses an argument its verb does not take, and an unknown verb", (t) => {
  t.throws(() => tool("issue").invocation({ verb: "create", title: "x", state: "open" }), {
    instanceOf: ToolArgError,
    message: "issue create: 'state' does not apply",
  });
  t.throws(() => tool("pr").invocation({ verb: "frob" }), { message: "pr: unknown verb 'frob'" });
});

test("every verb in a tool's enum has an invocation, and every tool takes repo", (t) => {
  for (const x of TOOLS) {
    const props = (x.inputSchema as { properties: Record<string, { enum?: string[] }> }).properties;
    for (const verb of props.verb!.enum!) t.notThrows(() => x.invocation({ verb }), `${x.name} ${verb}`);
    t.truthy(props.repo, `${x.name}: repo`);
  }
});

test("resolveRepo() keeps a folder inside the root and refuses one outside it, through .. or a symlink", (t) => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "forge-mcp-unit-")));
  const outside = realpathSync(mkdtempSync(join(tmpdir(), "forge-mcp-out-")));
  try {
    mkdirSync(join(root, ".forge"));
    mkdirSync(join(root, "sub"));
    writeFileSync(join(root, "file"), "");
    symlinkSync(outside, join(root, "link"));
    t.is(resolveRepo(root, undefined), root);
    t.is(resolveRepo(root, "sub"), join(root, "sub"));
    t.is(resolveRepo(root, join(root, "sub")), join(root, "sub"));
    for (const bad of ["..", "/", "sub/../..", "link", outside, "missing", "file", "", 3]) {
      t.throws(() => resolveRepo(root, bad), { instanceOf: ToolArgError }, String(bad));
    }
    const inner = join(root, "inner");
    mkdirSync(inner);
    t.throws(
      () => resolveRepo(inner, undefined),
      { message: /no \.forge\/ store/ },
      "a store above the root is not used"
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  }
});
