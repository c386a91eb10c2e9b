/**
 * Gates: an action descriptor (description, scope, effects,
 * reversibility, authorization) and its action hash, the sha256 of its
 * canonical JSON (lists sorted and de-duplicated), so an approval covers
 * exactly one action and dies when anything in it changes. A user gate is
 * needed for production, credentials, data migration, publishing,
 * payment, external communication, public API changes, and for
 * irreversible or unknown effects or authorization.
 */
import { printable, UsageError } from "@forge/core";
import { canonicalJson } from "@forge/kernel";
import { sha256 } from "./_util.js";

export const REVERSIBILITY = ["reversible", "recoverable", "irreversible", "unknown"] as const;
export const AUTHORIZATION = ["agent_allowed", "user_required", "unknown"] as const;
/** Effects that always need the user. */
export const USER_EFFECTS = [
  "production",
  "credentials",
  "data_migration",
  "publishing",
  "payment",
  "external_communication",
  "public_api_change",
] as const;
/** Effects an agent may take on its own when reversible and agent_allowed. */
export const AGENT_EFFECTS = [
  "read_only",
  "workspace_write",
  "local_build",
  "local_test",
  "dependency_install",
  "git_local",
] as const;

/** A normalised descriptor. */
export interface Descriptor {
  description: string;
  scope: string[];
  effects: string[];
  reversibility: (typeof REVERSIBILITY)[number];
  authorization: (typeof AUTHORIZATION)[number];
}

/**
 * Parse and normalise a descriptor (JSON text).
 * @throws UsageError naming the field
 */
export function parseDescriptor(raw: string): Descriptor {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw new UsageError("gate descriptor: not JSON");
  }
  if (v === null || typeof v !== "object" || Array.isArray(v))
    throw new UsageError("gate descriptor: expected an object");
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o))
    if (!["description", "scope", "effects", "reversibility", "authorization"].includes(k))
      throw new UsageError(`gate descriptor: field '${printable(k, 60)}': unknown field`);
  if (typeof o.description !== "string" || o.description.trim() === "" || o.description.length > 2000)
    throw new UsageError("gate descriptor: field 'description': expected a non-empty string");
  const list = (k: string): string[] => {
    const x = o[k] ?? [];
    if (!Array.isArray(x) || !x.every((s) => typeof s === "string" && s !== "" && s.length <= 500) || x.length > 100)
      throw new UsageError(`gate descriptor: field '${k}': expected a list of strings`);
    return [...new Set(x as string[])].sort();
  };
  const pick = <T extends string>(k: string, all: readonly T[]): T => {
    const x = o[k] ?? "unknown";
    if (typeof x !== "string" || !all.includes(x as T))
      throw new UsageError(`gate descriptor: field '${k}': expected one of ${all.join("|")}`);
    return x as T;
  };
  return {
    description: o.description,
    scope: list("scope"),
    effects: list("effects"),
    reversibility: pick("reversibility", REVERSIBILITY),
    authorization: pick("authorization", AUTHORIZATION),
  };
}

/** sha256 of the descriptor's canonical JSON. */
export function actionHash(d: Descriptor): string {
  return sha256(canonicalJson(d));
}

/**
 * Which gate an action needs and why.
 * @example classify({effects: ["production"], …}).gate // "user"
 */
export function classify(d: Descriptor): { gate: "user" | "agent"; risks: string[] } {
  const risks: string[] = [];
  for (const e of d.effects) {
    if ((USER_EFFECTS as readonly string[]).includes(e)) risks.push(e);
    else if (!(AGENT_EFFECTS as readonly string[]).includes(e)) risks.push(`unknown_effect:${e}`);
  }
  if (d.reversibility === "irreversible" || d.reversibility === "unknown")
    risks.push(`${d.reversibility}_reversibility`);
  if (d.authorization !== "agent_allowed") risks.push(`authorization_${d.authorization}`);
  return { gate: risks.length ? "user" : "agent", risks };
}
