/**
 * An observation read back from its JSON lines (forge-observe's stdout):
 * grouped by kind. A line of a kind forge-plan does not handle is a usage
 * error naming the kind (spec/loop.md: exit 2); bad JSON names the line.
 */
import { ForgeError, UsageError } from "@forge/core";
import type { Observation } from "@forge/observe";

/** One line as parsed. */
export type Line = Record<string, unknown>;

/** An observation's lines by kind. */
export type ObservationData = { header: Line; nodes: Line[]; syndromes: Line[]; prs: Line[]; issues: Line[]; degradations: Line[]; unverified: Line[] };

const GROUPS: Record<string, keyof Omit<ObservationData, "header">> = {
  node: "nodes", syndrome: "syndromes", pr: "prs", issue: "issues", degradation: "degradations", unverified: "unverified",
};

/**
 * Parse observation text.
 * @throws ForgeError (exit 1) for bad JSON or no header; UsageError (exit 2) for a kind it does not handle
 */
export function readObservation(text: string): ObservationData {
  const o: Partial<ObservationData> & Omit<ObservationData, "header"> = { nodes: [], syndromes: [], prs: [], issues: [], degradations: [], unverified: [] };
  let n = 0;
  for (const raw of text.split("\n")) {
    n++;
    if (raw.trim() === "") continue;
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch {
      throw new ForgeError(`stdin line ${n}: not JSON`, "E_INVALID_RECORD", 1);
    }
    if (v === null || typeof v !== "object" || Array.isArray(v)) throw new ForgeError(`stdin line ${n}: field 'kind': expected an object with a kind`, "E_INVALID_RECORD", 1);
    const line = v as Line;
    const kind = line.kind;
    if (kind === "observation") {
      if (o.header) throw new ForgeError(`stdin line ${n}: a second observation header`, "E_INVALID_RECORD", 1);
      o.header = line;
    } else if (typeof kind === "string" && kind in GROUPS) {
      if (!o.header) throw new ForgeError(`stdin line ${n}: a ${kind} line before the observation header`, "E_INVALID_RECORD", 1);
      o[GROUPS[kind]!].push(line);
    } else {
      throw new UsageError(`stdin line ${n}: kind '${String(kind).slice(0, 40)}' is not an observation line`);
    }
  }
  if (!o.header) throw new ForgeError("no observation on stdin (pipe forge-observe --json in)", "E_NO_OBSERVATION", 1);
  return o as ObservationData;
}

/** An in-process observation as the same data (no JSON round trip). */
export function observationData(o: Observation): ObservationData {
  return { header: o.header, nodes: o.nodes, syndromes: o.syndromes, prs: o.prs, issues: o.issues, degradations: o.degradations, unverified: o.unverified };
}
