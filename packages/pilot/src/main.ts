/**
 * forge-pilot's entry: version and help (answered before anything is
 * loaded), the argv, then the verb (verbs.ts, loaded lazily), and every
 * outcome as an exit code: 0, 1 runtime, 2 usage (core's ForgeError
 * carries it), 143 after SIGTERM. Not the cli kit's `main()`: the pilot's
 * help and usage lines are its own (`-h` anywhere is the compact help), and
 * an error's line is printed as it is made (the kit's `reportError` trims
 * and squashes it).
 */
import { isForgeError } from "@forge/core";
import { type Io, processIo } from "@forge/cli";
import { parseArgv } from "./flags.js";
import { LONG, SHORT, VERSION } from "./help.js";
import { PROG } from "./report.js";

/**
 * Run forge-pilot.
 * @param argv the arguments after the program name
 * @param io the process's world
 * @returns the exit code
 */
export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  try {
    if (argv[0] === "-v" || argv[0] === "--version") return write(io, `${PROG} ${VERSION}\n`);
    if (argv.length === 0 || argv.includes("-h")) return write(io, SHORT);
    if (argv.includes("--help")) return write(io, LONG);
    const { verb, config } = parseArgv(argv, io.cwd);
    const { runVerb } = await import("./verbs.js");
    return await runVerb(verb, config, io);
  } catch (err) {
    return fail(io, err);
  }
}

function write(io: Io, text: string): number {
  io.stdout.write(text);
  return 0;
}

/** One stderr line for an error; its exit code. A usage error points at `-h`. */
function fail(io: Io, err: unknown): number {
  if (isForgeError(err)) {
    io.stderr.write(`${PROG}: ${err.message}${err.exitCode === 2 ? ` (see '${PROG} -h')` : ""}\n`);
    return err.exitCode;
  }
  const msg = String((err as { message?: unknown } | null)?.message ?? err);
  io.stderr.write(`${PROG}: ${msg.split("\n")[0]!.slice(0, 300)}\n`);
  return 1;
}
