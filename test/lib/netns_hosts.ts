/**
 * The two network-namespace ssh hosts (tools/netns_hosts.ts, shared with the hosts bench case), for
 * end-to-end tests: loaded from tools/dist at run time (test/dist and tools/dist sit at different depths
 * from their sources), typed from its declarations.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./run.js";

type NetnsModule = typeof import("../../tools/dist/netns_hosts.js");

const mod = (await import(pathToFileURL(join(ROOT, "tools", "dist", "netns_hosts.js")).href)) as NetnsModule;

/** `new NetnsHosts(prefix)`: see tools/netns_hosts.ts. */
export const NetnsHosts: NetnsModule["NetnsHosts"] = mod.NetnsHosts;
