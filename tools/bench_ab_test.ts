import test from "ava";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { retarget, type Cmd } from "./bench_lib.js";

function bins(names: string[]): { dir: string; bin: string; old: string } {
  const dir = mkdtempSync(join(tmpdir(), "forge-bench-ab-"));
  const bin = join(dir, "new", "bin");
  const old = join(dir, "old", "bin");
  for (const b of [bin, old]) mkdirSync(b, { recursive: true });
  for (const n of names) writeFileSync(join(old, n), "");
  return { dir, bin, old };
}

test("retarget() points argv paths, scripts and a bin/ argument at the other bin/", (t) => {
  const { dir, bin, old } = bins(["forge-issue", "forge-export", "forge-observe"]);
  try {
    const direct: Cmd = { label: "forge-issue list", argv: [join(bin, "forge-issue"), "list"], cwd: "/x" };
    t.deepEqual(retarget(direct, bin, old), {
      ...direct,
      label: "old: forge-issue list",
      argv: [join(old, "forge-issue"), "list"],
    });
    const script: Cmd = {
      label: "s",
      argv: ["sh", "-c", `rm -rf e && exec ${join(bin, "forge-export")} --scope x < r`],
      cwd: "/x",
    };
    t.deepEqual((retarget(script, bin, old) as Cmd).argv, [
      "sh",
      "-c",
      `rm -rf e && exec ${join(old, "forge-export")} --scope x < r`,
    ]);
    const dollar0: Cmd = { label: "b", argv: ["bash", "-c", '"$0/forge-observe" --json', bin], cwd: "/x" };
    t.deepEqual((retarget(dollar0, bin, old) as Cmd).argv, ["bash", "-c", '"$0/forge-observe" --json', old]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("retarget(): nothing from bin/ is undefined; an executable the other bin/ lacks is a reason", (t) => {
  const { dir, bin, old } = bins(["forge-observe"]);
  try {
    t.is(retarget({ label: "fold", argv: ["node", "/x/.bench/fold.cjs"], cwd: "/x" }, bin, old), undefined);
    const pilot: Cmd = { label: "p", argv: [join(bin, "forge-pilot"), "--help"], cwd: "/x" };
    t.is(retarget(pilot, bin, old), `${old} has no forge-pilot`);
    const dollar0: Cmd = { label: "b", argv: ["bash", "-c", '"$0/forge-observe" | "$0/forge-plan"', bin], cwd: "/x" };
    t.is(retarget(dollar0, bin, old), `${old} has no forge-plan`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
