/**
 * The sample repository maker (tools/sample_repo.ts), for end-to-end tests:
 * loaded from tools/dist at run time (test/dist and tools/dist sit at
 * different depths from their sources), typed from its declarations.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./run.js";

type SampleModule = typeof import("../../tools/dist/sample_repo.js");
export type { SampleInfo, SampleOptions } from "../../tools/dist/sample_repo.js";

const mod = (await import(pathToFileURL(join(ROOT, "tools", "dist", "sample_repo.js")).href)) as SampleModule;

/** `makeSampleRepo(dir, { seed, binDir })`: see tools/sample_repo.ts. */
export const makeSampleRepo: SampleModule["makeSampleRepo"] = mod.makeSampleRepo;
/** Whether the flaky step's invocation `i` fails under `seed`. */
export const netFails: SampleModule["netFails"] = mod.netFails;
