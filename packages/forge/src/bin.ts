import { forgeMain } from "./main.js";

void forgeMain(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
