/**
 * forge-mcp end to end, through the SDK's own client over stdio: tools/list within its byte budget; the flow
 * issue create → pr create → ci run → pr merge → pilot run on a temp repository, in both protocol eras (a client
 * on the 2025-11-25 handshake, one pinned to 2026-07-28), every result validated against its tool's
 * outputSchema and equal (what a run makes up masked) to the same steps through the CLI; hostile arguments
 * (schema violations, unknown refs, paths outside the repository) answered with a one-line isError and nothing
 * written; the README's client registration snippet run as written; the help texts within budget.
 */
import test, { type ExecutionContext } from "ava";
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readdirSync, readFileSync, lstatSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, fromJsonSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { golden } from "./lib/golden.js";
import { baseEnv, BIN, git, jsonl, ROOT, run, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

/** tools/list's budget (issue 28): the whole set, as the client receives it. */
const LIST_BUDGET = 4096;
/** Long enough for a pilot iteration on a loaded machine. */
const TIMEOUT = 300_000;

type Era = "2025-11-25" | "2026-07-28";

/** A repository with a.txt and one passing CI step, committed on main. */
function repo(prefix = "forge-mcp-"): string {
  const dir = scratch(tempRepo(prefix));
  writeFileSync(join(dir, "a.txt"), "one\n");
  const steps = join(dir, ".forge", "ci", "steps");
  mkdirSync(steps, { recursive: true });
  writeFileSync(join(steps, "10-ok"), "#!/bin/sh\ntrue\n");
  chmodSync(join(steps, "10-ok"), 0o755);
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "initial"]);
  return dir;
}

/** A branch `fix` one commit ahead of main, main checked out again. */
function branch(dir: string): void {
  git(dir, ["checkout", "-q", "-b", "fix"]);
  writeFileSync(join(dir, "a.txt"), "one\ntwo\n");
  git(dir, ["commit", "-qam", "fix the count"]);
  git(dir, ["checkout", "-q", "main"]);
}

/** A client connected to `command args` in `cwd`, on the given era. */
async function connect(
  cwd: string,
  era: Era = "2025-11-25",
  command = join(BIN, "forge-mcp"),
  args: string[] = []
): Promise<Client> {
  const client = new Client(
    { name: "forge-test", version: "1.0.0" },
    era === "2026-07-28" ? { versionNegotiation: { mode: { pin: era } } } : {}
  );
  const env = Object.fromEntries(Object.entries(baseEnv()).filter((e): e is [string, string] => e[1] !== undefined));
  await client.connect(new StdioClientTransport({ command, args, cwd, env, stderr: "pipe" }));
  if (client.getNegotiatedProtocolVersion() !== era)
    throw new Error(`negotiated ${client.getNegotiatedProtocolVersion()}, not ${era}`);
  return client;
}

/** Call a tool; the result must not be an error, must carry one text line, and must satisfy the outputSchema. */
async function call(
  t: ExecutionContext,
  client: Client,
  tools: Map<string, Tool>,
  name: string,
  args: Record<string, unknown>
): Promise<Record<string, unknown>> {
  const r = (await client.callTool({ name, arguments: args }, { timeout: TIMEOUT })) as CallToolResult;
  const text = r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
  t.falsy(r.isError, `${name} ${JSON.stringify(args)}: ${text}`);
  t.notRegex(text, /\n/, "one line of text");
  const out = r.structuredContent as Record<string, unknown>;
  t.truthy(out, `${name}: structuredContent`);
  const schema = tools.get(name)!.outputSchema!;
  const v = await fromJsonSchema(schema as Parameters<typeof fromJsonSchema>[0])["~standard"].validate(out);
  t.falsy("issues" in v && v.issues, `${name}: ${JSON.stringify("issues" in v ? v.issues : [])}`);
  return out;
}

async function toolsOf(client: Client): Promise<Map<string, Tool>> {
  const { tools } = await client.listTools();
  return new Map(tools.map((x) => [x.name, x]));
}

/** What a run makes up: ids, hashes, times, durations, the temp path. */
function mask(v: unknown, dir: string): unknown {
  if (typeof v === "string")
    return v
      .split(dir)
      .join("<repo>")
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>")
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/g, "<time>")
      .replace(/\b[0-9a-f]{7,64}\b/g, "<hex>")
      .replace(/\d+\.\d+ s\b/g, "<secs>");
  if (Array.isArray(v)) return v.map((x) => mask(x, dir));
  if (v && typeof v === "object")
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [
        k,
        /^(durationMs|elapsed_seconds|seconds|ms)$/.test(k) && typeof x === "number" ? 0 : mask(x, dir),
      ])
    );
  return v;
}

