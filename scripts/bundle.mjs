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
import { join } from "node:path";

/** Run a bundle with no stdin (a form that reads stdin must not wait), in an empty folder (no store), PATH only. */
function run(file, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: scratch,
      env: { PATH: process.env.PATH },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 20_000,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve({ stdout, stderr }) : reject(new Error(`exit ${code}`))));
  });
}
const scratch = mkdtempSync(join(tmpdir(), "forge-bundle-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));
const root = new URL("..", import.meta.url).pathname;
const out = join(root, "bin");
mkdirSync(join(out, "lib"), { recursive: true });
// The repository is "type": "module"; the launchers and bundles are CommonJS.
writeFileSync(join(out, "package.json"), '{ "type": "commonjs" }\n');
const names = [];
for (const dir of readdirSync(join(root, "packages"))) {
  let pkg;
  try {
    pkg = JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8"));
  } catch {
    continue;
  }
  if (pkg.forge?.bin) names.push([pkg.forge.bin, join(root, "packages", dir, "src", "bin.ts")]);
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
  minify: true,
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
// node:crypto (with the stream modules it pulls in, ~4 ms of every start) is loaded the first time one of its
// functions is called: a read (list, view, observe, plan) hashes nothing. Each function is a wrapper exported by
// name, so a bundle keeps only the ones it imports; importing anything else (a class, a constant) fails the build.
const crypto = await import("node:crypto");
const cryptoFns = Object.keys(crypto).filter((k) => /^[a-z][A-Za-z0-9]*$/.test(k) && typeof crypto[k] === "function");
const lazyCrypto = {
  name: "lazy-crypto",
  setup(b) {
    b.onResolve({ filter: /^(node:)?crypto$/ }, (a) =>
      a.namespace === "lazy-crypto"
        ? { path: "node:crypto", external: true }
        : { path: "crypto", namespace: "lazy-crypto" }
    );
    b.onLoad({ filter: /.*/, namespace: "lazy-crypto" }, () => ({
      loader: "js",
      contents:
        `let m;\nconst real = () => (m ??= require("node:crypto"));\n` +
        `${cryptoFns.map((k) => `export function ${k}(...a) { return real().${k}(...a); }`).join("\n")}\n`,
    }));
  },
};
await Promise.all([
  build({
    ...common,
    entryPoints: [join(root, "packages", "core", "src", "frontmatter", "_engine.ts")],
    outfile: join(out, "lib", "engine.cjs"),
  }),
  ...names.map(([name, entry]) =>
    build({
      ...common,
      entryPoints: [entry],
      outfile: join(out, "lib", `${name}.cjs`),
      plugins: [engineApart, lazyCrypto],
    })
  ),
]);

/** The argv forms whose output is cached: help of the root and of every verb, and the version. */
async function forms(name) {
  const lib = join(out, "lib", `${name}.cjs`);
  const base = [[], ["-h"], ["--help"], ["-v"], ["--version"]];
  const { stdout } = await run(process.execPath, [lib, "--help"]);
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

/** Run the bundle for each form; keep what exits 0 with nothing on stderr. */
async function cached(name) {
  const lib = join(out, "lib", `${name}.cjs`);
  const texts = {};
  for (const argv of await forms(name)) {
    try {
      const r = await run(process.execPath, [lib, ...argv]);
      if (r.stderr === "") texts[argv.join("\0")] = r.stdout;
    } catch {
      // not a form that succeeds: the bundle answers it at run time
    }
  }
  // No arguments is cached only where it means help (forge-export, say, reads stdin).
  if (texts[""] !== texts["--help"]) delete texts[""];
  return texts;
}

await Promise.all(
  names.map(async ([name]) => {
    const texts = await cached(name);
    const launcher = `#!/usr/bin/env node
"use strict";
// Generated by scripts/bundle.mjs: cached help and version, else the bundle.
const t = ${JSON.stringify(texts)}[process.argv.slice(2).join("\\0")];
if (typeof t === "string") process.stdout.write(t);
else require("./lib/${name}.cjs");
`;
    const file = join(out, name);
    writeFileSync(`${file}.tmp`, launcher, { mode: 0o755 });
    chmodSync(`${file}.tmp`, 0o755);
    renameSync(`${file}.tmp`, file);
  })
);
