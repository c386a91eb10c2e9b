/** `forge-loop recall --scope S`: advisory experience, scope-filtered, ranked, bounded. */
import { UsageError } from "@forge/core";
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { intFlag, loopContext, output, outFlags } from "./_cli.js";
import { EXPERIENCE_FIELDS } from "./_experience_cli.js";
import { recallExperience } from "./experience.js";

export default defineCommand({
  meta: { name: "recall", description: "Recall advisory experience of a scope" },
  args: {
    scope: { type: "string", description: "exact scope" },
    query: { type: "string", description: "words to rank by" },
    limit: { type: "string", alias: "L", description: "items (1-50, default 5)" },
    "max-bytes": { type: "string", description: "text bytes (default 2000)" },
    ...outFlags(EXPERIENCE_FIELDS),
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    if (typeof args.scope !== "string") throw new UsageError("missing --scope");
    const lc = loopContext(ctx);
    const recs = recallExperience(lc.store, {
      scope: args.scope, query: (args.query as string | undefined) ?? "", limit: intFlag(args, "limit", 5, 1, 50), maxBytes: intFlag(args, "max-bytes", 2000, 1, 100_000), now: lc.now(),
    });
    await output(ctx, args, EXPERIENCE_FIELDS, recs.map((r) => ({ ...r })), (r) => `advisory (${String(r.kind)} ${String(r.id).slice(0, 8)}): ${String(r.text)}\n`, false);
  },
});
