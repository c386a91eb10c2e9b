/**
 * `node tools/dist/fold_scope.js <.forge> <scope>`: fold a scope's imports
 * through @forge/evidence and compute every belief and the assessment (what
 * forge-observe will do); prints one summary line. With `--floor`, only
 * reads and parses the same import files (the bench's baseline).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { storeAt } from "@forge/core";
import { compileScope, readScope, scopeHealth } from "@forge/evidence";
import { assess, schedule, evaluate } from "@forge/kernel";

const [dir, scope, flag] = process.argv.slice(2);
if (!dir || !scope) {
  process.stderr.write("usage: fold_scope <.forge> <scope> [--floor]\n");
  process.exit(2);
}
if (flag === "--floor") {
  const imports = join(dir, "evidence", "imports");
  let n = 0;
  for (const f of readdirSync(imports))
    n += Object.keys(JSON.parse(readFileSync(join(imports, f), "utf8")) as object).length;
  process.stdout.write(`${n}\n`);
} else {
  const state = readScope(storeAt(dir), scope, { episodes: false });
  const compiled = compileScope(state);
  const sch = schedule(compiled);
  const beliefs = evaluate(compiled, sch);
  const a = assess(compiled, sch, beliefs);
  const h = scopeHealth(state, {}, a);
  process.stdout.write(
    JSON.stringify({
      nodes: a.counts.nodes,
      trials: state.kernel.trials.length,
      fragile: h.fragile_node_count,
      syndromes: h.syndrome_count,
      markers: a.markers.length,
    }) + "\n"
  );
}
