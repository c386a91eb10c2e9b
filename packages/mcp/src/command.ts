/**
 * forge-mcp's command table, in the shape the other executables' roots have (meta and flags), for the help
 * checks that read every executable's table: forge-mcp takes no flags but -h, --help and --version.
 */
export default {
  meta: { name: "forge-mcp", description: "An MCP server on stdio: forge's verbs as tools" },
  args: {},
};
