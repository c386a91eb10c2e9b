/**
 * How to run a forge launcher with this process's node, as its
 * `#!/usr/bin/env -S [NAME=value …] node [flags]` line would: the
 * variables it sets (glibc's MALLOC_ARENA_MAX, read only as a process
 * starts, and the caller's own value kept beside it: scripts/bundle.mjs),
 * then the node flags it names (V8's heap flags, which its code cache was
 * made under), then the launcher. A launcher started by its `#!` line gets
 * them from `env`; one started as `node <launcher>` must be given them, or
 * V8 rejects the code cache and compiles it all again.
 */
import { closeSync, openSync, readSync } from "node:fs";

// A value is digits or `${NAME}` (env -S puts in that variable's value, or nothing); the line ends within the 256
// bytes the kernel reads of it.
const VAR = String.raw`[A-Z_][A-Z0-9_]*`;
const LINE = new RegExp(
  String.raw`^#!/usr/bin/env -S((?: ${VAR}=(?:[0-9]+|\$\{${VAR}\}))*) node((?: --[a-z][a-z0-9-]*(?:=[0-9]+)?)*)\n`
);

/** What runs a launcher under this process's node: node's arguments, and the environment it gets. */
export interface LauncherCommand {
  /** The node flags, the launcher, its argv. */
  args: string[];
  /** `env` with the line's variables set. */
  env: Record<string, string | undefined>;
}

/**
 * The node arguments and environment that run `launcher` with `argv` under this process's node as its `#!` line
 * would, from `env` (a line that is not of that form sets nothing); undefined when it cannot be read.
 * @example launcherCommand("/opt/forge/bin/forge-observe", ["--json"], process.env)
 * // { args: ["--max-semi-space-size=1", "/opt/…", "--json"], env: { …, MALLOC_ARENA_MAX: "1" } }
 */
export function launcherCommand(
  launcher: string,
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>
): LauncherCommand | undefined {
  const head = Buffer.alloc(256);
  let n: number;
  try {
    const fd = openSync(launcher, "r");
    try {
      n = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const m = LINE.exec(head.toString("latin1", 0, n));
  const out = { ...env };
  // As env -S: every `${NAME}` is the caller's value, then the assignments are made in order.
  for (const a of m?.[1]?.trim().split(" ").filter(Boolean) ?? []) {
    const eq = a.indexOf("=");
    const v = a.slice(eq + 1);
    out[a.slice(0, eq)] = v.startsWith("${") ? (env[v.slice(2, -1)] ?? "") : v;
  }
  const flags = m?.[2]?.trim().split(" ").filter(Boolean) ?? [];
  return { args: [...flags, launcher, ...argv], env: out };
}
