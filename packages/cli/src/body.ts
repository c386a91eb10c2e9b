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
export async function readBody(ctx: Ctx, args: Parsed, refFromStdin = false): Promise<string | undefined> {
  const body = args.body as string | undefined;
  const file = args["body-file"] as string | undefined;
  if (body !== undefined && file !== undefined) throw new UsageError("specify only one of --body and --body-file");
  if (file === undefined) return body;
  if (file === "-") {
    if (refFromStdin) throw new UsageError("stdin cannot carry both refs and --body-file -");
    const chunks: Buffer[] = [];
    for await (const c of ctx.io.stdin as AsyncIterable<Buffer>) chunks.push(c);
    return Buffer.concat(chunks).toString("utf8");
  }
  try {
    return readFileSync(resolvePath(ctx.io.cwd, file), "utf8");
  } catch {
    throw new UsageError(`cannot read --body-file '${file.slice(0, 60)}'`);
  }
}
