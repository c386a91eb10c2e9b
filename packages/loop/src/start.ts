/** `forge-loop start`: a new loop and its first prompt (L2). */
import { printable, UsageError } from "@forge/core";
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { ENV_NOW, intFlag, loopContext, output, outFlags, READS_EXPERIENCE, roundText } from "./_cli.js";
import { parseCheckArgv } from "./argv.js";
import { startLoop, type StartOptions } from "./engine.js";

export const START_FIELDS = [
  "kind",
  "loop_id",
  "status",
  "constraints",
  "criteria",
  "round",
  "roundId",
  "attempt",
  "level",
  "prompt",
  "promptBytes",
  "omitted",
  "stateHash",
  "promptHash",
];

const FLAGS = {
  task: {
    type: "string",
    valueHint: "text",
    description: "the whole objective, the loop's goal (required, no default)",
  },
  constraint: {
    type: "string",
    multiple: true,
    valueHint: "text",
    description: "a hard constraint, in every prompt; a report cannot retire it (repeatable; default: none)",
  },
  criterion: {
    type: "string",
    multiple: true,
    valueHint: "text",
    description: "a success criterion (repeatable; default: the task itself, one criterion)",
  },
  check: {
    type: "string",
    multiple: true,
    valueHint: "argv",
    description:
      "the command that verifies the --criterion before it: argv, quotes group, no shell (one per criterion; " +
      "default: none)",
  },
  "max-rounds": {
    type: "string",
    valueHint: "n",
    description: "accepted rounds without completion before the loop terminates, 1-1000 (default: 20)",
  },
  domain: {
    type: "string",
    valueHint: "scope",
    description: "the experience scope recalled into each new round's prompt (default: none)",
  },
  "prompt-budget": {
    type: "string",
    valueHint: "bytes",
    description: "a prompt's byte budget, 500-100000 (default: 6000)",
  },
  "check-timeout": { type: "string", valueHint: "s", description: "seconds a --check may run, 1-3600 (default: 120)" },
  ...outFlags(START_FIELDS),
} as const;

/**
 * argv → options. `--check` belongs to the `--criterion` before it, so the
 * raw argv is walked in order (the parser keeps each flag's values apart
 * and splits them on commas, which a sentence must not be).
 * @throws UsageError
 */
export function parseStartOptions(args: Parsed, rawArgs: string[]): StartOptions {
  const ordered: Array<[string, string]> = [];
  for (let i = 0; i < rawArgs.length; i++) {
    const tok = rawArgs[i]!;
    if (tok === "--") break;
    const m = /^--(constraint|criterion|check)(?:=(.*))?$/s.exec(tok);
    if (!m) continue;
    const v = m[2] ?? rawArgs[++i];
    if (v === undefined) throw new UsageError(`flag '--${m[1]}' needs a value`);
    ordered.push([m[1]!, v]);
  }
  const task = args.task;
  if (typeof task !== "string" || task.trim() === "") throw new UsageError("missing --task");
  const constraints: string[] = [];
  const criteria: StartOptions["criteria"] = [];
  for (const [flag, v] of ordered) {
    if (v.trim() === "") throw new UsageError(`--${flag}: empty value`);
    if (flag === "constraint") constraints.push(v);
    else if (flag === "criterion") criteria.push({ text: v, argv: null });
    else {
      const last = criteria[criteria.length - 1];
      if (!last || last.argv) throw new UsageError("--check must follow the --criterion it verifies (one check each)");
      last.argv = parseCheckArgv(v);
    }
  }
  if (criteria.length === 0) criteria.push({ text: task, argv: null });
  const domain = args.domain === undefined ? null : String(args.domain);
  if (domain !== null && !/^[A-Za-z0-9][A-Za-z0-9._:/-]{0,99}$/.test(domain))
    throw new UsageError(`invalid --domain '${printable(domain, 40)}'`);
  return {
    task,
    constraints,
    criteria,
    domain,
    maxRounds: intFlag(args, "max-rounds", 20, 1, 1000),
    promptBudget: intFlag(args, "prompt-budget", 6000, 500, 100_000),
    checkTimeoutMs: intFlag(args, "check-timeout", 120, 1, 3600) * 1000,
  };
}

export default defineCommand({
  meta: {
    name: "start",
    description: "Start a loop: goal, constraints, criteria with checks",
    help: {
      reads: [
        [
          READS_EXPERIENCE[0],
          "with --domain: active records of that scope, recalled into the first prompt (5 items, 1500 bytes, ranked " +
            "by the goal)",
        ],
      ],
      env: [ENV_NOW],
      examples: [
        'forge-loop start --task "make the tests pass" --criterion "unit tests pass" --check "node --test"',
        'forge-loop start --task "fix the parser" --constraint "no new dependencies" --criterion "parser tests pass" ' +
          '--check "pnpm test" --domain repo:parser --json loop_id,prompt',
        'forge-loop start --task "tidy the README" --max-rounds 5 --prompt-budget 4000',
      ],
      notes: [
        "Writes .forge/loops/<id>/loop.md and events.jsonl; prints the first round's prompt (L2), the loop id on " +
          "stderr.",
        "A criterion without --check can only be verified by a ci:<step> claim (a stderr note says so); checks run " +
          "from next/retry, never here.",
      ],
    },
  },
  args: FLAGS,
  async run({ args, rawArgs, data: ctx }: { args: Parsed; rawArgs: string[]; data: Ctx }) {
    const opts = parseStartOptions(args, rawArgs);
    const rec = await startLoop(loopContext(ctx), opts);
    ctx.io.stderr.write(`${ctx.prog}: started loop ${String(rec.loop_id)}\n`);
    for (const c of rec.criteria as Array<{ id: string; check: unknown }>) {
      if (!c.check)
        ctx.io.stderr.write(
          `${ctx.prog}: note: criterion ${c.id} has no --check: only a CI step claim (ci:<step>) can verify it\n`
        );
    }
    await output(ctx, args, START_FIELDS, [rec], roundText);
  },
});
