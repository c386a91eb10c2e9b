// Bundle each executable (packages/*/package.json "forge.bin") into one
// minified CommonJS file, bin/lib/<name>.cjs, from the TypeScript sources.
// Verb bodies stay lazy inside the file (dynamic imports become lazy init
// wrappers). CommonJS, not ESM: Node's ESM loader costs ~20 ms of start-up
// per process, paid by every stage of every pipe.
//
// bin/<name> itself is a small launcher: help and version text (which
// depend on nothing but the code) are rendered here, by running the bundle
// once per form, and printed by the launcher without compiling the 200 KB
// bundle (DESIGN §6: --help within 1.5 × `node -e 0`); anything else
// requires the bundle. The help goldens run the launchers, and
// test/budget_test.ts checks every cached text against the bundle's own.
//
// A build with nothing changed takes a few seconds: a file is rewritten only when its bytes change, and the
// bundles are not rebuilt when nothing esbuild reads changed, and the rendered texts are kept in
// node_modules/.cache/forge-bundle/bundle.json under a hash of what they are made from (the bundle, the
// engine, this script, node's version), so a bundle is run only when its code changed.
// A form that crashes or times out is retried, then fails the build with one line: never dropped.
import { build } from "esbuild";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/**
 * Run a bundle with no stdin (a form that reads stdin must not wait), in an empty folder (no store) and with PATH
 * only unless told `cwd` and more `env` (the warm store's runs). Resolves with how it ended: an exit code, or a
 * signal (a timeout is a SIGTERM from `timeout`).
 */
