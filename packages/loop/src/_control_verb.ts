/** pause, resume, stop, status: a loop ref in, its status record out. */
import { defineCommand, type Ctx, type FlagsDef, type ForgeCommand, type HelpMeta, type Parsed } from "@forge/cli";
import { ENV_NOW, READS_EVENTS, READS_LOOP_MD, LOOP_ARG, loopContext, loopIdOf, output, outFlags } from "./_cli.js";
import type { LoopContext } from "./engine.js";

export const STATUS_FIELDS = [
  "kind",
  "loop_id",
  "status",
  "goal",
  "domain",
  "round",
  "roundId",
  "attempt",
  "awaiting",
  "lastDecision",
  "reason",
  "stopReason",
  "level",
  "criteria",
  "openGates",
  "acceptedRounds",
  "maxRounds",
  "phase",
  "drift",
  "refinements",
  "escalation",
  "stateHash",
  "promptHash",
  "updatedAt",
  "eventSequence",
  "prompt",
  "decision",
];

/** `key:\tvalue` lines; the prompt last. */
export function formatStatus(r: Record<string, unknown>): string {
  const c = r.criteria as { total: number; verified: number };
  const lines = [
    `loop:\t${String(r.loop_id)}`,
    `status:\t${String(r.status)}${r.stopReason ? ` (${String(r.stopReason)})` : ""}`,
    `goal:\t${String(r.goal)}`,
    `round:\t${String(r.round)} (${String(r.roundId)}) attempt ${String(r.attempt)} · ${String(r.level)} · awaiting ` +
      `${String(r.awaiting)}`,
    `rounds:\t${String(r.acceptedRounds)}/${String(r.maxRounds)} accepted` +
      (r.phase ? ` · phase ${String(r.phase)}` : ""),
    ...(r.drift ? [`drift:\t${String(r.drift)}`] : []),
    `criteria:\t${c.verified}/${c.total} verified`,
    `gates:\t${String(r.openGates)} open`,
    `stateHash:\t${String(r.stateHash)}`,
    `promptHash:\t${String(r.promptHash)}`,
  ];
  return lines.join("\n") + "\n" + (typeof r.prompt === "string" ? `--\n${r.prompt}` : "");
}

/** A verb over one loop. */
export function controlVerb(
  name: string,
  description: string,
  extra: FlagsDef,
  fn: (lc: LoopContext, id: string, args: Parsed) => Promise<Record<string, unknown>>,
  help: HelpMeta
): ForgeCommand {
  return defineCommand({
    meta: { name, description, help: { reads: [READS_LOOP_MD, READS_EVENTS], env: [ENV_NOW], ...help } },
    args: { ...LOOP_ARG, ...extra, ...outFlags(STATUS_FIELDS) },
    async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
      const lc = loopContext(ctx);
      const rec = await fn(lc, loopIdOf(lc, args), args);
      await output(ctx, args, STATUS_FIELDS, [rec], formatStatus);
    },
  });
}
