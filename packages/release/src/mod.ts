/**
 * @module
 * forge-release: releases in `.forge/releases/<tag>.md`. `create` builds
 * the tagged commit in a disposable worktree and records every artifact's
 * size and sha256, bound by the file's own digest; `list`, `view`, `verify`
 * (the digest, the tag, the tree and every artifact), `activate` (install
 * into a folder and switch its `current` symlink, with a check and
 * rollback on failure) and `rollback`.
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
    activate: () => import("./activate.js").then((m) => m.default),
    rollback: () => import("./rollback.js").then((m) => m.default),
  },
  flags: REPO_FLAG,
});
