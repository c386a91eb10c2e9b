import { exitWith, main } from "@forge/cli";
import root, { withVerb } from "./mod.js";

void main(root, withVerb(process.argv.slice(2))).then(exitWith);
