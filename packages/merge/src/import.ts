import { defineCommand } from "@forge/cli";
import { ForgeError } from "@forge/core";

export default defineCommand({
  meta: { name: "import", description: "Bring in a foreign .forge/ (dir or zip)" },
  args: { source: { type: "positional", required: true, valueHint: "dir|zip" }, json: { type: "boolean", description: "JSON lines" } },
  run() {
    throw new ForgeError("not implemented yet", "E_TODO", 1);
  },
});
