/** What learn, supersede, retract and recall share. */
import { printable, UsageError } from "@forge/core";
import type { Parsed } from "@forge/cli";
import { type ExperienceKind, KINDS } from "./experience.js";

export const EXPERIENCE_FIELDS = [
  "id",
  "kind",
  "scope",
  "text",
  "rationale",
  "observedAt",
  "createdAt",
  "expiresAt",
  "revision",
  "status",
  "supersedes",
  "supersededBy",
  "retractedAt",
  "reason",
  "updatedAt",
  "advisory",
  "score",
];

/** `--kind`. */
export function kindOf(args: Parsed, required: boolean): ExperienceKind | undefined {
  const k = args.kind;
  if (k === undefined) {
    if (required) throw new UsageError("missing --kind observation|hypothesis|lesson");
    return undefined;
  }
  if (!KINDS.includes(k as ExperienceKind))
    throw new UsageError(`invalid --kind '${printable(String(k), 20)}' (observation|hypothesis|lesson)`);
  return k as ExperienceKind;
}

/** `--expect-revision N` (required on every change). */
export function expectedRevision(args: Parsed): number {
  const v = args["expect-revision"];
  if (typeof v !== "string" || !/^[1-9]\d{0,9}$/.test(v))
    throw new UsageError("missing or invalid --expect-revision <n> (the revision you read)");
  return Number(v);
}

/** A record as one line of text. */
export function formatRecord(r: Record<string, unknown>): string {
  return (
    `${String(r.id)}\t${String(r.kind)}\t${String(r.status)}\trev ` +
    `${String(r.revision)}\t${String(r.scope)}\t${String(r.text)}\n`
  );
}
