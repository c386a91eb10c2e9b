import { exitWith, main } from "@forge/cli";
import root from "./noun.js";

void main(root, process.argv.slice(2)).then(exitWith);
