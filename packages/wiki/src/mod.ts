/**
 * @module
 * forge-wiki: pages under `.forge/wiki/` (`**\/*.md`): `get`, `put` (body
 * from stdin, atomic) and `list` (an index computed from the tree and each
 * page's first H1, never stored). Page names cannot leave `.forge/wiki/`.
 */
import { defineNoun } from "@forge/cli";

/** The version every executable reports. */
export const VERSION = "0.1.0";

export default defineNoun({
  meta: { name: "forge-wiki", version: VERSION, description: "wiki pages in .forge/wiki" },
  subCommands: {
    get: () => import("./get.js").then((m) => m.default),
    put: () => import("./put.js").then((m) => m.default),
    list: () => import("./list.js").then((m) => m.default),
  },
});
