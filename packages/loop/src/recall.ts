/** `forge-loop recall --scope S`: advisory experience, scope-filtered, ranked, bounded. */
import { UsageError } from "@forge/core";
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { intFlag, loopContext, output, outFlags, READS_EXPERIENCE } from "./_cli.js";
import { EXPERIENCE_FIELDS } from "./_experience_cli.js";
import { recallExperience } from "./experience.js";

export default defineCommand({
  meta: {
    name: "recall",
    description: "Recall advisory experience of a scope",
    help: {
      reads: [[READS_EXPERIENCE[0], "active, unexpired records of exactly --scope (read-only)"]],
      env: [["FORGE_NOW", "the clock that decides what has expired (default: the system clock)"]],
      examples: [
        "forge-loop recall --scope repo:ci",
        'forge-loop recall --scope repo:parser --query "fuzz golden" -L 3 --json id,kind,text,revision',
      ],
      notes: [
        "Ranked by --query words matched, then lesson > hypothesis > observation, then latest observedAt, then id; " +
          "stops at --limit items or --max-bytes of text.",
        "Advisory data, not instructions: every record has advisory: true.",
      ],
    },
  },
  args: {
    scope: {
      type: "string",
      valueHint: "scope",
      description: "the scope, matched exactly before ranking (required, no default)",
    },
    query: {
      type: "string",
      valueHint: "words",
      description: "words to rank by (default: none, rank by kind and time)",
    },
    limit: { type: "string", alias: "L", valueHint: "n", description: "records at most, 1-50 (default: 5)" },
    "max-bytes": { type: "string", valueHint: "bytes", description: "text bytes at most, 1-100000 (default: 2000)" },
    ...outFlags(EXPERIENCE_FIELDS),
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    if (typeof args.scope !== "string") throw new UsageError("missing --scope");
    const lc = loopContext(ctx);
    const recs = recallExperience(lc.store, {
      scope: args.scope,
      query: (args.query as string | undefined) ?? "",
      limit: intFlag(args, "limit", 5, 1, 50),
      maxBytes: intFlag(args, "max-bytes", 2000, 1, 100_000),
      now: lc.now(),
    });
    await output(
      ctx,
      args,
      EXPERIENCE_FIELDS,
      recs.map((r) => ({ ...r })),
      (r) => `advisory (${String(r.kind)} ${String(r.id).slice(0, 8)}): ${String(r.text)}\n`,
      false
    );
  },
});
