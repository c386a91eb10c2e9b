/**
 * @module
 * forge-release: releases in `.forge/releases/<tag>.md`. `create` builds
 * the tagged commit in a disposable worktree and records every artifact's
 * size and sha256; `list`, `view`, and `verify` (recomputes the digests).
 * Verb bodies load lazily so `--help` stays cheap.
 */
import { defineNoun, REPO_FLAG } from "@forge/cli";

/** The version every executable reports. */
export const VERSION = "0.1.0";

export default defineNoun({
  meta: { name: "forge-release", version: VERSION, description: "releases in .forge/releases" },
  subCommands: {
    create: () => import("./create.js").then((m) => m.default),
    list: () => import("./list.js").then((m) => m.default),
    view: () => import("./view.js").then((m) => m.default),
    verify: () => import("./verify.js").then((m) => m.default),
  },
  flags: REPO_FLAG,
});
