import { exitWith, mainCommand } from "@forge/cli";
import command from "./main.js";

void mainCommand(command, process.argv.slice(2)).then(exitWith);
