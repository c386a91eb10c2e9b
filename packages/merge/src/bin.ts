import { main } from "@forge/cli";
import root, { withVerb } from "./mod.js";

void main(root, withVerb(process.argv.slice(2))).then((code) => {
  process.exitCode = code;
});