/** The flow through MCP; returns each step's structuredContent. */
async function flowMcp(t: ExecutionContext, dir: string, era: Era): Promise<unknown[]> {
  const client = await connect(dir, era);
  try {
    const tools = await toolsOf(client);
    const out: unknown[] = [];
    out.push(await call(t, client, tools, "issue", { verb: "create", title: "Count is off", body: "one, not two" }));
    out.push(
      await call(t, client, tools, "pr", {
        verb: "create",
        title: "Fix the count",
        base: "main",
        head: "fix",
        issue: 1,
      })
    );
    out.push(await call(t, client, tools, "ci", { verb: "run", number: 1 }));
    out.push(await call(t, client, tools, "pr", { verb: "merge", number: 1 }));
    out.push(await call(t, client, tools, "issue", { verb: "list", state: "all", fields: "number,state,title" }));
    out.push(await call(t, client, tools, "pilot", { verb: "run", maxIterations: 1 }));
    return out;
  } finally {
    await client.close();
  }
}

/** The same flow through the CLI. */
async function flowCli(t: ExecutionContext, dir: string): Promise<unknown[]> {
  const steps: Array<[string, string[]]> = [
    ["forge-issue", ["create", "-t", "Count is off", "-b", "one, not two", "--json"]],
    ["forge-pr", ["create", "-t", "Fix the count", "-B", "main", "-H", "fix", "--issue", "1", "--json"]],
    ["forge-ci", ["run", "1", "--json"]],
    ["forge-pr", ["merge", "1", "--json"]],
    ["forge-issue", ["list", "--state", "all", "--json", "number,state,title"]],
    ["forge-pilot", ["run", "--max-iterations", "1", "--json"]],
  ];
  const out: unknown[] = [];
  for (const [cmd, args] of steps) {
    const r = await run(cmd, args, { cwd: dir });
    t.is(r.code, 0, `${cmd} ${args.join(" ")}: ${r.stderr}`);
    const lines = jsonl(r.stdout);
    out.push(args[0] === "list" ? { items: lines } : lines[0]);
  }
  return out;
}

