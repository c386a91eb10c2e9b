import { exitWith } from "@forge/cli";
import { main } from "./main.js";

void main(process.argv.slice(2)).then(exitWith);