function run(file, args, timeout, cwd = scratch, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(file, args, {
      cwd,
      env: { PATH: process.env.PATH, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      timeout,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", (error) => resolve({ error, stdout, stderr }));
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
/**
 * Run a form until it ends in a way that can be trusted: exit 0, or the same exit code below 128 with the same
 * stderr twice (a form the bundle answers at run time, say a verb that reads stdin). A spawn error, a signal (a
 * timeout), an exit of 128 or more (node killed, out of memory) or two endings that differ are tried again, with
 * a longer timeout; after four tries the build fails with one line naming the form.
 */
async function settle(name, argv) {
  const lib = join(out, "lib", `${name}.cjs`);
  let clean = null;
  let last = "";
  for (const timeout of [30_000, 60_000, 120_000, 120_000]) {
    const r = await run(process.execPath, [lib, ...argv], timeout);
    if (r.error) last = r.error.message;
    else if (r.signal !== null)
      last = `killed by ${r.signal}${r.signal === "SIGTERM" ? ` (timeout ${timeout / 1000} s)` : ""}`;
    else if (r.code >= 128) last = `exit ${r.code}`;
    else if (r.code === 0) return r;
    else if (clean && clean.code === r.code && clean.stderr === r.stderr) return r;
    else {
      last = `exit ${r.code}: ${r.stderr.trim().split("\n")[0]}`;
      clean = r;
    }
  }
  throw new Error(`bundle: ${name} ${argv.join(" ") || "(no arguments)"} did not render: ${last}`);
}
const scratch = mkdtempSync(join(tmpdir(), "forge-bundle-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));
const root = new URL("..", import.meta.url).pathname;
const out = join(root, "bin");
mkdirSync(join(out, "lib"), { recursive: true });
// The repository is "type": "module"; the launchers and bundles are CommonJS.
writeIfChanged(join(out, "package.json"), '{ "type": "commonjs" }\n');
const names = [];
// Every launcher starts node with glibc's malloc held to one arena: V8's compiler and GC threads otherwise each take
// an arena of their own, which glibc trims back to the system and faults in again (a page fault costs ~12 µs on the
// machines this is measured on). A cold `forge-issue list --json` at 10,000 issues: ~20,500 -> ~14,000 page faults,
// 3-12 % less CPU time; at 100,000 its peak RSS stays under 98 MiB. glibc reads the variable only as a process
// starts, so it is set on the #! line (env -S), with the caller's own value (`\${…}`: empty when it had none, or set
// empty) kept beside it; the launcher puts that back before anything runs, so no command forge starts inherits it.
const ARENA = "MALLOC_ARENA_MAX";
const SAVED_ARENA = "FORGE_SAVED_MALLOC_ARENA_MAX";
// Each executable's node flags (package.json: forge.nodeFlags), on its launcher's #! line: V8's heap flags, which
// node takes only on its command line. Its code cache is made under the same flags (V8 rejects one made under others).
const nodeFlags = new Map();
function checkedFlags(name, flags) {
  if (!Array.isArray(flags) || !flags.every((f) => typeof f === "string" && /^--[a-z][a-z0-9-]*(=[0-9]+)?$/.test(f)))
    throw new Error(`bundle: ${name}: forge.nodeFlags must be flags such as "--max-semi-space-size=1"`);
  return flags;
}
for (const dir of readdirSync(join(root, "packages"))) {
  let pkg;
  try {
    pkg = JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8"));
  } catch {
    continue;
  }
  if (pkg.forge?.bin) {
    names.push([pkg.forge.bin, join(root, "packages", dir, "src", "bin.ts")]);
    nodeFlags.set(pkg.forge.bin, checkedFlags(pkg.forge.bin, pkg.forge.nodeFlags ?? []));
  }
}
// The build's identity, the same in every bundle: a hash of what the bundles are made from (sources,
// the lockfile, this script). Caches that hold what code computed (forge-observe's kernel view) are kept
// under it, so a forge built from other sources never trusts them (core: buildId()).
const filesUnder = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]
  );
const packageSources = readdirSync(join(root, "packages"))
  .map((d) => join(root, "packages", d, "src"))
  .filter((d) => existsSync(d))
  .flatMap(filesUnder)
  .filter((f) => !f.endsWith("_test.ts"));
const buildHash = createHash("sha256");
for (const f of [
  ...packageSources,
  ...filesUnder(join(root, "scripts", "stubs")),
  join(root, "pnpm-lock.yaml"),
  new URL(import.meta.url).pathname,
].sort()) {
  buildHash
    .update(f.slice(root.length) + "\0")
    .update(readFileSync(f))
    .update("\0");
}
const buildId = buildHash.digest("hex").slice(0, 32);
// The general YAML path (gray-matter + yaml, core's frontmatter/_engine.ts: about half of each bundle)
// is its own file, bin/lib/engine.cjs, required the first time frontmatter needs it: every process
// compiles only what it runs (DESIGN §6 start-up budgets).
const common = {
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  minify: process.env.FORGE_BUNDLE_MINIFY !== "0",
  conditions: ["source"],
  legalComments: "none",
  logLevel: "warning",
  alias: { "js-yaml": join(root, "scripts", "stubs", "js-yaml.cjs") },
  define: { __FORGE_BUILD__: JSON.stringify(buildId) },
};
const engineApart = {
  name: "engine-apart",
  setup(b) {
    // core's `import("./_engine.js")` becomes a lazy `require` of the file beside the bundle (no ESM loader).
    b.onResolve({ filter: /^\.\/_engine\.js$/ }, () => ({ path: "engine", namespace: "engine-apart" }));
    b.onLoad({ filter: /.*/, namespace: "engine-apart" }, () => ({
      contents: 'module.exports = require("./engine.cjs");',
      loader: "js",
    }));
    b.onResolve({ filter: /^\.\/engine\.cjs$/ }, () => ({ path: "./engine.cjs", external: true }));
  },
};
// node:crypto (with the stream modules it pulls in, ~4 ms of every start), node:child_process (~3 ms: a list
// or view whose origin is cached runs no git), node:zlib (~4 ms: only zip archives need it), node:v8 (~1.3 ms:
// only a cold list of a big store bounds its heap) and node:worker_threads (~1.7 ms: only a long filtered list
// starts a thread) are loaded the
// first time one of their functions is called: a read (list, view, observe, plan) hashes nothing. Each function
// is a wrapper exported by name, so a bundle keeps only the ones it imports; a class in `lazyClasses` is a
// wrapper that constructs the real one (with `new`: it is not the class, so no instanceof); importing anything
// else (another class, a constant) fails the build.
const lazyClasses = { worker_threads: ["Worker"] };
const lazyModules = {};
for (const m of ["crypto", "child_process", "zlib", "v8", "worker_threads"]) {
  const real = await import(`node:${m}`);
  lazyModules[m] = Object.keys(real).filter((k) => /^[a-z][A-Za-z0-9]*$/.test(k) && typeof real[k] === "function");
}
const lazyBuiltins = {
  name: "lazy-builtins",
  setup(b) {
    b.onResolve({ filter: /^(node:)?(crypto|child_process|zlib|v8|worker_threads)$/ }, (a) =>
      a.namespace === "lazy-builtins"
        ? { path: a.path, external: true }
        : { path: a.path.replace(/^node:/, ""), namespace: "lazy-builtins" }
    );
    const call = (k) => `export function ${k}(...a) { return real().${k}(...a); }\n`;
    const make = (k) => `export function ${k}(...a) { return new (real().${k})(...a); }\n`;
    b.onLoad({ filter: /.*/, namespace: "lazy-builtins" }, (a) => ({
      loader: "js",
      contents:
        `let m;\nconst real = () => (m ??= require("node:${a.path}"));\n` +
        lazyModules[a.path].map(call).join("") +
        (lazyClasses[a.path] ?? []).map(make).join(""),
    }));
  },
};
/**
 * Write `bytes` to `file` atomically, and only when they differ (a no-change build leaves bin/ untouched);
 * `beforeReplace` runs first when they do.
 */
function writeIfChanged(file, bytes, mode, beforeReplace) {
  const old = existsSync(file) ? readFileSync(file) : null;
  if (old !== null && Buffer.compare(old, Buffer.from(bytes)) === 0) return;
  beforeReplace?.();
  writeFileSync(`${file}.tmp`, bytes, mode === undefined ? {} : { mode });
  if (mode !== undefined) chmodSync(`${file}.tmp`, mode);
  renameSync(`${file}.tmp`, file);
}
// What this script keeps between builds (node_modules/.cache/forge-bundle/bundle.json): `bundles`, the hash of
// everything esbuild reads with the hash of each file it wrote; `help`, by executable, the rendered texts under
// the hash of what rendered them.
const cacheFile = join(root, "node_modules", ".cache", "forge-bundle", "bundle.json");
let cache = { bundles: {}, help: {} };
try {
  const kept = JSON.parse(readFileSync(cacheFile, "utf8"));
  if (kept?.bundles && kept.help && typeof kept.bundles === "object" && typeof kept.help === "object") cache = kept;
} catch {
  // no cache yet, or an unreadable one: everything is built and rendered
}
const sha = (bytes) => createHash("sha256").update(bytes).digest("hex");
// esbuild's inputs beyond the build id's (sources, stubs, lockfile, this script): the packages' manifests and
// tsconfigs (resolution) and node's version (the crypto wrappers list node:crypto's functions).
const bundleInputs = createHash("sha256").update(`${buildId}\0${process.version}\0`);
for (const f of [
  ...readdirSync(join(root, "packages")).flatMap((d) => [
    join(root, "packages", d, "package.json"),
    join(root, "packages", d, "tsconfig.json"),
  ]),
  ...readdirSync(root)
    .filter((f) => /^tsconfig.*\.json$/.test(f))
    .map((f) => join(root, f)),
]
  .filter((f) => existsSync(f))
  .sort()) {
  bundleInputs
    .update(f.slice(root.length) + "\0")
    .update(readFileSync(f))
    .update("\0");
}
const bundlesKey = bundleInputs.update(String(common.minify)).digest("hex");
const outputs = [join(out, "lib", "engine.cjs"), ...names.map(([name]) => join(out, "lib", `${name}.cjs`))];
const unchanged =
  cache.bundles.key === bundlesKey &&
  outputs.every((f) => existsSync(f) && cache.bundles.files?.[f.slice(root.length)] === sha(readFileSync(f)));
if (!unchanged) {
  const built = (r) => {
    // A code cache is only ever beside the bundle it was made from (V8 checks little more than its length).
    for (const f of r.outputFiles)
      writeIfChanged(f.path, f.contents, undefined, () => rmSync(v8Of(f.path), { force: true }));
  };
  await Promise.all([
    build({
      ...common,
      write: false,
      entryPoints: [join(root, "packages", "core", "src", "frontmatter", "_engine.ts")],
      outfile: join(out, "lib", "engine.cjs"),
    }).then(built),
    ...names.map(([name, entry]) =>
      build({
        ...common,
        write: false,
        entryPoints: [entry],
        outfile: join(out, "lib", `${name}.cjs`),
        plugins: [engineApart, lazyBuiltins],
      }).then(built)
    ),
  ]);
  cache.bundles = {
    key: bundlesKey,
    files: Object.fromEntries(outputs.map((f) => [f.slice(root.length), sha(readFileSync(f))])),
  };
}

/** Where a bundle's V8 code cache is kept: `lib/<name>.v8`. */
function v8Of(lib) {
  return lib.replace(/\.cjs$/, ".v8");
}

// How a launcher runs its bundle when the code cache is there: compiled from the cache (V8 rejects one made by
// another node or with other flags, and compiles as usual), run as require() would run it. The producer runs the
// same way, and writes the cache as the process exits, with the functions that run compiled.
const RUN_BUNDLE = `const M = require("module"), vm = require("vm"), d = require("path").dirname(f);
const s = new vm.Script(M.wrap(require("fs").readFileSync(f, "utf8")), {
  filename: f, cachedData: c, importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
const m = new M(f, module);
m.filename = f;
require.cache[f] = m;
s.runInThisContext().call(m.exports, m.exports, M.createRequire(f), m, f, d);
m.loaded = true;`;

// The run a bundle's code cache is made from: what runs is compiled into it, the rest is compiled on first call.
// `--help` is the start-up every verb shares; a noun's `list --json`, in a small store made here (warmStore),
// is what most of its commands run besides (the store, the caches, frontmatter, JSON out): ~3 ms less compile
// for `list | head -1`, ~5 ms for `create`.
const WARM_RUNS = { "forge-issue": ["list", "--json"], "forge-pr": ["list", "--json"] };
let warm;
/**
 * A folder with a git repository and a store of two issues (a label, a comment), its caches made, for the
 * WARM_RUNS; null when it could not be made (the code caches are then made from `--help`). Made once, when a
 * code cache is to be made.
 */
function warmStore() {
  return (warm ??= (async () => {
    const dir = join(scratch, "warm");
    mkdirSync(dir);
    const env = { FORGE_AUTHOR: "warm", GIT_CONFIG_NOSYSTEM: "1", HOME: dir };
    const succeeds = async ([what, args]) => {
      const [file, argv] =
        what === "git" ? ["git", args] : [process.execPath, [join(out, "lib", `${what}.cjs`), ...args]];
      const r = await run(file, argv, 60_000, dir, env);
      return !r.error && r.code === 0;
    };
    const make = [
      ["git", ["init", "-q"]],
      ["forge", ["init"]],
      ["forge-issue", ["create", "-t", "Warm up", "-b", "the code cache", "-l", "bug"]],
      ["forge-issue", ["create", "-t", "Another", "-b", "with a comment"]],
      ["forge-issue", ["comment", "2", "-b", "a comment"]],
    ];
    const warmCaches = [
      ["forge-issue", ["list", "--json"]],
      ["forge-pr", ["list", "--json"]],
    ];
    for (const step of make) if (!(await succeeds(step))) return null;
    // The records of files written in the last 50 ms are not cached (racy clean).
    await new Promise((ok) => setTimeout(ok, 120));
    for (const step of warmCaches) if (!(await succeeds(step))) return null;
    return { dir, env };
  })());
}

/**
 * Make `lib/<name>.v8`, the code cache of the bundle, from a run of its WARM_RUNS argv in warmStore (else of its
 * `--help`: about 10 ms of each process's compile). Kept while the bundle, the argv and node are the same.
 */
async function codeCache(name) {
  const lib = join(out, "lib", `${name}.cjs`);
  const file = v8Of(lib);
  const flags = nodeFlags.get(name);
  const keyOf = (argv) => `${process.version}\0${flags.join(" ")}\0${argv.join(" ")}\0${sha(readFileSync(lib))}`;
  const kept = cache.v8?.[name];
  // Kept only when made from the run it would be made from now (one from --help, the warm store having failed, is
  // made again).
  if (kept?.key === keyOf(WARM_RUNS[name] ?? ["--help"]) && existsSync(file) && sha(readFileSync(file)) === kept.sha)
    return;
  rmSync(file, { force: true });
  const store = WARM_RUNS[name] ? await warmStore() : null;
  const argv = store ? WARM_RUNS[name] : ["--help"];
  const key = keyOf(argv);
  const producer = `const f = process.argv[1], c = undefined, out = process.argv[2];
process.argv = [process.argv[0], f, ...${JSON.stringify(argv)}];
process.on("exit", () => require("fs").writeFileSync(out + ".tmp", s.createCachedData()));
${RUN_BUNDLE}`;
  const r = await run(process.execPath, [...flags, "-e", producer, lib, file], 60_000, store?.dir, store?.env);
  if (r.error || r.code !== 0 || !existsSync(`${file}.tmp`)) {
    // No cache: the launcher requires the bundle (only start-up time is lost).
    rmSync(`${file}.tmp`, { force: true });
    return;
  }
  renameSync(`${file}.tmp`, file);
  (cache.v8 ??= {})[name] = { key, sha: sha(readFileSync(file)) };
}

/** The argv forms whose output is cached: help of the root and of every verb, and the version. */
async function forms(name) {
  const base = [[], ["-h"], ["--help"], ["-v"], ["--version"]];
  const { code, stdout, stderr } = await settle(name, ["--help"]);
  if (code !== 0) throw new Error(`bundle: ${name} --help exited ${code}: ${stderr.trim().split("\n")[0]}`);
  // A noun's root help lists its verbs on a "commands:" line; forge's, its own commands.
  const verbs = (/^commands: (.+)$/m.exec(stdout)?.[1] ?? "").split(" ").filter(Boolean);
  if (name === "forge") verbs.push("init");
  // forge-pilot's help is its own (no "commands:" line): its verbs are named here.
  if (name === "forge-pilot") verbs.push("run", "observe", "plan", "explain");
  const extra = name === "forge" ? [["--skill"]] : [];
  return [
    ...base,
    ...extra,
    ...verbs.flatMap((v) => [
      [v, "-h"],
      [v, "--help"],
    ]),
  ];
}

/** Run the bundle for each form; keep what exits 0 with nothing on stderr (any other form is answered at run time). */
async function render(name) {
  const texts = {};
  for (const argv of await forms(name)) {
    const r = await settle(name, argv);
    if (r.code === 0 && r.stderr === "") texts[argv.join("\0")] = r.stdout;
  }
  // No arguments is cached only where it means help (forge-export, say, reads stdin).
  if (texts[""] !== texts["--help"]) delete texts[""];
  return texts;
}

// The rendered texts, by executable, each under the hash of what rendered it.
// The build id (a hash of every package's sources) is in each bundle's bytes but never in what a form prints:
// it is left out of the key, so a change to one package re-renders only the bundles whose code changed.
const code = (file) => readFileSync(file, "latin1").replaceAll(buildId, "");
const engineCode = code(join(out, "lib", "engine.cjs"));
const scriptBytes = readFileSync(new URL(import.meta.url));
function renderKey(name) {
  return createHash("sha256")
    .update(`${process.version}\0`)
    .update(scriptBytes)
    .update("\0")
    .update(engineCode, "latin1")
    .update("\0")
    .update(code(join(out, "lib", `${name}.cjs`)), "latin1")
    .digest("hex");
}
async function cached(name) {
  const key = renderKey(name);
  if (cache.help[name]?.key === key) return cache.help[name].texts;
  const texts = await render(name);
  cache.help[name] = { key, texts };
  return texts;
}

const launched = await Promise.allSettled(
  names.map(async ([name]) => {
    const texts = await cached(name);
    await codeCache(name);
    const flags = nodeFlags.get(name);
    const launcher = `#!/usr/bin/env -S ${SAVED_ARENA}=\${${ARENA}} ${ARENA}=1 node${flags.map((f) => ` ${f}`).join("")}
"use strict";
// Generated by scripts/bundle.mjs: cached help and version, else the bundle (from its code cache when there is one).
// What this process runs gets the environment as it came (the #! line set ${ARENA} for node alone).
{
  const e = process.env, v = e.${SAVED_ARENA};
  if (v !== undefined) {
    delete e.${SAVED_ARENA};
    if (v === "") delete e.${ARENA};
    else e.${ARENA} = v;
  }
}
const t = ${JSON.stringify(texts)}[process.argv.slice(2).join("\\0")];
if (typeof t === "string") process.stdout.write(t);
else {
const f = __dirname + "/lib/${name}.cjs";
let c;
try {
  const v8 = __dirname + "/lib/${name}.v8";
  if (require("vm").constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER) c = require("fs").readFileSync(v8);
} catch {}
if (c === undefined) require(f);
else {
${RUN_BUNDLE}
}
}
`;
    writeIfChanged(join(out, name), launcher, 0o755);
  })
);
mkdirSync(dirname(cacheFile), { recursive: true });
writeIfChanged(cacheFile, `${JSON.stringify(cache)}\n`);
const failed = launched.find((r) => r.status === "rejected");
if (failed) {
  console.error(failed.reason instanceof Error ? failed.reason.message : String(failed.reason));
  process.exitCode = 1;
}
