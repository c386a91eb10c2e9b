/** `forge-loop retract <id> --expect-revision N --reason R`: never recalled again, kept for audit. */
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { loopContext, output, outFlags } from "./_cli.js";
import { expectedRevision, EXPERIENCE_FIELDS, formatRecord } from "./_experience_cli.js";
import { resolveExperience, retract } from "./experience.js";

export default defineCommand({
  meta: { name: "retract", description: "Retract an experience record (compare-and-set)" },
  args: {
    id: { type: "positional", required: true, valueHint: "id", description: "record id or prefix" },
    "expect-revision": { type: "string", description: "the revision you read" },
    reason: { type: "string", description: "why it is wrong" },
    ...outFlags(EXPERIENCE_FIELDS),
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const lc = loopContext(ctx);
    const rev = expectedRevision(args);
    const e = retract(lc.store, resolveExperience(lc.store, args.id as string), rev, (args.reason as string | undefined) ?? "", lc.now());
    await output(ctx, args, EXPERIENCE_FIELDS, [{ ...e }], formatRecord);
  },
});
