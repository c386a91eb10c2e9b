import { main } from "@forge/cli";
import root from "./mod.js";

void main(root, process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
