import test from "ava";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { stripCode } from "./strip_code.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const CHECK = join(ROOT, "tools", "dist", "check_style.js");

/** A temp tree of `files` (path → text; an object is written as package.json). */
function tree(files: Record<string, string | object>): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "forge-style-")));
  for (const [path, body] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), typeof body === "string" ? body : JSON.stringify(body, null, 2) + "\n");
  }
  return dir;
}

function check(root: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [CHECK, "--root", root, ...args], { encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, lines: r.stdout.split("\n").filter(Boolean) };
}

const pkg = (name: string, bin?: string, deps: string[] = []) => ({
  name: `@forge/${name}`,
  ...(deps.length ? { dependencies: Object.fromEntries(deps.map((d) => [`@forge/${d}`, "workspace:*"])) } : {}),
  ...(bin ? { forge: { bin } } : {}),
});

const long = (n: number, ch = "x") => `// ${ch.repeat(n - 3)}\n`;

/** core with every kind of harmless mention, then real calls at lines 9, 10 and 11. */
const CORE_X = [
  '// console.log("in a comment"); process.exit(1)',
  '/* process.stdout.write("x")',
  "   console.error() */",
  "const a = \"console.log('in a string')\" + 'process.exit(2)';",
  "const b = `process.argv ${a.length} console.warn`;",
  "const c = /console\\.log|process\\.exit/.test(a) ? 1 : 2 / 3;",
  "const d = { console: 1, process: 2 }.console + c;",
  "export const e = a + b + d + process.env.HOME;",
  "console.log(e);",
  "if (e) process.exitCode = 1;",
  'export const f = `${process.stderr.write("x")}`;',
  "",
].join("\n");

function plantedTree(): string {
  return tree({
    "packages/core/package.json": pkg("core"),
    "packages/core/src/x.ts": CORE_X,
    "packages/core/src/x_test.ts": "console.log(1);\nprocess.exit(0);\n",
    "packages/core/src/_fixture.ts": "process.stdout.write('x');\n",
    "packages/kernel/package.json": pkg("kernel"),
    "packages/kernel/src/testing.ts": "console.log(1);\n",
    "packages/kernel/src/y.ts": 'export const y = 1;\n\nprocess.on("exit", () => {});\n',
    "packages/issue/package.json": pkg("issue", "forge-issue"),
    "packages/issue/src/mod.ts": "console.log('an executable may print');\nprocess.exit(0);\n",
    "packages/a/package.json": pkg("a", "forge-a"),
    "packages/a/src/mod.ts": "export const a = 1;\n",
    "packages/b/package.json": pkg("b", "forge-b", ["a", "core"]),
    "packages/b/src/mod.ts": [
      'import { a } from "@forge/a";',
      'import { core } from "@forge/core";',
      '// import { a } from "@forge/a";',
      'const s = "@forge/a";',
      'export const lib = await import("@forge/a/lib");',
      'export { self } from "@forge/b";',
      "",
    ].join("\n"),
    "packages/b/src/mod_test.ts": "import test from \"ava\";\nimport type { A } from '@forge/a';\n",
    "packages/b/dist/mod.js": 'import { a } from "@forge/a";\n' + long(200),
    "tools/t.ts": "const ok = 1;\n" + long(121) + long(120, "→"),
    "scripts/s.mjs": long(130),
    "test/e2e_test.ts": 'import { a } from "@forge/a";\n' + long(121),
    "test/tmp/junk.ts": long(300),
  });
}

