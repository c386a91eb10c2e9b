/** `forge-loop list`: the recoverable loops (with --all, every loop). */
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { isForgeError, printable } from "@forge/core";
import { loopContext, output, outFlags, READS_EVENTS, READS_LOOP_MD } from "./_cli.js";
import { statusRecord } from "./engine.js";
import { loadLoop, loopIds } from "./store.js";
import { TERMINAL } from "./state.js";
import { STATUS_FIELDS } from "./_control_verb.js";

export default defineCommand({
  meta: {
    name: "list",
    description: "List recoverable loops",
    help: {
      reads: [[".forge/loops/", "every loop's folder"], READS_LOOP_MD, READS_EVENTS],
      examples: [
        "forge-loop list",
        "forge-loop list --all --json loop_id,status,round,goal",
        "forge-loop list --jq '.[].loop_id'",
      ],
      notes: [
        "Read-only: one line per loop (id, status, round, goal). A damaged loop is one stderr line, " +
          "'warning: unreadable:loop:<id>: <why>', and the others are listed: a partial answer, exit 0 (as gh).",
      ],
    },
  },
  args: {
    all: {
      type: "boolean",
      description: "stopped, complete and terminated loops too (default: off, only the ones that can go on)",
    },
    ...outFlags(STATUS_FIELDS),
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const lc = loopContext(ctx);
    const recs: Array<Record<string, unknown>> = [];
    for (const id of loopIds(lc.store)) {
      try {
        const l = await loadLoop(lc.store, id);
        if (args.all || !TERMINAL.includes(l.state.status)) recs.push(statusRecord(l.state, l.prompt, false, l.events));
      } catch (err) {
        if (!isForgeError(err)) throw err;
        // The degradation law (as forge-ci list's unreadable:run:<id>): the damaged loop named, the rest listed.
        ctx.log.warn(`unreadable:loop:${id}: ${printable(err.message, 300)}`);
      }
    }
    await output(
      ctx,
      args,
      STATUS_FIELDS,
      recs,
      (r) => `${String(r.loop_id)}\t${String(r.status)}\tround ${String(r.round)}\t${String(r.goal).slice(0, 60)}\n`,
      false
    );
    return 0;
  },
});
