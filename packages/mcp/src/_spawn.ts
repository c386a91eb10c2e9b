/**
 * Run one executable beside forge-mcp (or on PATH) with an argv array, in the repository's folder: its stdin
 * is what the tool hands it (never the server's own stdin, which is the MCP channel), its output is capped.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

/** How a run ended. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** stdout and stderr beyond this are refused (a list of 10,000 issues with every field is about 10 MB). */
export const OUTPUT_CAP = 64 * 1024 * 1024;

/**
 * Run `exe` (`forge-<noun>`) with `argv` in `cwd`.
 * @param bin the folder of forge's executables ("" for PATH only)
 */
export function runExecutable(
  bin: string,
  exe: string,
  argv: string[],
  opts: { cwd: string; stdin?: string; signal?: AbortSignal }
): Promise<Ran> {
  const sibling = bin ? join(bin, exe) : "";
  const [cmd, args] = sibling && existsSync(sibling) ? [process.execPath, [sibling, ...argv]] : [exe, argv];
  const env = { ...process.env };
  // The store is the repository's (the cwd's); a FORGE_DIR of the server's environment would point elsewhere.
  delete env.FORGE_DIR;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env, stdio: ["pipe", "pipe", "pipe"], signal: opts.signal });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    const take = (into: Buffer[]) => (d: Buffer) => {
      size += d.length;
      if (size > OUTPUT_CAP) child.kill("SIGTERM");
      else into.push(d);
    };
    child.stdout.on("data", take(out));
    child.stderr.on("data", take(err));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (size > OUTPUT_CAP)
        return reject(new Error(`${exe}: output over ${OUTPUT_CAP >> 20} MiB (use fields or limit)`));
      resolve({
        code: code ?? (signal === "SIGINT" ? 130 : 143),
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      });
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(opts.stdin ?? "");
  });
}
