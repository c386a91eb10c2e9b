/**
 * @module
 * forge-task: a kanban over `.forge/tasks/` with no board file; the columns
 * (todo, doing, blocked, done) are each task's `status`. Verb bodies load
 * lazily so `--help` stays cheap.
 */
import { defineNoun } from "@forge/cli";

/** The version every executable reports. */
export const VERSION = "0.1.0";

export default defineNoun({
  meta: { name: "forge-task", version: VERSION, description: "a kanban in .forge/tasks" },
  subCommands: {
    create: () => import("./create.js").then((m) => m.default),
    list: () => import("./list.js").then((m) => m.default),
    view: () => import("./view.js").then((m) => m.default),
    move: () => import("./move.js").then((m) => m.default),
    done: () => import("./done.js").then((m) => m.default),
    edit: () => import("./edit.js").then((m) => m.default),
    archive: () => import("./archive.js").then((m) => m.default),
  },
});
