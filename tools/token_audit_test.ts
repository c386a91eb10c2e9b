/**
 * tools/token_audit.ts on the built bin/: the discovery bytes are exactly what `forge` and `forge --skill`
 * print, what forge-mcp's initialize and tools/list write, and the fixtures' sizes; the flows are counted;
 * tools/list stays within its 4 KB budget; the table names every route.
 */
import test from "ava";
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { formatAudit, GH_PAGES, tokenAudit } from "./token_audit.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = join(ROOT, "bin");
const FIXTURES = join(ROOT, "tools", "fixtures", "token_audit");

test("tokenAudit() counts each route's bytes from real runs and the fixtures", async (t) => {
  t.timeout(600_000);
  const a = await tokenAudit(BIN, { ...process.env, FORGE_AUTHOR: "alice" });
  const byRoute = new Map(a.routes.map((r) => [r.route, r]));
  const printed = (args: string[]): number => execFileSync(join(BIN, "forge"), args, { cwd: tmpdir() }).length;
  t.is(byRoute.get("forge CLI")!.discover, printed([]) + printed(["--skill"]));
  t.is(byRoute.get("forge CLI --json")!.discover, byRoute.get("forge CLI")!.discover);
  t.is(
    byRoute.get("gh 2.23.0 --help")!.discover,
    GH_PAGES.reduce((n, p) => n + statSync(join(FIXTURES, `${p}.txt`)).size, 0)
  );
  t.is(byRoute.get("Backlog.md 1.52.0 MCP")!.discover, statSync(join(FIXTURES, "backlog-md-1.52.0-mcp.jsonl")).size);
  const mcp = byRoute.get("forge-mcp")!;
  t.is(a.tools, 6);
  t.true(a.toolsListBytes <= 4096, `${a.toolsListBytes} bytes`);
  t.true(mcp.discover > a.toolsListBytes && mcp.discover < a.toolsListBytes + 400, "initialize is a short line");
  for (const r of a.routes.slice(0, 3)) t.true((r.flow ?? 0) > 0, `${r.route}: flow counted`);
  t.true(
    byRoute.get("forge CLI --json")!.flow! > byRoute.get("forge CLI")!.flow!,
    "records are longer than the summary"
  );
  const table = formatAudit(a);
  for (const r of a.routes) t.true(table.includes(r.route));
  t.regex(table, /forge-mcp tools\/list: 6 tools, \d+ bytes \(budget 4096\)/);
  t.log(table);
});

test("the Backlog.md fixture is its initialize and tools/list results, 20 tools", (t) => {
  const lines = readFileSync(join(FIXTURES, "backlog-md-1.52.0-mcp.jsonl"), "utf8").trim().split("\n");
  t.is(lines.length, 2);
  const list = JSON.parse(lines[1]!) as { result: { tools: Array<{ name: string }> } };
  t.is(list.result.tools.length, 20);
  t.truthy((JSON.parse(lines[0]!) as { result: { serverInfo: unknown } }).result.serverInfo);
});
