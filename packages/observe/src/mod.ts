/**
 * @module
 * forge-observe: an honest observation of a scope — the fold of its
 * evidence imports re-compiled by the kernel, CI runs, PRs, issues and
 * merge records — as JSON lines with a `kind` (spec/loop.md §1). The
 * observation is built by @forge/observation; this is the command.
 */
export { default as observeCommand, FLAGS, type ObserveCliOptions, parseObserveOptions, VERSION } from "./main.js";
