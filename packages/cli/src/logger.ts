import { createConsola, type ConsolaInstance } from "consola/core";
import type { Io } from "./io.js";

/**
 * The one logger: consola with every level routed to stderr (consola's
 * default sends info/log to stdout, where only data belongs), each line
 * prefixed with the program name so stages of a pipe can be told apart.
 * `FORGE_DEBUG=1` adds debug lines.
 */
export function createLogger(io: Io, prog: string): ConsolaInstance {
  return createConsola({
    level: io.env.FORGE_DEBUG ? 4 : 3,
    reporters: [
      {
        log(obj) {
          const msg = obj.args
            .map((a) => (a instanceof Error ? (io.env.FORGE_DEBUG ? a.stack : a.message) : String(a)))
            .join(" ");
          const tag = obj.type === "warn" ? "warning: " : obj.type === "error" || obj.type === "fatal" ? "" : "";
          io.stderr.write(`${prog}: ${tag}${msg}\n`);
        },
      },
    ],
  });
}
