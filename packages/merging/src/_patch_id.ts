/**
 * A patch's identity that survives re-describing and rebasing: `git
 * patch-id --stable` ignores commit messages, line numbers and whitespace
 * inside lines. A series of several commits gets one id: the sha1 of its
 * commits' patch-ids, one per line, in series order (spec/schema.md,
 * merge-record).
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { ForgeError } from "@forge/core";

/**
 * The patch's `patchId`.
 * @param patch the patch bytes
 * @param cwd any folder (git needs none of the repository's objects)
 * @param env the environment for git
 * @returns 40 hex digits, or `null` when git finds no diff in it
 * @throws ForgeError when git cannot run
 */
export async function patchId(patch: Uint8Array, cwd: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  const out = await gitWithInput(["patch-id", "--stable"], patch, cwd, env);
  const ids = out
    .split("\n")
    .map((l) => l.split(" ")[0]!)
    .filter((x) => /^[0-9a-f]{40,64}$/.test(x));
  if (ids.length === 0) return null;
  if (ids.length === 1) return ids[0]!;
  return createHash("sha1")
    .update(ids.join("\n") + "\n")
    .digest("hex");
}

/** Run git with `input` on stdin (argv array, hooks off); its stdout. */
function gitWithInput(args: string[], input: Uint8Array, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", ["-c", "core.hooksPath=/dev/null", ...args], {
      cwd,
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.stdin.on("error", () => undefined);
    child.on("close", (code) => {
      if (code === 0) resolve(out);
      else {
        const why = (err.split("\n")[0] ?? "").replace(/^(?:fatal|error): /, "").slice(0, 160);
        reject(new ForgeError(`git ${args[0]} failed: ${why}`, "E_GIT", 1));
      }
    });
    child.stdin.end(input);
  });
}
