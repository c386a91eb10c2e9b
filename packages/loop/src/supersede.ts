/** `forge-loop supersede <id> --expect-revision N --text T`: a new record replaces the old (kept for audit). */
import { UsageError } from "@forge/core";
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { loopContext, output, outFlags } from "./_cli.js";
import { expectedRevision, EXPERIENCE_FIELDS, formatRecord, kindOf } from "./_experience_cli.js";
import { resolveExperience, supersede } from "./experience.js";

export default defineCommand({
  meta: { name: "supersede", description: "Replace an experience record (compare-and-set)" },
  args: {
    id: { type: "positional", required: true, valueHint: "id", description: "record id or prefix" },
    "expect-revision": { type: "string", description: "the revision you read" },
    text: { type: "string", description: "the new text" },
    kind: { type: "string", description: "observation|hypothesis|lesson" },
    expires: { type: "string", description: "expiry (RFC 3339)" },
    rationale: { type: "string", description: "why a lesson stays true" },
    ...outFlags(EXPERIENCE_FIELDS),
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const lc = loopContext(ctx);
    const rev = expectedRevision(args);
    if (typeof args.text !== "string") throw new UsageError("missing --text");
    const [made, old] = supersede(lc.store, resolveExperience(lc.store, args.id as string), rev, {
      text: args.text, kind: kindOf(args, false), expiresAt: (args.expires as string | undefined) ?? null, rationale: (args.rationale as string | undefined) ?? null,
    }, lc.now());
    await output(ctx, args, EXPERIENCE_FIELDS, [{ ...made }, { ...old }], formatRecord);
  },
});
