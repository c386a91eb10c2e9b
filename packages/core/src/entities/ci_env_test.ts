import test from "ava";
import { ciSettings, formatCiEnv, parseCiEnv } from "./ci_env.js";

const FILE = ".forge/ci/ci.env";

test("parseCiEnv() reads a comment and a setting", (t) => {
  t.deepEqual(parseCiEnv("# posture\nrunner=docker\n", "ci.env"), [
    { text: "# posture" },
    { key: "runner", value: "docker" },
  ]);
});

test("formatCiEnv() writes a comment and a setting", (t) => {
  t.is(formatCiEnv([{ text: "# posture" }, { key: "runner", value: "docker" }]), "# posture\nrunner=docker\n");
});

test("parseCiEnv() then formatCiEnv() gives back the same bytes, comments and blank lines included", (t) => {
  const text =
    "# CI settings\n\nrunner=local\ntimeout=600\n   \n# passed to " +
    "steps\nNODE_OPTIONS=--max-old-space-size=4096\nGREETING=hello # not a comment\nEMPTY=\n";
  t.is(formatCiEnv(parseCiEnv(text, FILE)), text);
});

test("parseCiEnv() reads an empty file as no entries", (t) => {
  t.deepEqual(parseCiEnv("", FILE), []);
  t.is(formatCiEnv([]), "");
});

test("parseCiEnv() accepts a missing final newline and formatCiEnv() adds it", (t) => {
  t.is(formatCiEnv(parseCiEnv("runner=local", FILE)), "runner=local\n");
});

test("parseCiEnv() takes the value literally: no quotes, no expansion, = kept", (t) => {
  t.deepEqual(parseCiEnv(`A="x y"\nB=$HOME\nC=a=b\n`, FILE), [
    { key: "A", value: `"x y"` },
    { key: "B", value: "$HOME" },
    { key: "C", value: "a=b" },
  ]);
});

const invalid = test.macro({
  exec(t, text: string, message: string) {
    const err = t.throws(() => parseCiEnv(text, FILE));
    t.is(err?.message, message);
    t.is((err as { code?: string }).code, "E_INVALID_FILE");
  },
  title: (what) => `parseCiEnv() rejects ${what ?? ""}, naming the file and the line`,
});

test(
  "a line without =",
  invalid,
  "runner=local\nexport FOO\n",
  `${FILE}: line 2: expected KEY=value, a '#' comment or a blank line`
);
test("spaces around =", invalid, "FOO = bar\n", `${FILE}: line 1: expected KEY=value, a '#' comment or a blank line`);
test("an indented pair", invalid, "  FOO=bar\n", `${FILE}: line 1: expected KEY=value, a '#' comment or a blank line`);
test(
  "an unknown lower-case setting",
  invalid,
  "runer=docker\n",
  `${FILE}: line 1: unknown setting 'runer' (settings: runner, image, timeout, base, keep_runs, cache, cache_key, ` +
    "cache_step, keep_caches, hosts; variables: UPPER_CASE)"
);
test(
  "a mixed-case key",
  invalid,
  "Foo=1\n",
  `${FILE}: line 1: unknown setting 'Foo' (settings: runner, image, timeout, base, keep_runs, cache, cache_key, ` +
    "cache_step, keep_caches, hosts; variables: UPPER_CASE)"
);
test(
  "a cache path that climbs out of the tree",
  invalid,
  "cache=node_modules ../x\n",
  `${FILE}: line 1: 'cache': '../x': expected a path relative to the tree (no '..', no leading '/')`
);
test(
  "a cache step that is not a step's name",
  invalid,
  "cache_step=install\n",
  `${FILE}: line 1: 'cache_step': expected a step's name, e.g. 05-install`
);
test("a duplicate key", invalid, "A=1\n\nA=2\n", `${FILE}: line 3: duplicate key 'A'`);
test(
  "a runner that is neither local nor docker",
  invalid,
  "runner=ssh\n",
  `${FILE}: line 1: 'runner': expected local, docker or adapter:CMD`
);
test(
  "an empty image",
  invalid,
  "runner=docker\nimage=\n",
  `${FILE}: line 2: 'image': expected an image name without spaces around it`
);
test(
  "a timeout that is not a whole number",
  invalid,
  "timeout=1.5\n",
  `${FILE}: line 1: 'timeout': expected a whole number of seconds ≥ 1`
);
test("a zero timeout", invalid, "timeout=0\n", `${FILE}: line 1: 'timeout': expected a whole number of seconds ≥ 1`);
test("a CRLF line ending", invalid, "runner=local\r\n", `${FILE}: line 1: carriage return (use LF line endings)`);

test("ciSettings() defaults the runner to local and collects the variables", (t) => {
  t.deepEqual(ciSettings(parseCiEnv("# x\nCI=1\nNODE_ENV=test\n", FILE)), {
    runner: "local",
    env: { CI: "1", NODE_ENV: "test" },
  });
});

test("ciSettings() reads runner, image and timeout", (t) => {
  t.deepEqual(ciSettings(parseCiEnv("runner=docker\nimage=node:20-bookworm\ntimeout=900\n", FILE)), {
    runner: "docker",
    image: "node:20-bookworm",
    timeout: 900,
    env: {},
  });
});

test("ciSettings() reads base, the default base branch of pull requests", (t) => {
  t.deepEqual(ciSettings(parseCiEnv("base=trunk\n", FILE)), { runner: "local", base: "trunk", env: {} });
});

test("an empty base", invalid, "base=\n", `${FILE}: line 1: 'base': expected a branch name`);
test(
  "a base that looks like a flag",
  invalid,
  "base=--upload-pack=x\n",
  `${FILE}: line 1: 'base': expected a branch name`
);
test("a base with a space", invalid, "base=a b\n", `${FILE}: line 1: 'base': expected a branch name`);

test("ciSettings() of runner=docker and a variable", (t) => {
  t.deepEqual(
    ciSettings([
      { key: "runner", value: "docker" },
      { key: "CI", value: "1" },
    ]),
    { runner: "docker", env: { CI: "1" } }
  );
});

test("formatCiEnv() refuses a value with a newline", (t) => {
  t.throws(() => formatCiEnv([{ key: "A", value: "1\nrunner=docker" }]), { instanceOf: TypeError });
});

test("formatCiEnv() refuses a text line that is not a comment", (t) => {
  t.throws(() => formatCiEnv([{ text: "runner=docker" }]), { instanceOf: TypeError });
});

test("ciSettings() reads the dependency cache: paths and key files split on spaces", (t) => {
  const text =
    "cache=node_modules packages/a/node_modules\ncache_key=pnpm-lock.yaml\ncache_step=05-install\nkeep_caches=2\n";
  t.deepEqual(ciSettings(parseCiEnv(text, FILE)), {
    runner: "local",
    cache: ["node_modules", "packages/a/node_modules"],
    cacheKey: ["pnpm-lock.yaml"],
    cacheStep: "05-install",
    keepCaches: 2,
    env: {},
  });
});
