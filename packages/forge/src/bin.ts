import { forgeMain } from "./main.js";

process.exitCode = await forgeMain(process.argv.slice(2));
