/**
 * @module
 * forge-label: gh's `label` verbs over `.forge/labels.md`. A label is a
 * definition (name, color, description); issues and PRs name labels as text,
 * and only defined ones (a store without `labels.md` has GitHub's default
 * labels). Renaming or deleting a label reaches every issue and PR, as in gh.
 * Verb bodies load lazily so `--help` stays cheap.
 */
import { defineNoun, REPO_FLAG } from "@forge/cli";

/** The version every executable reports. */
export const VERSION = "0.1.0";

export default defineNoun({
  meta: { name: "forge-label", version: VERSION, description: "label definitions in .forge/labels.md" },
  subCommands: {
    list: () => import("./list.js").then((m) => m.default),
    create: () => import("./create.js").then((m) => m.default),
    edit: () => import("./edit.js").then((m) => m.default),
    delete: () => import("./delete.js").then((m) => m.default),
  },
  flags: REPO_FLAG,
});
