/** `forge-loop history`: one round, or the timeline in event_sequence order (read-only). */
import { UsageError } from "@forge/core";
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { intFlag, LOOP_ARG, loopContext, loopIdOf, output, outFlags, READS_EVENTS, READS_LOOP_MD } from "./_cli.js";
import type { LoopEvent } from "./events.js";
import { loadLoop } from "./store.js";

export const EVENT_FIELDS = [
  "event_sequence",
  "type",
  "at",
  "round",
  "roundId",
  "attempt",
  "decision",
  "reason",
  "status",
  "level",
  "findings",
  "report",
  "hash",
];

/** Options of `historyOf`. */
export interface HistoryOptions {
  round: number | null;
  from: number;
  to: number | null;
  limit: number;
}

/** The events asked for: a round's (all its attempts), or a sequence window. */
export function selectEvents(events: LoopEvent[], o: HistoryOptions): LoopEvent[] {
  const inRange = events.filter((e) => e.event_sequence >= o.from && (o.to === null || e.event_sequence <= o.to));
  const picked = o.round === null ? inRange : inRange.filter((e) => e.round === o.round);
  return picked.slice(0, o.limit);
}

/** `seq  type  at  detail`. */
export function formatEvent(e: Record<string, unknown>): string {
  const detail = [
    e.round !== undefined ? `round ${String(e.round)}` : "",
    e.attempt !== undefined ? `attempt ${String(e.attempt)}` : "",
    e.decision ? String(e.decision) : "",
    e.level ? String(e.level) : "",
    e.status ? `→ ${String(e.status)}` : "",
  ]
    .filter(Boolean)
    .join(" ");
  return `${String(e.event_sequence)}\t${String(e.type)}\t${String(e.at)}\t${detail}\n`;
}

export default defineCommand({
  meta: {
    name: "history",
    description: "Show a round, or the event timeline",
    help: {
      reads: [READS_LOOP_MD, READS_EVENTS],
      examples: [
        "forge-loop history 3f2a",
        "forge-loop history 3f2a --round 2 --json type,attempt,decision,findings",
        "forge-loop history 3f2a --from-sequence 10 --to-sequence 20 -L 5",
      ],
      notes: [
        "Read-only: events in event_sequence order, one line each (sequence, type, time, round, attempt, decision, " +
          "level, status).",
      ],
    },
  },
  args: {
    ...LOOP_ARG,
    round: {
      type: "string",
      valueHint: "n",
      description: "only this round's events, every attempt (default: every round)",
    },
    "from-sequence": { type: "string", valueHint: "n", description: "the first event_sequence shown (default: 1)" },
    "to-sequence": {
      type: "string",
      valueHint: "n",
      description: "the last event_sequence shown (default: the last event)",
    },
    limit: { type: "string", alias: "L", valueHint: "n", description: "events at most, 1-200 (default: 50)" },
    ...outFlags(EVENT_FIELDS),
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const o: HistoryOptions = {
      round: args.round === undefined ? null : intFlag(args, "round", 1, 1, 1_000_000),
      from: intFlag(args, "from-sequence", 1, 1, Number.MAX_SAFE_INTEGER),
      to: args["to-sequence"] === undefined ? null : intFlag(args, "to-sequence", 1, 1, Number.MAX_SAFE_INTEGER),
      limit: intFlag(args, "limit", 50, 1, 200),
    };
    if (o.to !== null && o.to < o.from) throw new UsageError("--to-sequence is before --from-sequence");
    const lc = loopContext(ctx);
    const l = await loadLoop(lc.store, loopIdOf(lc, args));
    await output(ctx, args, EVENT_FIELDS, selectEvents(l.events, o), formatEvent);
  },
});
