/** forge-mcp's help: `-h` the short usage (≤ 8 lines, ≤ 250 bytes), `--help` the full page. */
import { TOOLS } from "./tools.js";

/** `forge-mcp -h`. */
export const SHORT_HELP = `usage: forge-mcp  (= forge mcp)
An MCP server on stdio: forge's verbs as tools
tools: ${TOOLS.map((t) => t.name).join(" ")}
help: forge-mcp --help
`;

/** `forge-mcp --help`. */
export const FULL_HELP = `usage: forge-mcp [flags]  (= forge mcp)

An MCP server on stdio (protocol 2025-11-25 and 2026-07-28): forge's verbs as tools, each a thin
adapter that runs forge-<noun> <verb> … --json with an argv array and returns its JSON lines as
structuredContent (one record, or {items} for a list) with a one-line text.

tools:
${TOOLS.map((t) => `  ${t.name.padEnd(22)}  ${t.description}`).join("\n")}

arguments every tool takes:
  verb                    the gh verb (an enum per tool)
  repo                    the repository folder, relative to the server's working directory
                          (default: it); a path outside it is refused
  fields                  list and view verbs: a comma list, as --json <fields>

flags:
  -h, --help              -h: the short usage; --help: this page
  -v, --version           the version

register with an MCP client (stdio):
  {"mcpServers": {"forge": {"command": "forge-mcp", "args": [], "cwd": "/path/to/repo"}}}

environment:
  FORGE_DIR               ignored: each call's store is the one found from its repo
  FORGE_AUTHOR            who writes are recorded as (passed to the executables)

Not exposed: commands the executables would run for the caller (forge-loop --check,
forge-pilot --refine-with). Spec: spec/mcp.md.

examples:
  forge-mcp
  forge-mcp --version

exit: 0 when the client closes stdin, 2 usage error; errors are one line on stderr
`;
