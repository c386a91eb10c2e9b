/**
 * The token audit (seeds M7, issue 28): the bytes an agent reads to discover forge and do issue → PR → CI →
 * merge → pilot on a fresh repository, counted on real runs of bin/, two ways:
 * - CLI: discovery is `forge` and `forge --skill` (nothing else); doing is what each command of the flow
 *   prints (stdout and stderr), run as the skill says (`forge <noun> <verb>`), in human output and with
 *   `--json` (the records MCP returns);
 * - MCP: discovery is forge-mcp's `initialize` and `tools/list` results as written on the wire; doing is
 *   each `tools/call` result line.
 * Beside them, from fixtures (tools/fixtures/token_audit/): gh 2.23.0's `--help` pages for the same flow
 * (gh has no pilot) and Backlog.md 1.52.0's MCP `initialize` + `tools/list` (tasks only: no PR, CI, merge).
 * Tokens are estimated as bytes / 4.
 *
 * Usage: `node tools/dist/token_audit.js [--json]`; `pnpm bench` runs it too (tools/bench.ts).
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const FIXTURES = join(ROOT, "tools", "fixtures", "token_audit");

/** One route's bytes. */
export interface Route {
  route: string;
  /** Bytes read before the first command or call. */
  discover: number;
  /** Bytes read back doing the flow (null: not measurable here). */
  flow: number | null;
  /** What the route covers of issue → PR → CI → merge → pilot. */
  covers: string;
  /** Where the discovery bytes come from. */
  from: string;
}

/** The audit: the routes, and forge-mcp's tools/list. */
export interface Audit {
  routes: Route[];
  toolsListBytes: number;
  tools: number;
}

/** The flow's steps through the CLI, as the skill words them. */
export const CLI_FLOW: string[][] = [
  ["issue", "create", "-t", "Count is off", "-b", "one, not two"],
  ["pr", "create", "-t", "Fix the count", "-B", "main", "-H", "fix", "--issue", "1"],
  ["ci", "run", "1"],
  ["pr", "merge", "1"],
  ["pilot", "run", "--max-iterations", "1"],
];

/** The same steps as MCP tool calls. */
export const MCP_FLOW: Array<[string, Record<string, unknown>]> = [
  ["issue", { verb: "create", title: "Count is off", body: "one, not two" }],
  ["pr", { verb: "create", title: "Fix the count", base: "main", head: "fix", issue: 1 }],
  ["ci", { verb: "run", number: 1 }],
  ["pr", { verb: "merge", number: 1 }],
  ["pilot", { verb: "run", maxIterations: 1 }],
];

/** gh's help pages an agent reads for issue → PR → CI (checks) → merge. */
export const GH_PAGES = ["gh", "gh-issue", "gh-issue-create", "gh-pr", "gh-pr-create", "gh-pr-checks", "gh-pr-merge"];

/** Run the audit with the executables in `bin`. */
export async function tokenAudit(bin: string, env: NodeJS.ProcessEnv = process.env): Promise<Audit> {
  const cliRepo = sampleRepo();
  const mcpRepo = sampleRepo();
  const jsonRepo = sampleRepo();
  try {
    const cliEnv = { ...env, PATH: `${bin}:${env.PATH ?? ""}`, NO_COLOR: "1" };
    const read = (args: string[], cwd: string): number => {
      const r = spawnSync(join(bin, "forge"), args, { cwd, env: cliEnv, encoding: "buffer", stdio: "pipe" });
      if (r.status !== 0) throw new Error(`forge ${args.join(" ")}: exit ${r.status}: ${r.stderr.toString()}`);
      return r.stdout.length + r.stderr.length;
    };
    const cliDiscover = read([], cliRepo) + read(["--skill"], cliRepo);
    const cliFlow = CLI_FLOW.reduce((n, step) => n + read(step, cliRepo), 0);
    const cliJsonFlow = CLI_FLOW.reduce((n, step) => n + read([...step, "--json"], jsonRepo), 0);
    const mcp = await mcpBytes(join(bin, "forge-mcp"), mcpRepo, cliEnv);
    const gh = GH_PAGES.reduce((n, p) => n + readFileSync(join(FIXTURES, `${p}.txt`)).length, 0);
    const backlog = readFileSync(join(FIXTURES, "backlog-md-1.52.0-mcp.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
    return {
      routes: [
        { route: "forge CLI", discover: cliDiscover, flow: cliFlow, covers: "all five", from: "forge, forge --skill" },
        {
          route: "forge CLI --json",
          discover: cliDiscover,
          flow: cliJsonFlow,
          covers: "all five",
          from: "forge, forge --skill",
        },
        {
          route: "forge-mcp",
          discover: mcp.discover,
          flow: mcp.flow,
          covers: "all five",
          from: "initialize + tools/list",
        },
        {
          route: "gh 2.23.0 --help",
          discover: gh,
          flow: null,
          covers: "issue, PR, checks, merge (no pilot)",
          from: GH_PAGES.map((p) => p.replace(/-/g, " ")).join(", "),
        },
        {
          route: "Backlog.md 1.52.0 MCP",
          discover: backlog,
          flow: null,
          covers: "tasks only (no PR, CI, merge)",
          from: "initialize + tools/list",
        },
      ],
      toolsListBytes: mcp.toolsList,
      tools: mcp.tools,
    };
  } finally {
    rmSync(cliRepo, { recursive: true, force: true });
    rmSync(mcpRepo, { recursive: true, force: true });
    rmSync(jsonRepo, { recursive: true, force: true });
  }
}

/** The audit as a table, one route a line. */
export function formatAudit(a: Audit): string {
  const rows = a.routes.map((r) => [
    r.route,
    String(r.discover),
    `~${Math.round(r.discover / 4)}`,
    r.flow === null ? "-" : String(r.flow),
    r.covers,
  ]);
  const head = ["token audit", "discover B", "~tokens", "flow B", "covers"];
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]): string =>
    r
      .map((c, i) => (i === 0 || i === 4 ? c.padEnd(w[i]!) : c.padStart(w[i]!)))
      .join("  ")
      .trimEnd();
  return (
    [fmt(head), ...rows.map(fmt)].join("\n") +
    `\nforge-mcp tools/list: ${a.tools} tools, ${a.toolsListBytes} bytes (budget 4096)\n`
  );
}

