import { EventEmitter } from "node:events";
import { closeSync, fstatSync, writeSync } from "node:fs";
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
 * or write to stderr. stdout is fd 1 written directly when it is a pipe, a
 * socket or a file (`Fd1`), else Node's stream (a terminal).
 */
export function processIo(): Io {
  // Cache writes put off (`writeCacheLater`) run once the event loop is empty, if `exitWith` has not run them.
  setCacheFlush(scheduleOnExit);
  return {
    stdout: stdoutOfProcess(),
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

/** The process's Fd1, once `processIo` made one (`exitWith` asks it what is left to write). */
let fd1: Fd1 | undefined;

function stdoutOfProcess(): Io["stdout"] {
  try {
    const st = fstatSync(1);
    if (st.isFIFO() || st.isSocket() || st.isFile()) return (fd1 ??= new Fd1(1));
  } catch {
    // fd 1 closed: Node's stream knows what to do
  }
  return process.stdout;
}

/**
 * A pipe, a socket or a file as stdout, written with `writeSync`, as Node
 * writes them on Linux (synchronously) but without its stream: `process.stdout`
 * on a pipe is a net.Socket, and the stream and net modules behind it cost
 * ~2.5 ms of every start into a pipe (a twelfth of a `list | head -1`). A write that fails
 * ends the writer as a stream ends: 'error' (EPIPE when the reader has gone),
 * then 'close', on the next tick; later writes are dropped. A pipe someone
 * made non-blocking (EAGAIN when full) hands the rest to Node's stream, and
 * every later write with it, in order.
 */
export class Fd1 extends EventEmitter implements NodeJS.WritableStream {
  readonly #fd: number;
  #stream: NodeJS.WritableStream | undefined;
  #failed = false;
  writable = true;
  readonly isTTY = false;
  constructor(fd: number) {
    super();
    this.#fd = fd;
  }
  /** Bytes queued and not yet written: none until Node's stream took over. */
  get writableLength(): number {
    return (this.#stream as { writableLength?: number } | undefined)?.writableLength ?? 0;
  }
  write(
    chunk: string | Uint8Array,
    enc?: BufferEncoding | ((err?: Error | null) => void),
    cb?: (err?: Error | null) => void
  ): boolean {
    const done = typeof enc === "function" ? enc : cb;
    if (this.#stream)
      return typeof enc === "string" ? this.#stream.write(chunk as string, enc, done) : this.#stream.write(chunk, done);
    if (this.#failed) return false;
    const buf = typeof chunk === "string" ? Buffer.from(chunk, typeof enc === "string" ? enc : "utf8") : chunk;
    let at = 0;
    try {
      while (at < buf.length) at += writeSync(this.#fd, buf, at, buf.length - at);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EAGAIN") {
        this.#stream = process.stdout;
        for (const ev of ["drain", "error", "close"]) this.#stream.on(ev, (...a: unknown[]) => this.emit(ev, ...a));
        return this.#stream.write(buf.subarray(at), done);
      }
      this.#failed = true;
      this.writable = false;
      process.nextTick(() => {
        done?.(err as Error);
        this.emit("error", err);
        this.emit("close");
      });
      return false;
    }
    if (done) process.nextTick(done);
    return true;
  }
  end(...args: unknown[]): this {
    const last = args.find((a) => typeof a === "string" || a instanceof Uint8Array) as string | Uint8Array | undefined;
    if (last !== undefined) this.write(last);
    const done = args.find((a) => typeof a === "function") as (() => void) | undefined;
    if (done) process.nextTick(done);
    return this;
  }
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
    const left = fd1 ? fd1.writableLength : process.stdout.writableLength;
    if ((st.isFIFO() || st.isSocket()) && left === 0) closeSync(1);
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
