/**
 * `forge-export pack [--json]`: evidence compaction (spec/evidence.md,
 * "Packs and retention"). Packs the store's loose import files into one
 * pack file without changing any answer (@forge/evidence's packImports);
 * forge-pilot does it at the end of each run.
 */
import { openStore, UsageError } from "@forge/core";
import { type Io, reportError } from "@forge/cli";
import { packImports } from "@forge/evidence";
import { canonicalJson } from "@forge/kernel";

/** The help of `forge-export pack`. */
export const PACK_HELP =
  "usage: forge-export pack [--json]\n" +
  "Pack the loose evidence import files into one pack file (no answer changes; damaged files stay for fsck)\n";

/**
 * Run `forge-export pack` with the arguments after `pack`.
 * @returns the exit code
 */
export async function packRun(io: Io, argv: string[]): Promise<number> {
  try {
    let json = false;
    for (const a of argv) {
      if (a === "-h" || a === "--help") {
        io.stdout.write(PACK_HELP);
        return 0;
      }
      if (a === "--json") json = true;
      else throw new UsageError(`${a.startsWith("-") ? "unknown flag" : "unexpected argument"} '${a.slice(0, 40)}'`);
    }
    const store = openStore({ cwd: io.cwd, env: io.env });
    const r = packImports(store);
    if (json) io.stdout.write(canonicalJson(r) + "\n");
    else if (r.pack) io.stdout.write(`packed ${r.packed} import files into ${r.pack}\n`);
    else io.stdout.write("nothing to pack\n");
    if (r.left > 0)
      io.stderr.write(`forge-export pack: ${r.left} damaged import files left as they are (forge fsck)\n`);
    return 0;
  } catch (err) {
    return reportError(io, "forge-export pack", err);
  }
}
