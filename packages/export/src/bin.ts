import { exportMain } from "./main.js";

void exportMain(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
