/**
 * The MCP server: the tool table (tools.ts) registered on the SDK's McpServer. A call resolves its `repo`,
 * builds the executable's argv, runs it and turns its JSON lines into `structuredContent` (one record, or
 * `{items}` for a list) with a one-line text; a failure is an `isError` result carrying the CLI's one line.
 */
import { fromJsonSchema, McpServer, type CallToolResult } from "@modelcontextprotocol/server";
import { resolveRepo } from "./repo.js";
import { runExecutable } from "./_spawn.js";
import { type Args, type Invocation, ToolArgError, TOOLS } from "./tools.js";

/** The version forge-mcp reports (serverInfo, --version). */
export const VERSION = "0.1.0";

/** Where the server runs: its root (the default repo) and the folder of forge's executables. */
export interface ServerOptions {
  root: string;
  bin: string;
}

/** A new McpServer with every tool registered (serveStdio calls this once per connection). */
export function createServer(opts: ServerOptions): McpServer {
  const server = new McpServer({ name: "forge-mcp", version: VERSION }, { capabilities: { tools: {} } });
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: fromJsonSchema<Args>(tool.inputSchema),
        outputSchema: fromJsonSchema(tool.outputSchema),
      },
      (args: Args, ctx) => callTool(opts, tool.invocation.bind(tool), args, ctx.mcpReq?.signal)
    );
  }
  return server;
}

/**
 * One call: the repo, the argv, the run, the result. Never throws: every failure is an isError result.
 */
export async function callTool(
  opts: ServerOptions,
  invocation: (args: Args) => Invocation,
  args: Args,
  signal?: AbortSignal
): Promise<CallToolResult> {
  let inv: Invocation;
  let cwd: string;
  try {
    cwd = resolveRepo(opts.root, args.repo);
    inv = invocation(args);
  } catch (err) {
    return failure(err instanceof ToolArgError ? `forge-mcp: ${err.message}` : `forge-mcp: ${message(err)}`);
  }
  let ran;
  try {
    ran = await runExecutable(opts.bin, inv.exe, inv.argv, { cwd, stdin: inv.stdin, signal });
  } catch (err) {
    return failure(`forge-mcp: ${inv.exe} ${inv.argv[0]}: ${message(err)}`);
  }
  if (ran.code !== 0) return failure(errorLine(inv.exe, ran.stderr) ?? `${inv.exe} ${inv.argv[0]}: exit ${ran.code}`);
  let records: Array<Record<string, unknown>>;
  try {
    records = ran.stdout
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  } catch {
    return failure(`forge-mcp: ${inv.exe} ${inv.argv[0]}: printed a line that is not JSON`);
  }
  const one = !inv.many && records.length === 1 && isObject(records[0]);
  const structured = one ? records[0]! : { items: records };
  return {
    content: [{ type: "text", text: summary(inv, records, one) }],
    structuredContent: structured,
  };
}

// --- internal ---

function failure(line: string): CallToolResult {
  return { content: [{ type: "text", text: oneLine(line) }], isError: true };
}

/** The CLI's one-line error: its last stderr line naming an executable, else its last line. */
function errorLine(exe: string, stderr: string): string | undefined {
  const lines = stderr.split("\n").filter((l) => l.trim() !== "");
  return [...lines].reverse().find((l) => l.startsWith(`${exe}`) || l.startsWith("forge")) ?? lines.at(-1);
}

function summary(inv: Invocation, records: Array<Record<string, unknown>>, one: boolean): string {
  const what = `${inv.exe} ${inv.argv[0]}`;
  if (!one) return `${what}: ${records.length} record${records.length === 1 ? "" : "s"}`;
  const r = records[0]!;
  const parts = [
    typeof r.number === "number" ? `#${r.number}` : typeof r.databaseId === "number" ? `#${r.databaseId}` : "",
    typeof r.title === "string" ? r.title : "",
    ...["state", "status", "conclusion", "verdict", "halt_reason"].map((k) => (typeof r[k] === "string" ? r[k] : "")),
  ].filter((p) => p !== "");
  return oneLine(`${what}: ${parts.join(" ") || "ok"}`);
}

function oneLine(s: string): string {
  const t = s.replace(/[\r\n]+/g, " ").trim();
  return t.length > 600 ? `${t.slice(0, 599)}…` : t;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
