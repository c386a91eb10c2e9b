/**
 * The tool table: one tool per noun, its verbs an enum, as `gh <noun> <verb>` reads. Each tool turns its
 * arguments into the argv of an executable beside forge-mcp (`forge-<noun> <verb> … --json`): no verb is
 * implemented twice. Values go as `--flag=value`, so a value that starts with `-` stays a value.
 */

/** A JSON Schema, as tools/list carries it. */
export type Schema = Record<string, unknown>;

/** What a tool call runs: an executable beside forge-mcp, its argv, and what goes on its stdin. */
export interface Invocation {
  exe: string;
  argv: string[];
  stdin?: string;
  /** The result is a list (`{items: […]}`), not one record. */
  many: boolean;
}

/** The arguments of a call, after the SDK checked them against the input schema. */
export type Args = Record<string, unknown>;

/** One tool. */
export interface Tool {
  name: string;
  description: string;
  inputSchema: Schema;
  outputSchema: Schema;
  /** The argv of `args` (whose `verb` is one of the tool's), or a usage error. */
  invocation(args: Args): Invocation;
}

/** A usage error in a tool's arguments: becomes an isError result, nothing run. */
export class ToolArgError extends Error {
  override name = "ToolArgError";
}

// --- the schemas' parts (few bytes: tools/list is budgeted at 4 KB) ---

const str: Schema = { type: "string" };
const int: Schema = { type: "integer", minimum: 1 };
const verbs = (v: readonly string[]): Schema => ({ enum: [...v] });
/** `items` (a list verb's records) or a record's own fields, typed where gh's shape fixes them. */
function output(props: Schema): Schema {
  return { type: "object", properties: { items: { type: "array", items: { type: "object" } }, ...props } };
}
function input(props: Schema): Schema {
  return { type: "object", properties: { ...props, repo: str }, required: ["verb"], additionalProperties: false };
}

/** How each argument becomes argv: a flag (`--name=value`), or positional. */
type Spec = Record<string, { flag?: string; pos?: number }>;

/**
 * Build a tool from its verbs and, per verb, the arguments it takes.
 * `json` names the verbs that take `--json [fields]`; `many`, those whose result is a list.
 */
function noun(
  name: string,
  description: string,
  props: Schema,
  out: Schema,
  verbArgs: Record<string, string[]>,
  spec: Spec,
  opts: { exe?: string; many?: string[]; stdin?: string } = {}
): Tool {
  const names = Object.keys(verbArgs);
  return {
    name,
    description,
    inputSchema: input({ verb: verbs(names), ...props }),
    outputSchema: output(out),
    invocation(args) {
      const verb = String(args.verb);
      const allowed = verbArgs[verb];
      if (!allowed) throw new ToolArgError(`${name}: unknown verb '${verb.slice(0, 40)}'`);
      const positional: string[] = [];
      const flags: string[] = [];
      let stdin: string | undefined;
      for (const [k, v] of Object.entries(args)) {
        if (k === "verb" || k === "repo" || v === undefined) continue;
        if (!allowed.includes(k)) throw new ToolArgError(`${name} ${verb}: '${k.slice(0, 40)}' does not apply`);
        if (k === "fields") continue;
        if (k === opts.stdin) {
          stdin = JSON.stringify(v);
          flags.push(`--${spec[k]!.flag}=-`);
          continue;
        }
        const s = spec[k]!;
        const values = Array.isArray(v) ? v.map(String) : [String(v)];
        if (s.pos !== undefined) positional[s.pos] = values[0]!;
        else if (typeof v === "boolean") {
          if (v) flags.push(`--${s.flag}`);
        } else for (const x of values) flags.push(`--${s.flag}=${x}`);
      }
      const json = typeof args.fields === "string" ? `--json=${args.fields}` : "--json";
      const argv = [verb, ...positional.filter((p) => p !== undefined), ...flags, json];
      return { exe: opts.exe ?? `forge-${name}`, argv, stdin, many: (opts.many ?? ["list"]).includes(verb) };
    },
  };
}

