/**
 * @module
 * forge-issue: gh's `issue` verbs over `.forge/issues/`. Verb bodies load
 * lazily so `--help` stays cheap.
 */
import { defineNoun, REPO_FLAG } from "@forge/cli";

/** The version every executable reports. */
export const VERSION = "0.1.0";

export default defineNoun({
  meta: { name: "forge-issue", version: VERSION, description: "issues in .forge/issues" },
  subCommands: {
    create: () => import("./create.js").then((m) => m.default),
    list: () => import("./list.js").then((m) => m.default),
    view: () => import("./view.js").then((m) => m.default),
    comment: () => import("./comment.js").then((m) => m.default),
    close: () => import("./close.js").then((m) => m.default),
    reopen: () => import("./reopen.js").then((m) => m.default),
    edit: () => import("./edit.js").then((m) => m.default),
    archive: () => import("./archive.js").then((m) => m.default),
    status: () => import("./status.js").then((m) => m.default),
  },
  flags: REPO_FLAG,
});