test("tools/list: six tools, one-line descriptions, within 4 KB; tools/list is the same in both eras", async (t) => {
  const dir = repo();
  const a = await connect(dir);
  const b = await connect(dir, "2026-07-28");
  try {
    const la = await a.listTools();
    const lb = await b.listTools();
    const bytes = Buffer.byteLength(JSON.stringify(la));
    t.log(`tools/list: ${la.tools.length} tools, ${bytes} bytes`);
    t.true(bytes <= LIST_BUDGET, `tools/list is ${bytes} bytes > ${LIST_BUDGET}`);
    t.deepEqual(
      la.tools.map((x) => x.name),
      ["issue", "pr", "task", "ci", "pilot", "loop"]
    );
    for (const tool of la.tools) {
      t.truthy(tool.description);
      t.notRegex(tool.description!, /\n/);
      t.true(tool.description!.length <= 80, `${tool.name}: description over 80 characters`);
      t.truthy(tool.outputSchema, `${tool.name}: outputSchema`);
      t.truthy((tool.inputSchema.properties as Record<string, unknown>).repo, `${tool.name}: repo argument`);
    }
    t.deepEqual(lb.tools, la.tools);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

for (const era of ["2025-11-25", "2026-07-28"] as const) {
  test(`issue → pr → ci → merge → pilot through MCP (${era}) gives the CLI's JSON, every result valid`, async (t) => {
    t.timeout(TIMEOUT * 2);
    const viaMcp = repo("forge-mcp-flow-");
    const viaCli = repo("forge-mcp-cli-");
    branch(viaMcp);
    branch(viaCli);
    const [m, c] = await Promise.all([flowMcp(t, viaMcp, era), flowCli(t, viaCli)]);
    t.is(m.length, 6);
    const merged = m[3] as { verdict: string };
    t.is(merged.verdict, "merged");
    t.is((m[2] as { conclusion: string }).conclusion, "success");
    t.is((m[5] as { kind: string }).kind, "report");
    t.deepEqual(
      (m[4] as { items: unknown[] }).items,
      [{ number: 1, state: "CLOSED", title: "Count is off" }],
      "the merge closed the issue"
    );
    for (let i = 0; i < m.length; i++) t.deepEqual(mask(m[i], viaMcp), mask(c[i], viaCli), `step ${i + 1}`);
  });
}

/** Every file under `dir` (.git's objects and forge's rebuildable caches aside), with a hash of its bytes. */
function tree(dir: string, rel = ""): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (p === ".forge/.cache" || p === ".git/objects" || p === ".git/logs") continue;
    if (e.isDirectory()) out.push(`${p}/`, ...tree(dir, p));
    else if (e.isSymbolicLink()) out.push(`${p} -> link`);
    else
      out.push(
        `${p} ${createHash("sha256")
          .update(readFileSync(join(dir, p)))
          .digest("hex")}`
      );
  }
  return out.sort();
}

/** Fifty-odd argument sets that must each fail with one line, before or inside the executable, writing nothing. */
const HOSTILE: Array<[string, Record<string, unknown>]> = [
  ["issue", {}],
  ["issue", { verb: "frob" }],
  ["issue", { verb: 1 }],
  ["issue", { verb: "__proto__" }],
  ["issue", { verb: "create", title: 5 }],
  ["issue", { verb: "create", title: "" }],
  ["issue", { verb: "create", title: "x\u0000y" }],
  ["issue", { verb: "create", title: "x", state: "open" }],
  ["issue", { verb: "create", title: "x", evil: "1" }],
  ["issue", { verb: "create", title: "x", repo: "../" }],
  ["issue", { verb: "create", title: "x", repo: "/" }],
  ["issue", { verb: "create", title: "x", repo: "/etc" }],
  ["issue", { verb: "create", title: "x", repo: "sub/../../.." }],
  ["issue", { verb: "create", title: "x", repo: "escape" }],
  ["issue", { verb: "create", title: "x", repo: "escape/inner" }],
  ["issue", { verb: "create", title: "x", repo: "nowhere" }],
  ["issue", { verb: "create", title: "x", repo: "a.txt" }],
  ["issue", { verb: "create", title: "x", repo: "" }],
  ["issue", { verb: "create", title: "x", repo: "\u0000" }],
  ["issue", { verb: "create", title: "x", repo: 5 }],
  ["issue", { verb: "view", number: 99 }],
  ["issue", { verb: "view", number: 0 }],
  ["issue", { verb: "view", number: -1 }],
  ["issue", { verb: "view", number: 1.5 }],
  ["issue", { verb: "view", number: "1" }],
  ["issue", { verb: "view", number: 1, label: "bug" }],
  ["issue", { verb: "comment", number: 99, body: "x" }],
  ["issue", { verb: "close", number: 99 }],
  ["issue", { verb: "edit", number: 99, title: "x" }],
  ["issue", { verb: "list", state: "bogus" }],
  ["issue", { verb: "list", limit: 0 }],
  ["issue", { verb: "list", fields: "bogus" }],
  ["issue", { verb: "list", fields: "number,../../etc/passwd" }],
  ["issue", { verb: "list", fields: "number\ntitle" }],
  ["pr", { verb: "view", number: 99 }],
  ["pr", { verb: "merge", number: 99 }],
  ["pr", { verb: "checks", number: 99 }],
  ["pr", { verb: "create", title: "x", head: "--exec=touch pwned" }],
  ["pr", { verb: "create", title: "x", head: "main; touch pwned" }],
  ["pr", { verb: "create", title: "x", base: "../../x", head: "nope" }],
  ["pr", { verb: "create", number: 1, title: "x" }],
  ["pr", { verb: "list", state: "OPEN" }],
  ["task", { verb: "view", number: 99 }],
  ["task", { verb: "move", number: 99, status: "done" }],
  ["task", { verb: "move", number: 1, status: "later" }],
  ["ci", { verb: "view", number: 99 }],
  ["ci", { verb: "run", number: 99 }],
  ["ci", { verb: "rerun", number: 99 }],
  ["pilot", { verb: "run", maxIterations: 0 }],
  ["pilot", { verb: "run", maxIterations: 1001 }],
  ["pilot", { verb: "run", refineWith: "touch pwned" }],
  ["loop", { verb: "status", loop: "../../etc" }],
  ["loop", { verb: "status", loop: "ffffffff" }],
  ["loop", { verb: "next", loop: "ffff", report: {} }],
  ["loop", { verb: "start" }],
  ["loop", { verb: "start", task: "x", criterion: "not a list" }],
  ["loop", { verb: "start", task: "x", check: "touch pwned" }],
];

test(`${HOSTILE.length} hostile argument sets: each an isError with one line, nothing written`, async (t) => {
  t.timeout(TIMEOUT);
  t.true(HOSTILE.length >= 50);
  const dir = repo("forge-mcp-hostile-");
  const outside = scratch(realpathSync(mkdtempSync(join(tmpdir(), "forge-mcp-outside-"))));
  mkdirSync(join(outside, "inner"));
  symlinkSync(outside, join(dir, "escape"));
  mkdirSync(join(dir, "sub"));
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "links"]);
  const before = tree(dir);
  const beforeOutside = tree(outside);
  const client = await connect(dir);
  try {
    for (const [name, args] of HOSTILE) {
      const r = (await client.callTool({ name, arguments: args }, { timeout: TIMEOUT })) as CallToolResult;
      const text = r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
      t.true(r.isError, `${name} ${JSON.stringify(args)}: not an error: ${text}`);
      t.is(r.content.length, 1);
      t.regex(text, /^.+$/, `${name} ${JSON.stringify(args)}: one line`);
      t.notRegex(text, /\n/);
      t.true(text.length <= 600, `${name} ${JSON.stringify(args)}: ${text.length} characters`);
    }
  } finally {
    await client.close();
  }
  t.deepEqual(tree(dir), before, "nothing written in the repository");
  t.deepEqual(tree(outside), beforeOutside, "nothing written outside it");
  t.false(lstatSync(join(dir, "escape")).isDirectory(), "the link is still a link");
});

