import { dirname } from "node:path";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import command from "./command.js";
import { FULL_HELP, SHORT_HELP } from "./help.js";
import { createServer, VERSION } from "./server.js";

const argv = process.argv.slice(2);
const first = argv[0];
if (first === "-h") process.stdout.write(SHORT_HELP);
else if (first === "--help") process.stdout.write(FULL_HELP);
else if (first === "-v" || first === "--version") process.stdout.write(`forge-mcp ${VERSION}\n`);
else if (first !== undefined) {
  const what = first.startsWith("-") ? "unknown flag" : "unexpected argument";
  process.stderr.write(`${command.meta.name}: ${what} '${first.slice(0, 40)}' (see forge-mcp -h)\n`);
  process.exitCode = 2;
} else {
  const bin = process.argv[1] ? dirname(process.argv[1]) : "";
  serveStdio(() => createServer({ root: process.cwd(), bin }), {
    onerror: (e) => process.stderr.write(`forge-mcp: ${e.message.split("\n")[0]}\n`),
  });
}
