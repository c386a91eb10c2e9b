/**
 * `main()`: the one place that turns argv into a command run and every
 * outcome into an exit code (0 ok, 1 runtime, 2 usage) with at most one
 * stderr line. Replaces citty's `runMain`, which exits 1 for everything,
 * prints usage to stdout on errors and accepts unknown flags.
 */
import type { CommandDef, CommandMeta } from "citty";
import { checkRepoFlag, isForgeError, setNoteSink, UsageError } from "@forge/core";
import type { ConsolaInstance } from "consola/core";
import { bindPositionals, flagsOf, parseArgv, type Parsed } from "./args.js";
import { type Io, processIo } from "./io.js";
import { createLogger } from "./logger.js";
import { nounFlags, type ForgeCommand } from "./define.js";
import type { FlagsDef } from "./args.js";
import { Out } from "./output.js";
import { nearest } from "./suggest.js";
import { renderHelp, type HelpCommandMeta } from "./help.js";
import { renderRootUsage, renderUsage } from "./usage.js";

/** What a command's `run` receives as citty's `data`. */
export interface Ctx {
  io: Io;
  out: Out;
  log: ConsolaInstance;
  /** e.g. `forge-issue close`, the prefix of every stderr line. */
  prog: string;
}

/** A command whose `run` gets parsed args and a Ctx, and may return an exit code. */
export type Command = CommandDef & {
  run?: (c: { rawArgs: string[]; args: Parsed; cmd: CommandDef; data: Ctx }) => unknown;
};

type Lazy<T> = T | (() => T | Promise<T>);

async function resolve<T>(v: Lazy<T> | Promise<T> | undefined): Promise<T | undefined> {
  return typeof v === "function" ? await (v as () => T | Promise<T>)() : await v;
}

/**
 * Run a noun executable: `<prog> <verb> [flags]`.
 * @param root the citty root command (meta + lazy subCommands)
 * @param argv the arguments after the program name
 * @param io the process's world (injectable)
 * @returns the exit code
 */
export async function main(root: CommandDef, argv: string[], io: Io = processIo()): Promise<number> {
  const meta = (await resolve(root.meta)) as CommandMeta;
  const name = meta.name ?? "forge";
  const out = new Out(io.stdout);
  let prog = name;
  try {
    const subs = ((await resolve(root.subCommands)) ?? {}) as Record<string, Lazy<Command>>;
    const first = argv[0];
    if (first === undefined || first === "-h" || first === "--help") {
      await out.write(renderRootUsage(name, meta.version ?? "", meta.description ?? "", Object.keys(subs)));
      await out.flush();
      return 0;
    }
    if (first === "-v" || first === "--version") {
      await out.write(`${name} ${meta.version ?? ""}\n`);
      await out.flush();
      return 0;
    }
    if (first.startsWith("-")) throw new UsageError(`unknown flag '${first.slice(0, 40)}'`);
    const leaf = await resolve(subs[first]);
    if (!leaf) throw unknownCommand(first, Object.keys(subs));
    prog = `${name} ${first}`;
    return await runLeaf(leaf, prog, argv.slice(1), io, out, nounFlags(root));
  } catch (err) {
    await out.flush().catch(() => undefined);
    return reportError(io, prog, err);
  }
}

/**
 * Run an executable that is one command, a filter with no verbs
 * (`forge-export`): `-v`, then what `main()` does for a verb.
 * @returns the exit code
 */
export async function mainCommand(cmd: ForgeCommand, argv: string[], io: Io = processIo()): Promise<number> {
  const meta = ((await resolve(cmd.meta)) ?? {}) as CommandMeta;
  const prog = meta.name ?? "forge";
  const out = new Out(io.stdout);
  try {
    if (argv[0] === "-v" || argv[0] === "--version") {
      await out.write(`${prog} ${meta.version ?? ""}\n`);
      await out.flush();
      return 0;
    }
    return await runLeaf(cmd as unknown as Command, prog, argv, io, out);
  } catch (err) {
    await out.flush().catch(() => undefined);
    return reportError(io, prog, err);
  }
}

/** An unknown verb's usage error, with git's "did you mean" when one is near. */
function unknownCommand(word: string, verbs: string[]): UsageError {
  const near = nearest(word, verbs);
  return new UsageError(`unknown command '${word.slice(0, 40)}'${near ? ` (did you mean '${near}'?)` : ""}`);
}

/** One command with its own argv: strict flags, `-h`, positionals, the run, the exit code. */
async function runLeaf(
  leaf: Command,
  prog: string,
  argv: string[],
  io: Io,
  out: Out,
  shared: FlagsDef = {}
): Promise<number> {
  const lmeta = ((await resolve(leaf.meta)) ?? {}) as CommandMeta;
  const flags = { ...flagsOf(await resolve(leaf.args)), ...shared };
  const args = parseArgv(argv, flags);
  if (args.help) {
    const info = { prog, description: lmeta.description ?? "", flags };
    await out.write(args.fullHelp ? renderHelp({ ...info, help: (lmeta as HelpCommandMeta).help }) : renderUsage(info));
    await out.flush();
    return 0;
  }
  bindPositionals(args, flags);
  if ("repo" in shared && typeof args.repo === "string") await checkRepoFlag(args.repo, io.cwd);
  const ctx: Ctx = { io, out, log: createLogger(io, prog), prog };
  setNoteSink((note) => io.stderr.write(`${prog}: note: ${note}\n`));
  const code = await leaf.run?.({ rawArgs: argv, args, cmd: leaf, data: ctx });
  await out.flush();
  return typeof code === "number" ? code : 0;
}

/**
 * Print one line for an error and give its exit code. Usage errors point at
 * `-h`; unexpected errors show only their message (the stack with FORGE_DEBUG).
 */
export function reportError(io: Io, prog: string, err: unknown): number {
  let code = 1;
  let msg: string;
  if (isForgeError(err)) {
    code = err.exitCode;
    msg = err.message;
    if (code === 2) msg += ` (see '${prog} -h')`;
  } else if (err && typeof err === "object" && (err as { name?: string }).name === "CLIError") {
    code = 2;
    msg = (err as Error).message;
  } else if (err && typeof err === "object" && typeof (err as NodeJS.ErrnoException).syscall === "string") {
    // Node's fs messages carry absolute paths; say what failed, not where (SEC-10).
    const e = err as NodeJS.ErrnoException;
    msg = `${e.syscall} failed: ${e.code ?? "error"}`;
  } else {
    msg = err instanceof Error ? err.message : String(err);
  }
  io.stderr.write(`${prog}: ${oneLine(msg)}\n`);
  if (io.env.FORGE_DEBUG && err instanceof Error && err.stack) io.stderr.write(err.stack + "\n");
  return code;
}

/** Squash a message to one line of bounded length. */
export function oneLine(s: string): string {
  const t = s.replace(/[\r\n]+/g, " ").trim();
  // Long enough for the longest "available fields" list; still one line.
  return t.length > 600 ? t.slice(0, 599) + "…" : t;
}
