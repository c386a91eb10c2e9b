/** `forge-loop gate check|resolve <loop> -F descriptor.json`. */
import { currentAuthor, UsageError } from "@forge/core";
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { loopContext, loopIdOf, output, outFlags, readInput } from "./_cli.js";
import { checkGate, resolveGate } from "./engine.js";
import { parseDescriptor } from "./gate.js";

export const GATE_FIELDS = ["kind", "loop_id", "actionHash", "gate", "status", "covered", "risks", "by", "descriptor"];

export default defineCommand({
  meta: { name: "gate", description: "Check an action's gate, or resolve a user gate" },
  args: {
    action: { type: "positional", required: true, valueHint: "check|resolve", description: "check or resolve" },
    loop: { type: "positional", required: true, valueHint: "loop", description: "loop id or prefix" },
    descriptor: { type: "string", alias: "F", description: "action descriptor JSON file, - for stdin" },
    approve: { type: "boolean", description: "resolve: approve" },
    deny: { type: "boolean", description: "resolve: deny" },
    ...outFlags(GATE_FIELDS),
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const action = args.action as string;
    if (action !== "check" && action !== "resolve") throw new UsageError(`unknown gate action '${action.slice(0, 20)}' (check|resolve)`);
    if (action === "check" && (args.approve || args.deny)) throw new UsageError("--approve/--deny are for 'gate resolve'");
    if (action === "resolve" && !!args.approve === !!args.deny) throw new UsageError("gate resolve needs exactly one of --approve, --deny");
    const lc = loopContext(ctx);
    const id = loopIdOf(lc, args);
    const d = parseDescriptor(await readInput(ctx, args.descriptor, "descriptor", 64 * 1024));
    const rec = action === "check" ? await checkGate(lc, id, d) : await resolveGate(lc, id, d, !!args.approve, await currentAuthor(ctx.io.env, ctx.io.cwd));
    await output(ctx, args, GATE_FIELDS, [rec], (r) => `${String(r.gate)} gate\t${String(r.status)}\t${String(r.actionHash)}\t${(r.risks as string[]).join(",")}\n`);
  },
});
