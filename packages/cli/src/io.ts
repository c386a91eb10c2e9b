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

/**
 * The real process's Io. stdin and stderr are getters: Node makes those
 * streams (a pipe's socket, a file's read stream, with the modules behind
 * them) the first time they are asked for, and most runs never read stdin
 * or write to stderr.
 */
export function processIo(): Io {
  return {
    stdout: process.stdout, env: process.env, cwd: process.cwd(),
    get stderr() {
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
  };
}

/** Colour only on a terminal and without NO_COLOR. */
export function useColor(io: Io): boolean {
  return io.stdout.isTTY === true && !io.env.NO_COLOR && io.env.TERM !== "dumb";
}
