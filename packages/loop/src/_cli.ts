/**
 * What forge-loop's verbs share: the runtime context from the process's
 * world, the loop ref, reading a file or stdin, and output.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { openStore, printable, UsageError } from "@forge/core";
import { type Ctx, emit, type FlagsDef, jsonFlags, jsonRequestOf, type Parsed } from "@forge/cli";
import { clockOf } from "./_util.js";
import type { LoopContext } from "./engine.js";
import { resolveLoop } from "./store.js";

/** The loop ref positional. */
export const LOOP_ARG: FlagsDef = {
  loop: {
    type: "positional",
    required: true,
    valueHint: "loop",
    description: "loop id or id prefix (4+ hex), as start and list print it",
  },
};

/** `reads:` rows of the help pages. */
export const READS_LOOP_MD: readonly [string, string] = [
  ".forge/loops/<id>/loop.md",
  "the loop's state (frontmatter: goal, criteria, rounds, gates) and the open round's prompt (body)",
];
export const READS_EVENTS: readonly [string, string] = [
  ".forge/loops/<id>/events.jsonl",
  "the hash-chained timeline; a gap, duplicate or edited line is storage_corruption (exit 1)",
];
export const READS_EXPERIENCE: readonly [string, string] = [
  ".forge/experience/<id>.md",
  "experience records (frontmatter: kind scope text revision status expiresAt …)",
];
export const READS_CI_RUNS: readonly [string, string] = [
  ".forge/ci/runs/",
  "forge-ci runs: a ci:<step> claim is read from the latest completed run at the workspace's code tree",
];

/** `env:` rows of the help pages. */
export const ENV_NOW: readonly [string, string] = [
  "FORGE_NOW",
  "the clock: an RFC 3339 UTC timestamp to use as now (default: the system clock)",
];

/** The runtime context of a verb run. */
export function loopContext(ctx: Ctx): LoopContext {
  const now = clockOf(ctx.io.env);
  return {
    store: openStore({ cwd: ctx.io.cwd, env: ctx.io.env }),
    env: ctx.io.env,
    now,
    note: (s) => ctx.io.stderr.write(`${ctx.prog}: note: ${s}\n`),
  };
}

/** The loop id a ref names. */
export function loopIdOf(lc: LoopContext, args: Parsed): string {
  return resolveLoop(lc.store, args.loop as string);
}

/**
 * Read `--report`/`--descriptor`'s value: a file, or stdin for `-`.
 * @throws UsageError when missing or unreadable
 */
export async function readInput(ctx: Ctx, value: unknown, flag: string, max = 256 * 1024): Promise<string> {
  if (typeof value !== "string" || value === "") throw new UsageError(`missing --${flag} <file|->`);
  if (value === "-") {
    let s = "";
    for await (const chunk of ctx.io.stdin as AsyncIterable<Buffer | string>) {
      s += typeof chunk === "string" ? chunk : chunk.toString("utf8");
      if (s.length > max) break;
    }
    return s;
  }
  try {
    return readFileSync(resolve(ctx.io.cwd, value), "utf8");
  } catch {
    throw new UsageError(`--${flag}: cannot read '${printable(value, 60)}'`);
  }
}

/** An integer flag in a range, or its default. */
export function intFlag(args: Parsed, name: string, def: number, min: number, max: number): number {
  const v = args[name];
  if (v === undefined) return def;
  const n = Number(v);
  if (typeof v !== "string" || !/^\d+$/.test(v) || n < min || n > max)
    throw new UsageError(`invalid --${name} '${printable(String(v), 20)}' (${min}..${max})`);
  return n;
}

/** `--json [fields]` / `--jq` for records with these fields. */
export function outFlags(fields: readonly string[]): FlagsDef {
  return jsonFlags(fields);
}

/**
 * Write records: JSON lines with `--json`, else the human text.
 */
export async function output(
  ctx: Ctx,
  args: Parsed,
  fields: readonly string[],
  recs: Array<Record<string, unknown>>,
  text: (r: Record<string, unknown>) => string,
  single = true
): Promise<void> {
  const json = jsonRequestOf(args, fields);
  await emit(ctx.io, ctx.out, recs, {
    json,
    jq: args.jq as string | undefined,
    single: single && recs.length === 1,
    text: (r) => text(r),
  });
}

/** Human text of a record that may open a round: its prompt, or a one-line state. */
export function roundText(r: Record<string, unknown>): string {
  const next = (r.next ?? r) as Record<string, unknown>;
  if (typeof next.prompt === "string" && next.prompt !== "") return next.prompt;
  const why = r.stopReason ? ` (${String(r.stopReason)})` : "";
  return `loop ${String(r.loop_id).slice(0, 8)} is ${String(r.status)}${why}\n`;
}
