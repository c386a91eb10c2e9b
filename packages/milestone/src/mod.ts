/**
 * @module
 * forge-milestone: milestones in `.forge/milestones.md` (title, due date,
 * description, state), in GitHub's milestone JSON shape. Issues name a
 * milestone by its title. Verb bodies load lazily so `--help` stays cheap.
 */
import { defineNoun } from "@forge/cli";

/** The version every executable reports. */
export const VERSION = "0.1.0";

export default defineNoun({
  meta: { name: "forge-milestone", version: VERSION, description: "milestones in .forge/milestones.md" },
  subCommands: {
    list: () => import("./list.js").then((m) => m.default),
    create: () => import("./create.js").then((m) => m.default),
    edit: () => import("./edit.js").then((m) => m.default),
    close: () => import("./close.js").then((m) => m.default),
    reopen: () => import("./reopen.js").then((m) => m.default),
  },
});
