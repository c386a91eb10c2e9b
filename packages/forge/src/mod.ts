/**
 * @module
 * forge: the dispatcher (`forge <noun>` → `forge-<noun>`), `init`, `--skill`.
 */
export { forgeMain, NOUNS, rootHelp, VERSION } from "./main.js";
export { IGNORED, initStore } from "./init.js";
export { SKILL } from "./skill.js";
