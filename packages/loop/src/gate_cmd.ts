/** `forge-loop gate check|resolve <loop> -F descriptor.json`. */
import { currentAuthor, printable, UsageError } from "@forge/core";
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { ENV_NOW, loopContext, loopIdOf, output, outFlags, READS_EVENTS, READS_LOOP_MD, readInput } from "./_cli.js";
import { checkGate, resolveGate } from "./engine.js";
import { parseDescriptor } from "./gate.js";

export const GATE_FIELDS = ["kind", "loop_id", "actionHash", "gate", "status", "covered", "risks", "by", "descriptor"];

export default defineCommand({
  meta: {
    name: "gate",
    description: "Check an action's gate, or resolve a user gate",
    help: {
      reads: [
        [
          "-F <file>, stdin (-F -)",
          "the action descriptor: JSON {description, scope[], effects[], reversibility, authorization}; unknown " +
            "fields refused",
        ],
        READS_LOOP_MD,
        READS_EVENTS,
      ],
      env: [
        [
          "FORGE_AUTHOR",
          "resolve: who approved or denied, recorded as by (default: git's forge.login, else user.name)",
        ],
        ENV_NOW,
      ],
      examples: [
        "forge-loop gate check 3f2a -F action.json",
        "cat action.json | forge-loop gate resolve 3f2a -F - --approve",
        "forge-loop gate resolve 3f2a -F action.json --deny --json status,by",
      ],
      notes: [
        "An agent gate (allowed) when every effect is read_only, workspace_write, local_build, local_test, " +
          "dependency_install or git_local, reversibility is",
        "reversible or recoverable and authorization agent_allowed; else a user gate: check records it open (it " +
          "blocks completion) and says approved only",
        "for the exact actionHash (sha256 of the canonical descriptor) approved; resolve needs the open gate of that " +
          "hash. by is a record, not proof.",
        "Gates close with their loop: once it is stopped, terminated or complete, an open gate is closed and " +
          "check and resolve are refused (exit 1).",
      ],
    },
  },
  args: {
    action: {
      type: "positional",
      required: true,
      valueHint: "check|resolve",
      description: "check: classify the action and record a user gate; resolve: approve or deny an open one",
    },
    loop: {
      type: "positional",
      required: true,
      valueHint: "loop",
      description: "loop id or id prefix (4+ hex), as start and list print it",
    },
    descriptor: {
      type: "string",
      alias: "F",
      valueHint: "file|-",
      description: "the action descriptor, a JSON file, or - to read it on stdin (required, no default)",
    },
    approve: { type: "boolean", description: "resolve: approve the open gate (exactly one of --approve, --deny)" },
    deny: { type: "boolean", description: "resolve: deny the open gate (exactly one of --approve, --deny)" },
    ...outFlags(GATE_FIELDS),
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const action = args.action as string;
    if (action !== "check" && action !== "resolve")
      throw new UsageError(`unknown gate action '${printable(action, 20)}' (check|resolve)`);
    if (action === "check" && (args.approve || args.deny))
      throw new UsageError("--approve/--deny are for 'gate resolve'");
    if (action === "resolve" && !!args.approve === !!args.deny)
      throw new UsageError("gate resolve needs exactly one of --approve, --deny");
    const lc = loopContext(ctx);
    const id = loopIdOf(lc, args);
    const d = parseDescriptor(await readInput(ctx, args.descriptor, "descriptor", 64 * 1024));
    const rec =
      action === "check"
        ? await checkGate(lc, id, d)
        : await resolveGate(lc, id, d, !!args.approve, await currentAuthor(ctx.io.env, ctx.io.cwd));
    await output(
      ctx,
      args,
      GATE_FIELDS,
      [rec],
      (r) =>
        `${String(r.gate)} gate\t${String(r.status)}\t${String(r.actionHash)}\t${(r.risks as string[]).join(",")}\n`
    );
  },
});
