/** `forge-loop learn`: record an observation, hypothesis or lesson. */
import { UsageError } from "@forge/core";
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { loopContext, output, outFlags, READS_EXPERIENCE } from "./_cli.js";
import { EXPERIENCE_FIELDS, formatRecord, kindOf } from "./_experience_cli.js";
import { learn } from "./experience.js";

export default defineCommand({
  meta: {
    name: "learn",
    description: "Record experience (observation 30d, hypothesis 90d, lesson)",
    help: {
      reads: [[READS_EXPERIENCE[0], "writes one new record (revision 1, active)"]],
      env: [
        [
          "FORGE_NOW",
          "the clock: createdAt, the default --observed-at, and what counts as the future (default: the system clock)",
        ],
      ],
      examples: [
        'forge-loop learn --kind observation --scope repo:ci --text "the e2e step needs docker"',
        'forge-loop learn --kind lesson --scope repo:parser --text "run the fuzz check before the golden one" ' +
          '--rationale "goldens hide crashes"',
        'forge-loop learn --kind hypothesis --scope repo --text "flaky on 2 cores" --observed-at ' +
          "2026-11-30T09:00:00Z --json id,expiresAt",
      ],
      notes: [
        "A future --observed-at, or an --expires not after it, is refused. Recall is by exact --scope; a loop " +
          "started with --domain D recalls scope D.",
      ],
    },
  },
  args: {
    kind: {
      type: "string",
      valueHint: "kind",
      description: "observation, hypothesis or lesson (required, no default)",
    },
    scope: {
      type: "string",
      valueHint: "scope",
      description: "where it applies; recall matches it exactly (required, no default)",
    },
    text: { type: "string", valueHint: "text", description: "what was learned (required, no default)" },
    expires: {
      type: "string",
      valueHint: "time",
      description:
        "when it stops being recalled, RFC 3339 UTC (default: observed-at + 30 days for an observation, + 90 for a " +
        "hypothesis; a lesson needs this or --rationale)",
    },
    rationale: {
      type: "string",
      valueHint: "text",
      description: "why it stays true; a lesson without --expires needs it (default: none)",
    },
    "observed-at": {
      type: "string",
      valueHint: "time",
      description: "when it was observed, RFC 3339 UTC (default: now)",
    },
    ...outFlags(EXPERIENCE_FIELDS),
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const lc = loopContext(ctx);
    if (typeof args.scope !== "string") throw new UsageError("missing --scope");
    if (typeof args.text !== "string") throw new UsageError("missing --text");
    const e = learn(
      lc.store,
      {
        kind: kindOf(args, true)!,
        scope: args.scope,
        text: args.text,
        rationale: (args.rationale as string | undefined) ?? null,
        observedAt: (args["observed-at"] as string | undefined) ?? null,
        expiresAt: (args.expires as string | undefined) ?? null,
      },
      lc.now()
    );
    await output(ctx, args, EXPERIENCE_FIELDS, [{ ...e }], formatRecord);
  },
});