// --- internal ---

/** A repository with a.txt, one passing CI step, committed, and a branch `fix` one commit ahead. */
function sampleRepo(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "forge-audit-")));
  const git = (args: string[]): void => {
    execFileSync("git", args, { cwd: dir, stdio: "ignore", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" } });
  };
  git(["init", "-q", "-b", "main"]);
  git(["config", "user.name", "alice"]);
  git(["config", "user.email", "alice@example.com"]);
  execFileSync(join(ROOT, "bin", "forge"), ["init"], { cwd: dir, stdio: "ignore" });
  writeFileSync(join(dir, "a.txt"), "one\n");
  mkdirSync(join(dir, ".forge", "ci", "steps"), { recursive: true });
  writeFileSync(join(dir, ".forge", "ci", "steps", "10-ok"), "#!/bin/sh\ntrue\n");
  chmodSync(join(dir, ".forge", "ci", "steps", "10-ok"), 0o755);
  git(["add", "-A"]);
  git(["commit", "-qm", "initial"]);
  git(["checkout", "-q", "-b", "fix"]);
  writeFileSync(join(dir, "a.txt"), "one\ntwo\n");
  git(["commit", "-qam", "fix the count"]);
  git(["checkout", "-q", "main"]);
  return dir;
}

/** Speak JSON-RPC to forge-mcp over stdio (the 2025-11-25 handshake) and count the lines it writes. */
function mcpBytes(
  exe: string,
  cwd: string,
  env: NodeJS.ProcessEnv
): Promise<{ discover: number; flow: number; toolsList: number; tools: number }> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [exe], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    const bytes = new Map<number, number>();
    const waiting = new Map<number, (line: string) => void>();
    let buf = "";
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdout.on("data", (d: Buffer) => {
      buf += d.toString();
      for (let i; (i = buf.indexOf("\n")) >= 0;) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        const msg = JSON.parse(line) as { id?: number };
        if (typeof msg.id !== "number") continue;
        bytes.set(msg.id, Buffer.byteLength(line) + 1);
        waiting.get(msg.id)?.(line);
      }
    });
    child.on("error", rej);
    let id = 0;
    const request = (method: string, params: unknown): Promise<string> => {
      const n = ++id;
      return new Promise((done) => {
        waiting.set(n, done);
        child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: n, method, params }) + "\n");
      });
    };
    void (async () => {
      await request("initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "token-audit", version: "1" },
      });
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
      const list = JSON.parse(await request("tools/list", {})) as { result: { tools: unknown[] } };
      const discover = bytes.get(1)! + bytes.get(2)!;
      let flow = 0;
      for (const [name, args] of MCP_FLOW) {
        const line = await request("tools/call", { name, arguments: args });
        const r = JSON.parse(line) as { result?: { isError?: boolean; content?: Array<{ text?: string }> } };
        if (!r.result || r.result.isError)
          throw new Error(`forge-mcp ${name}: ${r.result?.content?.[0]?.text ?? line}`);
        flow += bytes.get(id)!;
      }
      child.stdin.end();
      res({ discover, flow, toolsList: bytes.get(2)!, tools: list.result.tools.length });
    })().catch((err: Error) => {
      child.kill();
      rej(new Error(`${err.message}${stderr ? `: ${stderr.trim().split("\n")[0]}` : ""}`));
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const audit = await tokenAudit(join(ROOT, "bin"));
  process.stdout.write(process.argv.includes("--json") ? `${JSON.stringify(audit)}\n` : formatAudit(audit));
}
