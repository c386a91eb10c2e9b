/**
 * @module
 * forge-pr: gh's `pr` verbs over `.forge/prs/` (pr.md, patch.diff,
 * reviews/, comments/). Verb bodies load lazily so `--help` stays cheap.
 */
import { defineNoun, REPO_FLAG } from "@forge/cli";

/** The version every executable reports. */
export const VERSION = "0.1.0";

export default defineNoun({
  meta: { name: "forge-pr", version: VERSION, description: "pull requests in .forge/prs" },
  subCommands: {
    create: () => import("./create.js").then((m) => m.default),
    list: () => import("./list.js").then((m) => m.default),
    view: () => import("./view.js").then((m) => m.default),
    diff: () => import("./diff.js").then((m) => m.default),
    review: () => import("./review.js").then((m) => m.default),
    comment: () => import("./comment.js").then((m) => m.default),
    close: () => import("./close.js").then((m) => m.default),
    reopen: () => import("./reopen.js").then((m) => m.default),
    checkout: () => import("./checkout.js").then((m) => m.default),
    edit: () => import("./edit.js").then((m) => m.default),
    update: () => import("./update.js").then((m) => m.default),
    archive: () => import("./archive.js").then((m) => m.default),
    merge: () => import("./merge.js").then((m) => m.default),
    ready: () => import("./ready.js").then((m) => m.default),
    checks: () => import("./checks.js").then((m) => m.default),
    status: () => import("./status.js").then((m) => m.default),
  },
  flags: REPO_FLAG,
});
