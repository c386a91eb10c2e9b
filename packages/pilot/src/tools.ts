/**
 * Starting the tools (forge-observe, forge-plan, forge-act, forge-export,
 * forge-ci, forge-issue, git, a --refine-with command): argv arrays with no
 * shell in between, through node:child_process. zx's `$` always goes through
 * a shell (quoted, but a shell), so it is not used here. Tools are found on
 * PATH first, then beside the launcher in bin/. A signal to the pilot is
 * passed on to the tools running now (`stop`).
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { ForgeError, parseJsonLines } from "@forge/core";

/** What a tool did: its stdout, stderr and exit code (127: not found; 128 + n: killed by a signal). */
export interface Ran {
  stdout: string;
  stderr: string;
  code: number;
}

/** A started tool: its stdin is open for the caller to write and end. */
export interface Started {
  child: ChildProcessWithoutNullStreams;
  done: Promise<Ran>;
}

/**
 * The tools that only read and write the store (and run git): nothing under them opens a TLS
 * connection or runs user code. They start without NODE_EXTRA_CA_CERTS, which Node 20 loads at
 * the start of every process with all its bundled root certificates (~60 ms of CPU a process
 * on a 2-vCPU machine, three times an iteration). forge-act and forge-ci run the user's steps:
 * theirs is the caller's environment, untouched.
 */
const STORE_ONLY = new Set(["forge-observe", "forge-plan", "forge-export"]);

/** The tools of one repository, started in it. */
export class Tools {
  /** The tools running now. */
  readonly children = new Set<ChildProcessWithoutNullStreams>();
  /** Variables set on top of `env` (setEnv): the caller's environment object is never changed. */
  private readonly extraEnv: Record<string, string> = {};

  /**
   * @param workspace the repository: every tool's working directory
   * @param binDir the launcher's folder, searched after PATH
   * @param env the environment the tools get (with PATH extended)
   */
  constructor(
    readonly workspace: string,
    readonly binDir: string,
    private readonly env: NodeJS.ProcessEnv
  ) {}

  /** Set (or, with undefined, unset) a variable of the environment the tools get from now on. */
  setEnv(name: string, value: string | undefined): void {
    if (value === undefined) delete this.extraEnv[name];
    else this.extraEnv[name] = value;
  }

  /** Start a tool with an argv array (no shell). */
  start(name: string, args: readonly string[]): Started {
    const env: NodeJS.ProcessEnv = { ...this.env, ...this.extraEnv, PATH: `${this.env.PATH ?? ""}:${this.binDir}` };
    if (STORE_ONLY.has(name)) delete env.NODE_EXTRA_CA_CERTS;
    const child = spawn(name, args, { cwd: this.workspace, env, stdio: ["pipe", "pipe", "pipe"] });
    this.children.add(child);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => err.push(d));
    child.stdin.on("error", () => undefined);
    const done = new Promise<Ran>((res) => {
      child.on("error", (e: NodeJS.ErrnoException) => {
        this.children.delete(child);
        res({ stdout: "", stderr: `${name}: ${e.code === "ENOENT" ? "not found" : e.message}`, code: 127 });
      });
      child.on("close", (code, signal) => {
        this.children.delete(child);
        const text = (b: Buffer[]) => Buffer.concat(b).toString("utf8");
        res({ stdout: text(out), stderr: text(err), code: code ?? 128 + (signal === "SIGKILL" ? 9 : 15) });
      });
    });
    return { child, done };
  }

  /** Run a tool with `input` on its stdin. */
  run(name: string, args: readonly string[], input = ""): Promise<Ran> {
    const t = this.start(name, args);
    t.child.stdin.end(input);
    return t.done;
  }

  /**
   * A tool that must succeed; its stdout as JSON lines.
   * @param ok the exit codes that count as success
   * @throws ForgeError naming the tool when it exits otherwise
   */
  async lines<T>(name: string, args: readonly string[], input = "", ok: readonly number[] = [0]): Promise<T[]> {
    const r = await this.run(name, args, input);
    if (!ok.includes(r.code)) throw failure(name, r);
    return parseLines<T>(r.stdout);
  }

  /** Pass a signal on: SIGTERM to every tool running now. */
  stop(): void {
    for (const ch of this.children) ch.kill("SIGTERM");
  }
}

/** Why a tool failed, naming it once ("forge-observe exited 1: <its reason>"). */
export function failure(name: string, r: Ran): ForgeError {
  // The stage's own line already names it ("forge-observe: …"): said once.
  const last = r.stderr.trim().split("\n").pop() ?? "";
  const why = last.startsWith(`${name}: `) ? last.slice(name.length + 2) : last;
  return new ForgeError(`${name} exited ${r.code}: ${why.slice(0, 300)}`);
}

/**
 * A tool's stdout as JSON lines (core's reader; blank lines skipped), or
 * one JSON array of objects: what a list prints under a caller's
 * `FORGE_JSON=array` (gh's shape), which the stages inherit. A line (or an
 * item) that is not a JSON object throws: a stage that prints a broken line
 * fails the run, where a batch on stdin would go on past it.
 */
export function parseLines<T>(text: string): T[] {
  return parseJsonLines(text).map((r) => {
    if (r.error) throw new ForgeError(`a stage printed a line that is not a JSON object (line ${r.line})`);
    return r.value as T;
  });
}

/**
 * A tool's stdout as JSON lines text, to hand on to another stage line by line: unchanged when it is JSON
 * lines, one line per item when it is one JSON array (`FORGE_JSON=array`).
 * @throws ForgeError as parseLines, for an array with an item that is not an object
 */
export function asJsonLines(text: string): string {
  if (!/^\s*\[/.test(text)) return text;
  return parseLines<object>(text)
    .map((r) => JSON.stringify(r) + "\n")
    .join("");
}

/** The last line of a tool's stderr ("" when it printed none). */
export function lastLine(stderr: string): string {
  return stderr.trim().split("\n").pop() ?? "";
}
