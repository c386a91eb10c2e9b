/**
 * @module
 * forge-run: gh's `run` noun (list view rerun watch cancel) over
 * forge-ci's run records, with gh's run fields. Verb bodies load lazily so
 * `--help` stays cheap.
 */
import { defineNoun, REPO_FLAG } from "@forge/cli";

/** The version every executable reports. */
export const VERSION = "0.1.0";

export default defineNoun({
  meta: { name: "forge-run", version: VERSION, description: "gh's run verbs over forge-ci's runs" },
  subCommands: {
    list: () => import("./list.js").then((m) => m.default),
    view: () => import("./view.js").then((m) => m.default),
    rerun: () => import("./rerun.js").then((m) => m.default),
    watch: () => import("./watch.js").then((m) => m.default),
    cancel: () => import("./cancel.js").then((m) => m.default),
  },
  flags: REPO_FLAG,
});
