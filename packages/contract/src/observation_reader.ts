/**
 * An observation read back from its JSON lines (forge-observe's stdout),
 * grouped by kind. A line of a kind no reader handles is a usage error
 * naming the kind (spec/loop.md: exit 2); bad JSON names the line. Cheap on
 * purpose: it checks each line's `kind` and where it stands, not every
 * field (forge-plan reads thousands of lines per loop iteration).
 */
import { ForgeError, UsageError } from "@forge/core";
import { type Observation, OBSERVATION_GROUPS, type ObservationHeader } from "./observation.js";

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
  #n = 0;
  #any = false;
  #rest: Buffer | undefined;

  /**
   * The next bytes (UTF-8): its whole lines are parsed, the part after the last newline kept.
   * @throws as readObservation, at the first bad line
   */
  add(chunk: Buffer): void {
    const buf = this.#rest ? Buffer.concat([this.#rest, chunk]) : chunk;
    // A newline byte is never inside a multi-byte character: the text up to it decodes whole.
    const last = buf.lastIndexOf(10);
    if (last < 0) {
      this.#rest = buf;
      return;
    }
    this.#rest = last + 1 < buf.length ? buf.subarray(last + 1) : undefined;
    this.text(buf.toString("utf8", 0, last + 1));
  }

  /** Whole lines of text (the last one may lack its newline). */
  text(text: string): void {
    let at = 0;
    while (at < text.length) {
      let nl = text.indexOf("\n", at);
      if (nl < 0) nl = text.length;
      this.#line(text.slice(at, nl));
      at = nl + 1;
    }
  }

  /**
   * The end of the input: the observation, or undefined when there was nothing but blank lines.
   * @throws ForgeError (exit 1) when lines came but no header
   */
  end(): Observation | undefined {
    if (this.#rest) this.text(this.#rest.toString("utf8"));
    this.#rest = undefined;
    if (!this.#any) return undefined;
    return this.#o.header ? (this.#o as Observation) : this.none();
  }

  /** @throws ForgeError: no observation */
  none(): never {
    throw new ForgeError("no observation on stdin (pipe forge-observe --json in)", "E_NO_OBSERVATION", 1);
  }

  #line(raw: string): void {
    const n = ++this.#n;
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
    // Only the kind is checked: the line is taken as the type its kind names (see the module comment).
    const kind = (v as { kind?: unknown }).kind;
    if (kind === "observation") {
      if (o.header) throw new ForgeError(`stdin line ${n}: a second observation header`, "E_INVALID_RECORD", 1);
      o.header = v as ObservationHeader;
    } else if (typeof kind === "string" && Object.hasOwn(OBSERVATION_GROUPS, kind)) {
      if (!o.header) {
        throw new ForgeError(`stdin line ${n}: a ${kind} line before the observation header`, "E_INVALID_RECORD", 1);
      }
      (o[OBSERVATION_GROUPS[kind as keyof typeof OBSERVATION_GROUPS]] as unknown[]).push(v);
    } else {
      throw new UsageError(`stdin line ${n}: kind '${String(kind).slice(0, 40)}' is not an observation line`);
    }
  }
}
