import { readFileSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import { UsageError } from "@forge/core";
import type { Parsed } from "./args.js";
import type { Ctx } from "./main.js";

/**
 * The text of gh's `--body`/`--body-file` pair (`-` reads stdin).
 * @param ctx the command context
 * @param args parsed flags with `body` and `body-file`
 * @param refFromStdin stdin already carries refs (`-`), so it cannot carry the body too
 * @returns the body, or undefined when neither flag was given
 * @throws UsageError when both are given, stdin is taken, or the file cannot be read
 * @example await readBody(ctx, { _: [], body: "hi" }) // "hi"
 */
export function readBody(ctx: Ctx, args: Parsed, refFromStdin = false): Promise<string | undefined> {
  return readTextFlag(ctx, args, "body", refFromStdin);
}

/**
 * The text of a `--<name>` / `--<name>-file` pair (gh's `--notes`/`--notes-file` too).
 * @throws UsageError when both are given, stdin is taken, or the file cannot be read
 */
export async function readTextFlag(
  ctx: Ctx,
  args: Parsed,
  name: string,
  refFromStdin = false
): Promise<string | undefined> {
  const text = args[name] as string | undefined;
  const file = args[`${name}-file`] as string | undefined;
  if (text !== undefined && file !== undefined)
    throw new UsageError(`specify only one of --${name} and --${name}-file`);
  if (file === undefined) return text;
  if (file === "-") {
    if (refFromStdin) throw new UsageError(`stdin cannot carry both refs and --${name}-file -`);
    const chunks: Buffer[] = [];
    for await (const c of ctx.io.stdin as AsyncIterable<Buffer>) chunks.push(c);
    return Buffer.concat(chunks).toString("utf8");
  }
  try {
    return readFileSync(resolvePath(ctx.io.cwd, file), "utf8");
  } catch {
    throw new UsageError(`cannot read --${name}-file '${file.slice(0, 60)}'`);
  }
}

/** gh's `-b/--body` and `-F/--body-file` flags (`-F -` reads stdin). */
export const BODY_FLAGS = {
  body: { type: "string", alias: "b", valueHint: "text", description: "the text (markdown)" },
  "body-file": {
    type: "string",
    alias: "F",
    valueHint: "file",
    description: "read the text from a file; - reads stdin",
  },
} as const;

/**
 * A `comment` verb's ref and body (`forge-issue comment`, `forge-pr comment`).
 * @throws UsageError without a body
 */
export async function parseCommentOptions(ctx: Ctx, args: Parsed): Promise<{ ref: string; body: string }> {
  const ref = args.ref as string;
  const body = await readBody(ctx, args, ref === "-");
  if (body === undefined) throw new UsageError("a comment needs --body or --body-file");
  return { ref, body };
}
