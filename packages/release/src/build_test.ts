import test from "ava";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildSteps } from "./_build.js";
import { removeTemps, tempCtx } from "@forge/cli";

test.after.always(removeTemps);

const REL = ".forge/releases/build";

function step(dir: string, name: string, mode = 0o755): void {
  writeFileSync(join(dir, name), "#!/bin/sh\n");
  chmodSync(join(dir, name), mode);
}

test("buildSteps() is empty when the tagged tree has no build folder", (t) => {
  const ctx = tempCtx();
  t.deepEqual(buildSteps(ctx, ctx.root, REL), []);
});

test(
  "buildSteps() takes executables in code-unit order; dot files, folders and READMEs are not steps; other " +
    "non-executables are warned about",
  (t) => {
    const ctx = tempCtx();
    const dir = join(ctx.root, REL);
    mkdirSync(join(dir, "20-folder"), { recursive: true });
    step(dir, "20-b");
    step(dir, "10-a");
    step(dir, "B-upper");
    step(dir, ".hidden");
    step(dir, "README.md", 0o644);
    step(dir, "30-forgot-chmod", 0o644);
    t.deepEqual(
      buildSteps(ctx, ctx.root, REL).map((s) => s.name),
      ["10-a", "20-b", "B-upper"]
    );
    t.is(ctx.err(), "forge test: warning: .forge/releases/build/30-forgot-chmod is not executable (skipped)\n");
  }
);

test("buildSteps() follows a symlinked step inside the tree and refuses one that leaves it", (t) => {
  const ctx = tempCtx();
  const dir = join(ctx.root, REL);
  mkdirSync(dir, { recursive: true });
  mkdirSync(join(ctx.root, "scripts"));
  step(join(ctx.root, "scripts"), "build.sh");
  symlinkSync("../../../scripts/build.sh", join(dir, "10-build"));
  t.deepEqual(
    buildSteps(ctx, ctx.root, REL).map((s) => s.name),
    ["10-build"]
  );
  symlinkSync("/bin/true", join(dir, "20-escape"));
  t.throws(() => buildSteps(ctx, ctx.root, REL), {
    message: "build step '20-escape' is a symlink out of the tagged tree (refused)",
  });
});

test("buildSteps() refuses a build folder that is a symlink out of the tree", (t) => {
  const ctx = tempCtx();
  mkdirSync(join(ctx.root, ".forge", "releases"), { recursive: true });
  symlinkSync("/usr/bin", join(ctx.root, REL));
  t.throws(() => buildSteps(ctx, ctx.root, REL), { message: `${REL} leaves the tagged tree (a symlink; refused)` });
});
