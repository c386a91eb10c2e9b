/** `forge-loop retract <id> --expect-revision N --reason R`: never recalled again, kept for audit. */
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { ENV_NOW, loopContext, output, outFlags, READS_EXPERIENCE } from "./_cli.js";
import { expectedRevision, EXPERIENCE_FIELDS, formatRecord } from "./_experience_cli.js";
import { resolveExperience, retract } from "./experience.js";

export default defineCommand({
  meta: {
    name: "retract",
    description: "Retract an experience record (compare-and-set)",
    help: {
      reads: [[READS_EXPERIENCE[0], "the record (under its .lock): its revision must be --expect-revision"]],
      env: [ENV_NOW],
      examples: [
        'forge-loop retract 9c1e --expect-revision 1 --reason "wrong: the step runs without docker"',
        'forge-loop retract 9c1e --expect-revision 2 --reason "obsolete" --json id,status,retractedAt',
      ],
      notes: [
        "The record becomes retracted (revision + 1): never recalled again, kept for audit.",
        "A stale revision is one stderr line (stale revision: … is at revision M, not N), exit 1, nothing written.",
      ],
    },
  },
  args: {
    id: {
      type: "positional",
      required: true,
      valueHint: "id",
      description: "an experience record's id or id prefix (4+ hex)",
    },
    "expect-revision": {
      type: "string",
      valueHint: "n",
      description: "the revision you read, as recall or learn printed it (required, no default)",
    },
    reason: {
      type: "string",
      valueHint: "text",
      description: "why it is wrong, kept in the record (required, no default)",
    },
    ...outFlags(EXPERIENCE_FIELDS),
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const lc = loopContext(ctx);
    const rev = expectedRevision(args);
    const e = retract(
      lc.store,
      resolveExperience(lc.store, args.id as string),
      rev,
      (args.reason as string | undefined) ?? "",
      lc.now()
    );
    await output(ctx, args, EXPERIENCE_FIELDS, [{ ...e }], formatRecord);
  },
});
