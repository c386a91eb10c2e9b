import { main } from "@forge/cli";
import root from "./mod.js";

process.exitCode = await main(root, process.argv.slice(2));
