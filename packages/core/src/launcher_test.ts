import test from "ava";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launcherCommand } from "./launcher.js";

const dir = mkdtempSync(join(tmpdir(), "forge-launcher-"));
const launcher = (name: string, text: string): string => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

test("launcherCommand: the #! line's node flags, then the launcher and its argv", (t) => {
  const f = launcher("a", '#!/usr/bin/env -S node --max-semi-space-size=1 --single-threaded-gc\n"use strict";\n');
  t.deepEqual(launcherCommand(f, ["--json", "x y"], { A: "1" }), {
    args: ["--max-semi-space-size=1", "--single-threaded-gc", f, "--json", "x y"],
    env: { A: "1" },
  });
});

test("launcherCommand: the line's variables as env -S sets them, `${NAME}` the caller's value or nothing", (t) => {
  const line = "#!/usr/bin/env -S SAVED=${ARENA} ARENA=1 node --max-semi-space-size=1\n";
  const f = launcher("vars", line);
  t.deepEqual(launcherCommand(f, ["-h"], { ARENA: "4", B: "b" }), {
    args: ["--max-semi-space-size=1", f, "-h"],
    env: { ARENA: "1", SAVED: "4", B: "b" },
  });
  t.deepEqual(launcherCommand(f, [], {})!.env, { ARENA: "1", SAVED: "" });
  const plain = launcher("vars-no-flags", "#!/usr/bin/env -S X=${Y} node\n");
  t.deepEqual(launcherCommand(plain, [], { Y: "y" }), { args: [plain], env: { X: "y", Y: "y" } });
});

test("launcherCommand: nothing from a plain #! line, another program's, or one not of flags and variables", (t) => {
  for (const [name, text] of [
    ["plain", "#!/usr/bin/env node\n"],
    ["sh", "#!/usr/bin/env -S sh --max-semi-space-size=1\n"],
    ["hostile", "#!/usr/bin/env -S node --x=1 -e process.exit(3)\n"],
    ["hostile-var", "#!/usr/bin/env -S LD_PRELOAD=/tmp/x.so node\n"],
    ["hostile-expansion", "#!/usr/bin/env -S A=${B}x node\n"],
    ["unended", `#!/usr/bin/env -S node --a=1${" --b".repeat(70)}\n`],
    ["empty", ""],
  ]) {
    const f = launcher(name!, text!);
    t.deepEqual(launcherCommand(f, ["-h"], { K: "v" }), { args: [f, "-h"], env: { K: "v" } }, name);
  }
  t.is(launcherCommand(join(dir, "missing"), [], {}), undefined);
});