test("a repo argument inside the server's folder is served: a subfolder finds the store above it", async (t) => {
  const root = scratch(realpathSync(mkdtempSync(join(tmpdir(), "forge-mcp-root-"))));
  const dir = repo();
  git(root, ["clone", "-q", dir, "proj"]);
  // The clone has the committed store; its CI runs folder is gitignored and created on demand.
  const client = await connect(root);
  try {
    const tools = await toolsOf(client);
    const made = await call(t, client, tools, "issue", { verb: "create", title: "From above", repo: "proj" });
    t.is(made.number, 1);
    const listed = await call(t, client, tools, "issue", { verb: "list", fields: "title", repo: "proj/.forge" });
    t.deepEqual(listed, { items: [{ title: "From above" }] });
    const r = (await client.callTool({ name: "issue", arguments: { verb: "list" } })) as CallToolResult;
    t.true(r.isError, "the root itself has no store");
  } finally {
    await client.close();
  }
});

test("task and loop verbs answer through MCP with the CLI's shapes", async (t) => {
  const dir = repo();
  const client = await connect(dir);
  try {
    const tools = await toolsOf(client);
    const task = await call(t, client, tools, "task", { verb: "create", title: "Write the docs" });
    const moved = await call(t, client, tools, "task", { verb: "move", number: 1, status: "doing" });
    t.is(moved.status, "doing");
    const cli = jsonl((await run("forge-task", ["view", "1", "--json"], { cwd: dir })).stdout)[0]!;
    const viaMcp = await call(t, client, tools, "task", { verb: "view", number: 1 });
    t.deepEqual(viaMcp, cli);
    t.is(task.number, 1);
    const started = await call(t, client, tools, "loop", { verb: "start", task: "Ship it", criterion: ["CI passes"] });
    t.is(started.kind, "loop_round");
    const id = String(started.loop_id);
    const status = await call(t, client, tools, "loop", {
      verb: "status",
      loop: id.slice(0, 8),
      fields: "status,round",
    });
    t.deepEqual(status, { status: "active", round: 1 });
    const list = await call(t, client, tools, "loop", { verb: "list", fields: "loop_id" });
    t.deepEqual(list, { items: [{ loop_id: id }] });
  } finally {
    await client.close();
  }
});

/** The README's registration snippet, between its markers. */
function readmeSnippet(): { command: string; args: string[]; cwd?: string } {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const m = /<!-- mcp-config -->\s*```json\n([\s\S]*?)```/.exec(readme);
  if (!m) throw new Error("README.md: no <!-- mcp-config --> json block");
  const cfg = JSON.parse(m[1]!) as { mcpServers: Record<string, { command: string; args: string[]; cwd?: string }> };
  return cfg.mcpServers.forge!;
}

test("the README's client configuration starts the server as written (forge mcp, in the repository)", async (t) => {
  const dir = repo();
  const snippet = readmeSnippet();
  t.is(snippet.cwd, "/path/to/your/repo");
  const client = await connect(dir, "2025-11-25", join(BIN, snippet.command), snippet.args);
  try {
    const tools = await toolsOf(client);
    t.is(tools.size, 6);
    const made = await call(t, client, tools, "issue", { verb: "create", title: "Hello" });
    t.is(made.title, "Hello");
  } finally {
    await client.close();
  }
});

test("forge-mcp -h within 8 lines, 250 bytes; --help the full page; goldens; a stray argument: exit 2", async (t) => {
  const short = await run("forge-mcp", ["-h"], { cwd: tmpdir() });
  t.is(short.code, 0);
  t.true(short.stdout.split("\n").length - 1 <= 8);
  t.true(Buffer.byteLength(short.stdout) <= 250);
  golden(t, "help/forge-mcp.txt", short.stdout);
  const full = await run("forge", ["mcp", "--help"], { cwd: tmpdir() });
  t.is(full.code, 0);
  golden(t, "help/forge-mcp.full.txt", full.stdout);
  const bad = await run("forge-mcp", ["--bogus"], { cwd: tmpdir() });
  t.is(bad.code, 2);
  t.is(bad.stderr.split("\n").length, 2);
  t.regex(bad.stderr, /^forge-mcp: unknown flag '--bogus'/);
});
