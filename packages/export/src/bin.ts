import { exitWith, mainCommand, processIo } from "@forge/cli";
import command from "./main.js";
import { packRun } from "./pack_cmd.js";

const argv = process.argv.slice(2);
void (argv[0] === "pack" ? packRun(processIo(), argv.slice(1)) : mainCommand(command, argv)).then(exitWith);