test("check_style: each rule fires on its planted violation, with file:line and rule", (t) => {
  const dir = plantedTree();
  try {
    const r = check(dir);
    t.is(r.code, 1, r.stderr);
    t.deepEqual(r.lines, [
      "packages/b/package.json:4: imports-executable: dependencies lists @forge/a, an executable (forge-a)",
      "packages/b/src/mod.ts:1: imports-executable: imports @forge/a, an executable (forge-a)",
      "packages/b/src/mod.ts:5: imports-executable: imports @forge/a/lib, an executable (forge-a)",
      "packages/b/src/mod_test.ts:2: imports-executable: imports @forge/a, an executable (forge-a)",
      "packages/core/src/x.ts:9: library-io: a console call in a library",
      "packages/core/src/x.ts:10: library-io: process.exitCode in a library",
      "packages/core/src/x.ts:11: library-io: process.stderr in a library",
      "packages/kernel/src/y.ts:3: library-io: process.on in a library",
      "scripts/s.mjs:1: line-length: 130 characters (at most 120)",
      "test/e2e_test.ts:2: line-length: 121 characters (at most 120)",
      "tools/t.ts:2: line-length: 121 characters (at most 120)",
      "11 violations (4 library-io, 4 imports-executable, 3 line-length)",
    ]);
    // A PATH limits the report to the files under it.
    const only = check(dir, join(dir, "packages", "core"));
    t.is(only.code, 1);
    t.is(only.lines.length, 4);
    t.regex(only.lines[3]!, /^3 violations \(3 library-io, 0 imports-executable, 0 line-length\)$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("check_style: comments, strings, templates and regexes mentioning console or process do not fire", (t) => {
  const dir = tree({
    "packages/core/package.json": pkg("core"),
    "packages/core/src/x.ts": CORE_X.split("\n").slice(0, 8).join("\n") + "\n",
    "packages/contract/package.json": pkg("contract"),
    "packages/contract/src/c.ts":
      "/** @example for await (const l of read(process.stdin)) console.log(l) */\nexport {};\n",
  });
  try {
    const r = check(dir);
    t.is(r.code, 0, r.stdout);
    t.is(r.stdout, "");
    t.regex(r.stderr, /no violations/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("check_style: a clean tree passes with exit 0; a 120-character line of → is not too long", (t) => {
  const dir = tree({
    "packages/core/package.json": pkg("core"),
    "packages/core/src/x.ts": "export const x = 1;\n" + long(120, "→"),
    "packages/issue/package.json": pkg("issue", "forge-issue", ["core"]),
    "packages/issue/src/mod.ts": 'import { x } from "@forge/core";\nconsole.log(x);\n',
    "tools/t.ts": long(120),
  });
  try {
    const r = check(dir);
    t.is(r.code, 0, r.stdout);
    t.is(r.stdout, "");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("check_style: a library importing an executable fails; an executable importing a library passes", (t) => {
  const exeOnLib = tree({
    "packages/cli/package.json": pkg("cli"),
    "packages/cli/src/mod.ts": "export const kit = 1;\n",
    "packages/ci/package.json": pkg("ci", "forge-ci", ["cli"]),
    "packages/ci/src/mod.ts": 'import { kit } from "@forge/cli";\nexport const run = kit;\n',
  });
  const libOnExe = tree({
    "packages/cli/package.json": pkg("cli"),
    "packages/cli/src/mod.ts": 'export const kit = 1;\n\nexport const ci = () => import("@forge/ci");\n',
    "packages/ci/package.json": pkg("ci", "forge-ci", ["cli"]),
    "packages/ci/src/mod.ts": 'import { kit } from "@forge/cli";\nexport const run = kit;\n',
  });
  try {
    const ok = check(exeOnLib);
    t.is(ok.code, 0, ok.stdout);
    const bad = check(libOnExe);
    t.is(bad.code, 1);
    t.deepEqual(bad.lines, [
      "packages/cli/src/mod.ts:3: imports-executable: imports @forge/ci, an executable (forge-ci)",
      "1 violation (0 library-io, 1 imports-executable, 0 line-length)",
    ]);
  } finally {
    rmSync(exeOnLib, { recursive: true, force: true });
    rmSync(libOnExe, { recursive: true, force: true });
  }
});

test("check_style: an unknown flag is a usage error (exit 2)", (t) => {
  const r = spawnSync(process.execPath, [CHECK, "--bogus"], { encoding: "utf8" });
  t.is(r.status, 2);
  t.regex(r.stderr, /unknown flag --bogus/);
});

test("stripCode() blanks comments, strings and regexes, keeps code, lengths and template substitutions", (t) => {
  const src = "a = 'x' /* c */ + `t${ b + \"s\" }u` // d\nr = /[/]'/g; q = a / 2 / 3;";
  const { code, literals, comments } = stripCode(src);
  t.is(code.length, src.length);
  t.is(code, "a = ' '         + ` ${ b + \" \" } `     \nr = /    /g; q = a / 2 / 3;");
  t.deepEqual(
    literals.map((l) => l.value),
    ["x", "s"]
  );
  t.deepEqual(
    comments.map((c) => [c.kind, src.slice(c.start, c.end)]),
    [
      ["block", "/* c */"],
      ["line", "// d"],
    ]
  );
});

test("this repository keeps the house rules (pnpm typecheck runs the same check)", (t) => {
  const r = check(ROOT);
  t.is(r.code, 0, r.stdout.split("\n").slice(0, 20).join("\n"));
  t.deepEqual(r.lines, []);
});
