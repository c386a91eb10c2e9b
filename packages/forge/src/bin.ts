import { exitWith } from "@forge/cli";
import { forgeMain } from "./main.js";

void forgeMain(process.argv.slice(2)).then(exitWith);
