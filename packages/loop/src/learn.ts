/** `forge-loop learn`: record an observation, hypothesis or lesson. */
import { UsageError } from "@forge/core";
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { loopContext, output, outFlags } from "./_cli.js";
import { EXPERIENCE_FIELDS, formatRecord, kindOf } from "./_experience_cli.js";
import { learn } from "./experience.js";

export default defineCommand({
  meta: { name: "learn", description: "Record experience (observation 30d, hypothesis 90d, lesson)" },
  args: {
    kind: { type: "string", description: "observation|hypothesis|lesson" },
    scope: { type: "string", description: "where it applies (recall filters by it)" },
    text: { type: "string", description: "what was learned" },
    expires: { type: "string", description: "expiry (RFC 3339)" },
    rationale: { type: "string", description: "why a lesson stays true" },
    "observed-at": { type: "string", description: "when it was observed (default now)" },
    ...outFlags(EXPERIENCE_FIELDS),
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const lc = loopContext(ctx);
    if (typeof args.scope !== "string") throw new UsageError("missing --scope");
    if (typeof args.text !== "string") throw new UsageError("missing --text");
    const e = learn(lc.store, {
      kind: kindOf(args, true)!, scope: args.scope, text: args.text, rationale: (args.rationale as string | undefined) ?? null,
      observedAt: (args["observed-at"] as string | undefined) ?? null, expiresAt: (args.expires as string | undefined) ?? null,
    }, lc.now());
    await output(ctx, args, EXPERIENCE_FIELDS, [{ ...e }], formatRecord);
  },
});
