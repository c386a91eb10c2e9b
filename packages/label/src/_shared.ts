/**
 * What every label verb shares: reading and rewriting `labels.md`, finding a
 * label by name, checking names and colors, the JSON model and the renderer.
 */
import { createHash } from "node:crypto";
import { DefFile, loadDefList, NotFoundError, openStore, UsageError, type LabelDef } from "@forge/core";
import {
  useColor,
  type Ctx,
  type FlagDef,
  type JsonRequest,
  type Parsed,
  type RenderOptions,
  jsonFlags,
  jsonRequestOf,
} from "@forge/cli";

/** Every `--json` field of a label (gh's `label list --json name,color,description`). */
export const LABEL_FIELDS: readonly string[] = ["color", "description", "name"];

/** `labels.md` being edited (see DefFile), looked up by label name. */
export class LabelFile extends DefFile {
  /** Open the store and read `labels.md` (absent: GitHub's default labels). */
  static async open(ctx: Ctx): Promise<LabelFile> {
    const store = openStore({ cwd: ctx.io.cwd, env: ctx.io.env });
    const f = new LabelFile(store, "labels", await loadDefList(store, "labels"));
    for (const w of f.list.warnings) ctx.log.warn(w);
    return f;
  }
  /**
   * The index of the label called `name`.
   * @throws NotFoundError
   */
  get(name: string): number {
    const i = this.find(name);
    if (i < 0) throw new NotFoundError(`label ${JSON.stringify(name)} not found`);
    return i;
  }
}

/** A stored label as gh's JSON (`""` for an absent color or description). */
export function labelJson(l: Record<string, unknown>): LabelDef {
  return {
    color: (l.color as string | undefined) ?? "",
    description: (l.description as string | undefined) ?? "",
    name: String(l.name),
  };
}

/** A label item to store: a description only when non-empty; other fields of `old` kept. */
export function labelItem(
  name: string,
  color: string,
  description: string,
  old: Record<string, unknown> = {}
): Record<string, unknown> {
  const item: Record<string, unknown> = { ...old, name, color, description };
  if (description === "") delete item.description;
  return item;
}

// Control characters, and the separators YAML 1.1 or JavaScript read as line breaks.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * Check a label name: one line, no comma (gh splits `--label` on commas), no
 * space at either end, at most 50 characters (GitHub's limit). Anything else,
 * YAML syntax included, is stored literally.
 * @throws UsageError
 * @example checkName("needs: triage") // ok
 */
export function checkName(name: string): string {
  if (name.trim() === "") throw new UsageError("label name must not be empty");
  if (CONTROL.test(name)) throw new UsageError("label name must be one line of printable text");
  if (name.includes(",")) throw new UsageError("label name must not contain a comma (--label splits on commas)");
  if (name.trim() !== name) throw new UsageError("label name must not start or end with a space");
  if ([...name].length > 50) throw new UsageError("label name is longer than 50 characters");
  return name;
}

/**
 * Check a description: one line, at most 100 characters (GitHub's limit).
 * @throws UsageError
 */
export function checkDescription(d: string): string {
  if (CONTROL.test(d)) throw new UsageError("label description must be one line of printable text");
  if ([...d].length > 100) throw new UsageError("label description is longer than 100 characters");
  return d;
}

/**
 * A color as stored: 6 hex digits, lowercase, no `#` (gh accepts a leading `#`).
 * @throws UsageError
 * @example normColor("#D73A4A") // "d73a4a"
 */
export function normColor(c: string): string {
  const m = /^#?([0-9a-fA-F]{6})$/.exec(c);
  if (!m) throw new UsageError(`invalid color '${c.slice(0, 20)}' (6 hex digits, like d73a4a)`);
  return m[1]!.toLowerCase();
}

/** gh's palette for labels created without a color. */
const PALETTE = [
  "b60205",
  "d93f0b",
  "fbca04",
  "0e8a16",
  "006b75",
  "1d76db",
  "0052cc",
  "5319e7",
  "e99695",
  "f9d0c4",
  "fef2c0",
  "c2e0c6",
  "bfdadc",
  "c5def5",
  "bfd4f2",
  "d4c5f9",
];

/**
 * The color of a label created without one: from gh's palette, like gh, but
 * picked by the name's sha256 instead of at random, so every clone (and
 * every golden file) agrees.
 * @example defaultColor("bug") // one of gh's 16 label colors
 */
export function defaultColor(name: string): string {
  return PALETTE[createHash("sha256").update(name).digest()[0]! % PALETTE.length]!;
}

/** `--json [fields]` and `--jq`, as gh spells them. */
export const JSON_FLAGS: Record<string, FlagDef> = jsonFlags(LABEL_FIELDS);

/** The JSON request from `--json`/`--jq` (`--jq` alone means every field). */
export function jsonRequest(args: Parsed): JsonRequest | null {
  return jsonRequestOf(args, LABEL_FIELDS);
}

/** gh's row: name, description, `#color`; on a TTY the name in its own color (24-bit). */
export function labelRow(l: LabelDef, _tty: boolean, color: boolean): string[] {
  const rgb = /^[0-9a-f]{6}$/.test(l.color) ? l.color : "";
  const name =
    color && rgb
      ? `\x1b[38;2;${parseInt(rgb.slice(0, 2), 16)};${parseInt(rgb.slice(2, 4), 16)};${parseInt(rgb.slice(4), 16)}m` +
        `${l.name}\x1b[0m`
      : l.name;
  return [name, l.description, l.color ? `#${l.color}` : ""];
}

/** Render options for commands that print label records (stdout only with --json/--jq). */
export function labelRender(args: Parsed, req: JsonRequest | null, single: boolean): RenderOptions<LabelDef> {
  return { json: req, jq: args.jq as string | undefined, single };
}

/** A confirmation line for stderr, like gh's `✓ Label "bug" created`. */
export function confirm(ctx: Ctx, name: string, verb: string): void {
  const tick = useColor(ctx.io) ? "\x1b[32m✓\x1b[0m " : "";
  ctx.io.stderr.write(`${tick}Label ${JSON.stringify(name)} ${verb}\n`);
}
