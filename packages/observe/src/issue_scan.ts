/**
 * scanIssues(): the first pass over the live issue files, on a worker
 * thread, while the main thread folds the evidence and reads CI runs and
 * PRs. An observation questions only issues closed as fixed, so most files
 * are read to be left out: reading them beside the other work, on the
 * machine's second core, takes them off the observation's critical path.
 *
 * The worker only sorts the common case out; it decides nothing it cannot
 * decide from a plain read. Per file it answers:
 * - `OPEN`: the frontmatter has the line `state: open` (as forge writes it);
 * - `NO_LABEL`: not open, and no fixed label occurs in the text (the main
 *   thread reads it only if a PR closes it);
 * - the text: not open, and a fixed label occurs in it (parsed on the main
 *   thread, through the same checks as any read);
 * - `MAIN`: anything else (cannot open, a symlink, empty, over the size
 *   cap, not a regular file): the main thread reads it the ordinary way,
 *   with its refusals and its unreadable markers.
 * If the worker cannot start or fails, every file is `MAIN`: the answer
 * never depends on whether the worker ran.
 */
import { Worker } from "node:worker_threads";
import { MAX_FILE_BYTES } from "@forge/core";

/** The main thread reads this file itself. */
export const MAIN = 0;
/** The file says `state: open`. */
export const OPEN = 1;
/** Not open, and names no fixed label. */
export const NO_LABEL = 2;

/** The fewest files worth a worker. */
export const WORKER_MIN = 256;

/** A file's answer: MAIN, OPEN, NO_LABEL or its text. */
export type Scanned = typeof MAIN | typeof OPEN | typeof NO_LABEL | string;

/**
 * The frontmatter (between the opening `---` and the next) has the line
 * `state: open`, as forge writes it. Runs on the worker too (as source text),
 * so it refers to nothing outside itself.
 */
export function saysOpen(text: string): boolean {
  if (!text.startsWith("---\n")) return false;
  const end = text.indexOf("\n---", 3);
  const at = text.indexOf("\nstate: open\n");
  return end > 0 && at >= 0 && at < end;
}

// The worker's program: plain CommonJS, nothing but node:fs (it starts in a few ms).
const PROGRAM = `
const { workerData, parentPort } = require("node:worker_threads");
const { closeSync, constants, openSync, readSync } = require("node:fs");
const saysOpen = ${saysOpen.toString()};
const { paths, labels, cap } = workerData;
const buf = Buffer.allocUnsafe(cap + 1);
const flags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const out = new Array(paths.length);
for (let i = 0; i < paths.length; i++) {
  let fd;
  try {
    fd = openSync(paths[i], flags);
  } catch {
    out[i] = ${MAIN};
    continue;
  }
  let n = 0;
  try {
    for (;;) {
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0 || (n += got) === buf.length) break;
    }
  } catch {
    n = -1;
  } finally {
    closeSync(fd);
  }
  if (n <= 0 || n > cap) {
    out[i] = ${MAIN};
    continue;
  }
  const text = buf.toString("utf8", 0, n);
  out[i] = saysOpen(text) ? ${OPEN} : labels.some((l) => text.includes(l)) ? text : ${NO_LABEL};
}
parentPort.postMessage(out);
`;

/**
 * Start the scan of `paths` (absolute, already checked to stay in the store).
 * @returns one answer per path, in order (all MAIN if the worker failed)
 */
export function scanIssues(paths: readonly string[], labels: readonly string[]): Promise<Scanned[]> {
  const fallback = (): Scanned[] => new Array<Scanned>(paths.length).fill(MAIN);
  // A worker costs a few ms to start: below a few hundred files the plain reads are cheaper.
  if (paths.length < WORKER_MIN) return Promise.resolve(fallback());
  return new Promise((resolve) => {
    let done = false;
    const finish = (v: Scanned[]): void => {
      if (done) return;
      done = true;
      resolve(v);
    };
    let w: Worker;
    try {
      w = new Worker(PROGRAM, { eval: true, workerData: { paths, labels, cap: MAX_FILE_BYTES }, stdout: true, stderr: true });
    } catch {
      finish(fallback());
      return;
    }
    w.once("message", (v: unknown) => finish(Array.isArray(v) && v.length === paths.length ? (v as Scanned[]) : fallback()));
    w.once("error", () => finish(fallback()));
    w.once("exit", () => finish(fallback()));
  });
}
