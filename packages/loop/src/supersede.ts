/** `forge-loop supersede <id> --expect-revision N --text T`: a new record replaces the old (kept for audit). */
import { UsageError } from "@forge/core";
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { ENV_NOW, loopContext, output, outFlags, READS_EXPERIENCE } from "./_cli.js";
import { expectedRevision, EXPERIENCE_FIELDS, formatRecord, kindOf } from "./_experience_cli.js";
import { resolveExperience, supersede } from "./experience.js";

export default defineCommand({
  meta: {
    name: "supersede",
    description: "Replace an experience record (compare-and-set)",
    help: {
      reads: [
        [
          READS_EXPERIENCE[0],
          "the record (under its .lock): its revision must be --expect-revision; a new record is written",
        ],
      ],
      env: [ENV_NOW],
      examples: [
        'forge-loop supersede 9c1e --expect-revision 1 --text "the e2e step needs docker 24+"',
        'forge-loop supersede 9c1e --expect-revision 2 --kind lesson --text "pin the docker image" --rationale "tags ' +
          'move" --json id,supersedes,status',
      ],
      notes: [
        "Prints the new record (supersedes: the old id, same scope) and the old one (superseded, revision + 1, kept " +
          "for audit, never recalled again).",
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
    text: { type: "string", valueHint: "text", description: "the new record's text (required, no default)" },
    kind: {
      type: "string",
      valueHint: "kind",
      description: "observation, hypothesis or lesson (default: the old record's kind)",
    },
    expires: {
      type: "string",
      valueHint: "time",
      description:
        "the new record's expiry, RFC 3339 UTC (default: by its kind, 30 or 90 days from now; a lesson needs this or " +
        "--rationale)",
    },
    rationale: { type: "string", valueHint: "text", description: "why it stays true (default: none)" },
    ...outFlags(EXPERIENCE_FIELDS),
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const lc = loopContext(ctx);
    const rev = expectedRevision(args);
    if (typeof args.text !== "string") throw new UsageError("missing --text");
    const [made, old] = supersede(
      lc.store,
      resolveExperience(lc.store, args.id as string),
      rev,
      {
        text: args.text,
        kind: kindOf(args, false),
        expiresAt: (args.expires as string | undefined) ?? null,
        rationale: (args.rationale as string | undefined) ?? null,
      },
      lc.now()
    );
    await output(ctx, args, EXPERIENCE_FIELDS, [{ ...made }, { ...old }], formatRecord);
  },
});
