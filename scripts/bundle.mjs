// Bundle each executable (packages/*/package.json "forge.bin") into one
// minified CommonJS file in bin/, from the TypeScript sources. Verb bodies
// stay lazy inside the file (dynamic imports become lazy init wrappers).
// CommonJS, not ESM: Node's ESM loader costs ~20 ms of start-up per process,
// paid by every stage of every pipe.
import { build } from "esbuild";
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const out = join(root, "bin");
mkdirSync(out, { recursive: true });
// The repository is "type": "module"; the extensionless bins are CommonJS.
writeFileSync(join(out, "package.json"), '{ "type": "commonjs" }\n');
const jobs = [];
for (const dir of readdirSync(join(root, "packages"))) {
  let pkg;
  try {
    pkg = JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8"));
  } catch {
    continue;
  }
  const name = pkg.forge?.bin;
  if (!name) continue;
  const outfile = join(out, name);
  jobs.push(
    build({
      entryPoints: [join(root, "packages", dir, "src", "bin.ts")],
      outfile,
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      minify: true,
      conditions: ["source"],
      legalComments: "none",
      logLevel: "warning",
      banner: { js: "#!/usr/bin/env node" },
      alias: { "js-yaml": join(root, "scripts", "stubs", "js-yaml.cjs") },
    }).then(() => chmodSync(outfile, 0o755)),
  );
}
await Promise.all(jobs);
