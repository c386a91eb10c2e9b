/**
 * `--refine-with CMD`: CMD (split on spaces, no shell) reads the plan line
 * and prints one; only description, rationale and check_hints may differ
 * (seed §16.8). Anything else it changed discards the refinement, and the
 * plan runs as forge-plan made it.
 */
import { canonicalJson } from "@forge/kernel";
import type { Plan } from "./_lines.js";
import type { Tools } from "./tools.js";

/** The fields a refinement may change. */
const FREE_TEXT = ["description", "rationale", "check_hints"];

/** The plan to run and, when the refinement was refused, why. */
export interface Refined {
  plan: Plan;
  discarded: string | null;
}

/**
 * Refine a plan with `cmd`.
 * @param cmd the --refine-with command line
 * @returns the plan to run and, when the refinement was refused, why
 */
export async function refine(tools: Tools, cmd: string, p: Plan): Promise<Refined> {
  const [name = "", ...args] = cmd.trim().split(/\s+/);
  const r = await tools.run(name, args, JSON.stringify(p) + "\n");
  let q: Record<string, unknown> | null;
  try {
    q = JSON.parse(r.stdout.trim().split("\n").pop() ?? "") as Record<string, unknown> | null;
  } catch {
    q = null;
  }
  if (r.code !== 0 || !q || typeof q !== "object") {
    return { plan: p, discarded: `refinement discarded: ${name} exited ${r.code} or printed no plan line` };
  }
  // Compared as what it is on the wire: fields, whatever the plan's kind.
  const was = p as unknown as Record<string, unknown>;
  const bad = [...new Set([...Object.keys(was), ...Object.keys(q)])]
    .filter((k) => !FREE_TEXT.includes(k) && encode(was[k]) !== encode(q[k]))
    .sort();
  const hints = q.check_hints ?? [];
  const typesOk =
    typeof (q.description ?? "") === "string" &&
    typeof (q.rationale ?? "") === "string" &&
    Array.isArray(hints) &&
    hints.every((h) => typeof h === "string");
  if (bad.length > 0 || !typesOk || fixedPart(was) !== fixedPart(q)) {
    const what = bad.length ? bad.join(", ") : "a free-text field's type";
    return { plan: p, discarded: `refinement discarded: it changed ${what} (only ${FREE_TEXT.join(", ")} may change)` };
  }
  const plan: Plan = {
    ...p,
    description: (q.description as string | undefined) ?? p.description,
    rationale: (q.rationale as string | undefined) ?? p.rationale,
    check_hints: (q.check_hints as string[] | undefined) ?? p.check_hints,
  };
  return { plan, discarded: null };
}

/**
 * A field's canonical JSON; a missing field is none (never equal to null's),
 * and a number JSON cannot hold (1e999 parses as Infinity) is unlike any other.
 */
function encode(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  try {
    return canonicalJson(v);
  } catch {
    return "\0not JSON";
  }
}

/** The canonical JSON of a plan without its free-text fields: what a refinement must leave alone. */
function fixedPart(p: Record<string, unknown>): string | undefined {
  const o = { ...p };
  for (const k of FREE_TEXT) delete o[k];
  return encode(o);
}
