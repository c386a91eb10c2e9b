/**
 * The process's world, injectable for tests: streams, environment, working
 * directory, and whether stdout is a terminal.
 */
export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: Record<string, string | undefined>;
  cwd: string;
}

/** The real process's Io. */
export function processIo(): Io {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() };
}

/** Colour only on a terminal and without NO_COLOR. */
export function useColor(io: Io): boolean {
  return io.stdout.isTTY === true && !io.env.NO_COLOR && io.env.TERM !== "dumb";
}
