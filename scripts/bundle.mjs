// Bundle each executable (packages/*/package.json "forge.bin") into one
// minified ESM file in bin/, from the TypeScript sources. Verb bodies stay
// lazy inside the file (dynamic imports become lazy init wrappers).
import { build } from "esbuild";
import { chmodSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const out = join(root, "bin");
mkdirSync(out, { recursive: true });
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
      format: "esm",
      target: "node20",
      minify: true,
      conditions: ["source"],
      legalComments: "none",
      logLevel: "warning",
      // gray-matter calls require("fs"); an ESM bundle needs a require.
      banner: { js: "#!/usr/bin/env node\nimport { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    }).then(() => chmodSync(outfile, 0o755)),
  );
}
await Promise.all(jobs);
