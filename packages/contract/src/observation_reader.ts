/**
 * An observation read back from its JSON lines (forge-observe's stdout),
 * grouped by kind. A line of a kind no reader handles is a usage error
 * naming the kind (spec/loop.md: exit 2); bad JSON names the line, and a
 * field forge-plan reads of the line's kind with the wrong type names the
 * line and the field (exit 1; see observation_check.ts). Cheap on purpose:
 * types only, no copy (forge-plan reads thousands of lines per loop
 * iteration). Linear in the input, one line at most MAX_JSON_LINE_BYTES.
 */
import { capText, ForgeError, LineSplitter, MAX_JSON_LINE_BYTES, type SplitLine, UsageError } from "@forge/core";
import { RecordError } from "./fields.js";
import { type Observation, OBSERVATION_GROUPS, type ObservationHeader, type ObservationLine } from "./observation.js";
import { checkObservationLine } from "./observation_check.js";

/**
 * Parse observation text.
 * @throws ForgeError (exit 1) for bad JSON or no header; UsageError (exit 2) for a kind it does not handle
 * @example readObservation(text).nodes.length
 */
export function readObservation(text: string): Observation {
  const r = new ObservationReader();
  r.text(text);
  return r.end() ?? r.none();
}

/**
 * An observation read a chunk at a time, each whole line parsed as it
 * comes: a pipe's lines are parsed while the rest is still on its way.
 */
export class ObservationReader {
  readonly #o: Partial<Observation> & Omit<Observation, "header"> = {
    nodes: [],
    syndromes: [],
    prs: [],
    issues: [],
    degradations: [],
    unverified: [],
  };
  #any = false;
  readonly #split = new LineSplitter();

  /**
   * The next bytes (UTF-8): the lines they end are parsed, the rest kept
   * (linear in the input; a line over MAX_JSON_LINE_BYTES is refused).
   * @throws as readObservation, at the first bad line
   */
  add(chunk: Buffer): void {
    for (const l of this.#split.push(chunk)) this.#take(l);
  }

  /** Whole lines of text (the last one may lack its newline). */
  text(text: string): void {
    this.add(Buffer.from(text));
    for (const l of this.#split.end()) this.#take(l);
  }

  /**
   * The end of the input: the observation, or undefined when there was nothing but blank lines.
   * @throws ForgeError (exit 1) when lines came but no header
   */
  end(): Observation | undefined {
    for (const l of this.#split.end()) this.#take(l);
    if (!this.#any) return undefined;
    return this.#o.header ? (this.#o as Observation) : this.none();
  }

  /** @throws ForgeError: no observation */
  none(): never {
    throw new ForgeError("no observation on stdin (pipe forge-observe --json in)", "E_NO_OBSERVATION", 1);
  }

  #take(l: SplitLine): void {
    if (l.tooLong) {
      throw new ForgeError(
        `stdin line ${l.line}: longer than the ${capText(MAX_JSON_LINE_BYTES)} line limit`,
        "E_INVALID_RECORD",
        1
      );
    }
    this.#line(l.text, l.line);
  }

  #line(raw: string, n: number): void {
    if (raw.trim() === "") return;
    this.#any = true;
    const o = this.#o;
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch {
      throw new ForgeError(`stdin line ${n}: not JSON`, "E_INVALID_RECORD", 1);
    }
    if (v === null || typeof v !== "object" || Array.isArray(v)) {
      throw new ForgeError(`stdin line ${n}: field 'kind': expected an object with a kind`, "E_INVALID_RECORD", 1);
    }
    // The kind, then the fields forge-plan reads of it: the line is taken as the type its kind names.
    const kind = (v as { kind?: unknown }).kind;
    if (kind === "observation") {
      if (o.header) throw new ForgeError(`stdin line ${n}: a second observation header`, "E_INVALID_RECORD", 1);
      check(n, "observation", v as Record<string, unknown>);
      o.header = v as ObservationHeader;
    } else if (typeof kind === "string" && Object.hasOwn(OBSERVATION_GROUPS, kind)) {
      if (!o.header) {
        throw new ForgeError(`stdin line ${n}: a ${kind} line before the observation header`, "E_INVALID_RECORD", 1);
      }
      check(n, kind as keyof typeof OBSERVATION_GROUPS, v as Record<string, unknown>);
      (o[OBSERVATION_GROUPS[kind as keyof typeof OBSERVATION_GROUPS]] as unknown[]).push(v);
    } else {
      throw new UsageError(`stdin line ${n}: kind '${String(kind).slice(0, 40)}' is not an observation line`);
    }
  }
}

/** The fields forge-plan reads of a line of this kind, or one error naming the line and the field. */
function check(n: number, kind: ObservationLine["kind"], v: Record<string, unknown>): void {
  try {
    checkObservationLine(kind, v);
  } catch (err) {
    if (!(err instanceof RecordError)) throw err;
    throw new ForgeError(`stdin line ${n}: ${kind} line: ${err.message}`, "E_INVALID_RECORD", 1);
  }
}
