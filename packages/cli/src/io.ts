import { closeSync, fstatSync } from "node:fs";
import { flushCacheWrites, setCacheFlush } from "@forge/core";

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
  // Cache writes put off (`writeCacheLater`) run once the event loop is empty, if `exitWith` has not run them.
  setCacheFlush(scheduleOnExit);
  return {
    stdout: process.stdout,
    env: process.env,
    cwd: process.cwd(),
    get stderr() {
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
  };
}

function scheduleOnExit(flush: () => void): void {
  process.once("beforeExit", flush);
}

/**
 * The end of an executable: its exit code, and stdout closed now when it
 * is a pipe or a socket with nothing left to write. Linux closes a dying
 * process's files only after it has given back its memory (5–10 ms with a
 * 50 MB heap), so the next command of a pipeline would see the end that
 * much later. Then the cache writes the run put off (`writeCacheLater`).
 * Only from a bin (the process's own fd 1), as its last step.
 */
export function exitWith(code: number): void {
  process.exitCode = code;
  try {
    const st = fstatSync(1);
    if ((st.isFIFO() || st.isSocket()) && process.stdout.writableLength === 0) closeSync(1);
  } catch {
    // closed already, or not ours to close
  }
  // The caches the run put off (`writeCacheLater`): now that the answer is out.
  flushCacheWrites();
}

/** Colour only on a terminal and without NO_COLOR. */
export function useColor(io: Io): boolean {
  return io.stdout.isTTY === true && !io.env.NO_COLOR && io.env.TERM !== "dumb";
}