const STATE = (...s: string[]): Schema => ({ enum: s });
const common: Spec = {
  number: { pos: 0 },
  title: { flag: "title" },
  body: { flag: "body" },
  label: { flag: "label" },
  search: { flag: "search" },
  limit: { flag: "limit" },
  state: { flag: "state" },
};

/** The tools forge-mcp serves, in tools/list order. */
export const TOOLS: readonly Tool[] = [
  noun(
    "issue",
    "gh issue <verb>; a list verb returns {items}",
    {
      number: int,
      title: str,
      body: str,
      label: str,
      state: STATE("open", "closed", "all"),
      search: str,
      limit: int,
      fields: str,
    },
    { number: { type: "integer" }, state: STATE("OPEN", "CLOSED") },
    {
      create: ["title", "body", "label", "fields"],
      list: ["state", "label", "search", "limit", "fields"],
      view: ["number", "fields"],
      comment: ["number", "body", "fields"],
      close: ["number", "fields"],
      reopen: ["number", "fields"],
      edit: ["number", "title", "body", "fields"],
    },
    common
  ),
  noun(
    "pr",
    "gh pr <verb>; merge runs CI, then lands",
    {
      number: int,
      title: str,
      body: str,
      base: str,
      head: str,
      issue: int,
      state: STATE("open", "closed", "merged", "all"),
      limit: int,
      fields: str,
    },
    { number: { type: "integer" }, state: STATE("OPEN", "CLOSED", "MERGED") },
    {
      create: ["title", "body", "base", "head", "issue", "fields"],
      list: ["state", "limit", "fields"],
      view: ["number", "fields"],
      checks: ["number", "fields"],
      merge: ["number", "fields"],
      comment: ["number", "body", "fields"],
      close: ["number", "fields"],
      reopen: ["number", "fields"],
    },
    { ...common, base: { flag: "base" }, head: { flag: "head" }, issue: { flag: "issue" } },
    { many: ["list", "checks"] }
  ),
  noun(
    "task",
    "Kanban tasks <verb>; move takes a status",
    { number: int, title: str, body: str, status: STATE("todo", "doing", "blocked", "done"), issue: int, fields: str },
    { number: { type: "integer" } },
    {
      create: ["title", "body", "issue", "fields"],
      list: ["status", "fields"],
      view: ["number", "fields"],
      move: ["number", "status", "fields"],
      done: ["number", "fields"],
    },
    { ...common, status: { pos: 1 }, issue: { flag: "issue" } }
  ),
  noun(
    "ci",
    "CI runs (gh run); run takes a PR number, else HEAD",
    { number: int, limit: int, fields: str },
    { databaseId: { type: "integer" }, conclusion: str },
    { run: ["number", "fields"], list: ["limit", "fields"], view: ["number", "fields"], rerun: ["number", "fields"] },
    common
  ),
  noun(
    "pilot",
    "Closed loop: run to an honest halt; observe, plan, explain",
    { maxIterations: { type: "integer", minimum: 1, maximum: 1000 }, timeBudget: int, scope: str },
    { kind: str },
    { run: ["maxIterations", "timeBudget", "scope"], observe: ["scope"], plan: ["scope"], explain: ["scope"] },
    { maxIterations: { flag: "max-iterations" }, timeBudget: { flag: "time-budget" }, scope: { flag: "scope" } },
    { many: ["observe", "plan", "explain"] }
  ),
  noun(
    "loop",
    "Agent round loops; next takes a round report",
    {
      loop: { type: "string", pattern: "^[0-9a-f-]{4,36}$" },
      task: str,
      criterion: { type: "array", items: str },
      report: { type: "object" },
      fields: str,
    },
    { kind: str, loop_id: str },
    {
      start: ["task", "criterion", "fields"],
      status: ["loop", "fields"],
      next: ["loop", "report", "fields"],
      list: ["fields"],
      history: ["loop", "fields"],
      stop: ["loop", "fields"],
    },
    { loop: { pos: 0 }, task: { flag: "task" }, criterion: { flag: "criterion" }, report: { flag: "report" } },
    { many: ["list", "history"], stdin: "report" }
  ),
];
