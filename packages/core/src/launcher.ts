/**
 * How to run a forge launcher with this process's node: the node flags its
 * `#!/usr/bin/env -S node <flags>` line names (V8's heap flags, which its
 * code cache was made under), then the launcher. A launcher started by its
 * `#!` line gets them from `env`; one started as `node <launcher>` must be
 * given them, or V8 rejects the code cache and compiles it all again.
 */
import { closeSync, openSync, readSync } from "node:fs";

const FLAGS_LINE = /^#!\/usr\/bin\/env -S node((?: --[a-z][a-z0-9-]*(?:=[0-9]+)?)+)\n/;

/**
 * The argv that runs `launcher` with `argv` under this process's node, or undefined when it cannot be read.
 * @example launcherArgv("/opt/forge/bin/forge-observe", ["--json"]) // ["--max-semi-space-size=1", "/opt/…", "--json"]
 */
export function launcherArgv(launcher: string, argv: readonly string[]): string[] | undefined {
  const head = Buffer.alloc(128);
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
  const flags =
    FLAGS_LINE.exec(head.toString("latin1", 0, n))?.[1]
      ?.trim()
      .split(" ") ?? [];
  return [...flags, launcher, ...argv];
}
