/**
 * forge-ci's verbs, loaded lazily so `--help` stays cheap.
 */
import { defineNoun } from "@forge/cli";

/** The version every executable reports. */
export const VERSION = "0.1.0";

export default defineNoun({
  meta: {
    name: "forge-ci",
    version: VERSION,
    description: "CI runs of .forge/ci/steps (tests: JUnit/TAP in FORGE_REPORTS_DIR)",
  },
  subCommands: {
    run: () => import("./run.js").then((m) => m.default),
    list: () => import("./list.js").then((m) => m.default),
    view: () => import("./view.js").then((m) => m.default),
    log: () => import("./log.js").then((m) => m.default),
    rerun: () => import("./rerun.js").then((m) => m.default),
    cancel: () => import("./cancel.js").then((m) => m.default),
    adapter: () => import("./adapter.js").then((m) => m.default),
    emit: () => import("./emit.js").then((m) => m.default),
  },
});
