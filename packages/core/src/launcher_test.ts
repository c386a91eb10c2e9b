import test from "ava";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launcherArgv } from "./launcher.js";

const dir = mkdtempSync(join(tmpdir(), "forge-launcher-"));
const launcher = (name: string, text: string): string => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

test("launcherArgv: the #! line's node flags, then the launcher and its argv", (t) => {
  const f = launcher("a", '#!/usr/bin/env -S node --max-semi-space-size=1 --single-threaded-gc\n"use strict";\n');
  t.deepEqual(launcherArgv(f, ["--json", "x y"]), [
    "--max-semi-space-size=1",
    "--single-threaded-gc",
    f,
    "--json",
    "x y",
  ]);
});

test("launcherArgv: no flags from a plain #! line, another program's, or one that is not flags", (t) => {
  for (const [name, text] of [
    ["plain", "#!/usr/bin/env node\n"],
    ["sh", "#!/usr/bin/env -S sh --max-semi-space-size=1\n"],
    ["hostile", "#!/usr/bin/env -S node --x=1 -e process.exit(3)\n"],
    ["unended", `#!/usr/bin/env -S node --a=1${" --b".repeat(40)}\n`],
    ["empty", ""],
  ]) {
    const f = launcher(name!, text!);
    t.deepEqual(launcherArgv(f, ["-h"]), [f, "-h"], name);
  }
  t.is(launcherArgv(join(dir, "missing"), []), undefined);
});
