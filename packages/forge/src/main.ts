/**
 * `forge`: dispatch `forge <noun> …` to `forge-<noun> …` the way git runs
 * `git-<cmd>`; `forge init [dir]`; `forge --skill`.
 */
import { spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { currentAuthor, launcherCommand, MAX_IMPORT_BYTES, UsageError, versionFile } from "@forge/core";
import { type Io, processIo, reportError } from "@forge/cli";
import { FSCK_HELP, parseFsckOptions, runFsck } from "./fsck.js";
import { checkWorkTree, initStore } from "./init.js";
import { helpOrVersion, knownNouns, unknownNounError } from "./help.js";
import { IMPORT_HELP, parseImportOptions, runImport } from "./import.js";
import { applyMigration, MIGRATE_HELP, planMigration, runMigrate } from "./migrate.js";
import { SKILL } from "./skill.js";
import { runSync, SYNC_HELP } from "./sync.js";

/** The nouns that ship today (others on PATH as forge-<noun> still run). */
export const NOUNS = [
  "issue",
  "pr",
  "task",
  "label",
  "milestone",
  "wiki",
  "release",
  "ci",
  "run",
  "merge",
  "export",
  "observe",
  "plan",
  "act",
  "pilot",
  "loop",
  "mcp",
];

/** The version every executable reports. */
export const VERSION = "0.1.0";

/** Root help, within 12 lines / 300 bytes. */
export function rootHelp(): string {
  return (
    [
      `forge ${VERSION}: gh's issues, PRs and CI as files in .forge/`,
      "usage: forge <noun> <verb> [flags] (forge-<noun>)",
      `nouns: ${NOUNS.slice(0, 10).join(" ")}`,
      `  ${NOUNS.slice(10).join(" ")}`,
      "forge init|sync|fsck|migrate|import|help|version",
      "forge --skill  the contract for agents",
    ].join("\n") + "\n"
  );
}

/**
 * Run `forge` with `argv`.
 * @returns the exit code (a dispatched noun's own code)
 */
export async function forgeMain(
  argv: string[],
  io: Io = processIo(),
  self: string = process.argv[1] ?? ""
): Promise<number> {
  const first = argv[0];
  try {
    if (first === undefined || first === "-h" || first === "--help") return write(io, rootHelp());
    if (first === "-v" || first === "--version") return write(io, `forge ${VERSION}\n`);
    if (first === "--skill") return write(io, SKILL);
    if (first.startsWith("-")) throw new UsageError(`unknown flag '${first.slice(0, 40)}'`);
    if (first === "init") return await init(io, argv.slice(1));
    if (first === "fsck") return await fsck(io, argv.slice(1));
    if (first === "sync")
      return argv.slice(1).some((a) => a === "-h" || a === "--help")
        ? write(io, SYNC_HELP)
        : await runSync(io, argv.slice(1));
    if (first === "import")
      return argv.slice(1).some((a) => a === "-h" || a === "--help")
        ? write(io, IMPORT_HELP)
        : await runImport(io, parseImportOptions(argv.slice(1)), () => readStdin(io));
    if (first === "migrate")
      return argv.slice(1).some((a) => a === "-h" || a === "--help")
        ? write(io, MIGRATE_HELP)
        : await runMigrate(io, argv.slice(1));
    if (first === "help" || first === "version")
      return await helpOrVersion(first, argv.slice(1), (a) => forgeMain(a, io, self));
    if (!/^[a-z][a-z0-9-]{0,30}$/.test(first)) throw unknownNoun(first, self);
    return await dispatch(first, argv.slice(1), self);
  } catch (err) {
    return reportError(io, "forge", err);
  }
}

function write(io: Io, s: string): number {
  io.stdout.write(s);
  return 0;
}

async function init(io: Io, rest: string[]): Promise<number> {
  if (rest.includes("-h") || rest.includes("--help"))
    return write(
      io,
      "usage: forge init [<dir>]\nMake .forge/ (and its .gitignore) in dir or here, inside a git work tree\n"
    );
  const bad = rest.find((a) => a.startsWith("-"));
  if (bad) throw new UsageError(`unknown flag '${bad.slice(0, 40)}'`);
  if (rest.length > 1) throw new UsageError(`unexpected argument '${rest[1]!.slice(0, 40)}'`);
  await checkWorkTree(rest[0] ?? io.cwd, io.env);
  // A store without a marker is version 1 (or made by hand): init migrates it as `forge migrate --apply` does, with
  // its one-hop note and the same lines, not silently.
  const dir = join(resolve(io.cwd, rest[0] ?? "."), ".forge");
  if (existsSync(dir) && statSync(dir).isDirectory() && !existsSync(versionFile(dir)))
    applyMigration(io, dir, planMigration(dir, await currentAuthor(io.env, io.cwd)));
  const { path, existed } = initStore(rest[0] ?? io.cwd);
  return write(io, `${existed ? "Reinitialized existing" : "Initialized empty"} forge store in ${path}/\n`);
}

async function fsck(io: Io, rest: string[]): Promise<number> {
  if (rest.includes("-h") || rest.includes("--help")) return write(io, FSCK_HELP);
  return runFsck(io, parseFsckOptions(rest));
}

/** An unknown noun's usage error, suggesting the nearest known noun. */
function unknownNoun(noun: string, self: string): UsageError {
  return unknownNounError(noun, knownNouns(NOUNS, self));
}

/** Run `forge-<noun>`: the sibling of this executable first, then PATH. */
function dispatch(noun: string, rest: string[], self: string): Promise<number> {
  const sibling = self ? join(dirname(self), `forge-${noun}`) : "";
  const sib = sibling ? launcherCommand(sibling, rest, process.env) : undefined;
  const [cmd, args] = sib ? [process.execPath, sib.args] : [`forge-${noun}`, rest];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: "inherit", env: sib?.env ?? process.env });
    child.on("error", (err: NodeJS.ErrnoException) => {
      reject(err.code === "ENOENT" ? unknownNoun(noun, self) : err);
    });
    child.on("exit", (code, signal) => resolve(code ?? (signal === "SIGINT" ? 130 : 128 + 15)));
  });
}

/** All of stdin, capped as an import file is. */
async function readStdin(io: Io): Promise<string> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of io.stdin as AsyncIterable<Buffer | string>) {
    const b = typeof c === "string" ? Buffer.from(c) : c;
    n += b.length;
    if (n > MAX_IMPORT_BYTES) throw new UsageError(`stdin is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MiB`);
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString("utf8");
}
