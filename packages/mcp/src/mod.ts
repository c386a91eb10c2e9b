/**
 * @module
 * forge-mcp: an MCP server on stdio whose tools run forge's executables (tools.ts), never a second
 * implementation of a verb.
 */
export { createServer, callTool, VERSION, type ServerOptions } from "./server.js";
export { resolveRepo } from "./repo.js";
export { type Invocation, type Tool, ToolArgError, TOOLS } from "./tools.js";
export { FULL_HELP, SHORT_HELP } from "./help.js";
