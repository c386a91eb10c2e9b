import { lstatSync } from "node:fs";
import { dirname, sep } from "node:path";
import {
  atomicWrite,
  ForgeError,
  InvalidFileError,
  MAX_FILE_BYTES,
  mkdirInside,
  UsageError,
  wikiPagePath,
} from "@forge/core";
import { defineCommand, emit, useColor, type Ctx, type Parsed } from "@forge/cli";
import { JSON_FLAGS, jsonRequest, pageRecord, Wiki, type WikiPageJson } from "./_shared.js";

/** Options of `forge-wiki put`. */
export interface PutPageOptions {
  /** The page name (`docs/setup` or `docs/setup.md`). */
  name: string;
}

/** argv → options (the name is checked here, before stdin is read). */
export function parsePutOptions(args: Parsed): PutPageOptions & { rel: string } {
  const name = args.page as string;
  return { name, rel: wikiPagePath(name) };
}

/**
 * Write a page atomically (folders made as needed, none through a symlink
 * that leaves `wiki/`); a page that is a symlink or a folder is refused.
 * @param text the page's bytes, at most 256 KiB
 * @returns the page's index record and whether it is new
 * @throws UsageError for a bad name or an empty text; InvalidFileError when the path escapes
 */
export function putPage(ctx: Ctx, opts: PutPageOptions, text: Buffer): { page: WikiPageJson; created: boolean } {
  const rel = wikiPagePath(opts.name);
  if (text.length === 0) throw new UsageError("no page text on stdin (nothing written)");
  if (text.length > MAX_FILE_BYTES)
    throw new ForgeError(`page larger than ${MAX_FILE_BYTES / 1024} KiB (refused)`, "E_TOO_BIG", 1);
  const wiki = new Wiki(ctx.io);
  const abs = wiki.dir + sep + rel;
  mkdirInside(wiki.store, wiki.dir);
  mkdirInside(wiki.store, dirname(abs), wiki.real());
  let created = false;
  try {
    const st = lstatSync(abs);
    if (st.isSymbolicLink()) throw new InvalidFileError(wiki.show(abs), "is a symlink (refused)");
    if (!st.isFile()) throw new InvalidFileError(wiki.show(abs), "not a regular file");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    created = true;
  }
  atomicWrite(abs, text);
  return { page: pageRecord(rel, text), created };
}

/**
 * Read stdin whole, stopping as soon as it passes the page limit.
 * @throws ForgeError when it is larger than 256 KiB
 */
export async function readPageText(ctx: Ctx): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of ctx.io.stdin as AsyncIterable<Buffer>) {
    n += c.length;
    if (n > MAX_FILE_BYTES)
      throw new ForgeError(`page larger than ${MAX_FILE_BYTES / 1024} KiB (refused)`, "E_TOO_BIG", 1);
    chunks.push(c);
  }
  return Buffer.concat(chunks);
}

export default defineCommand({
  meta: {
    name: "put",
    description: "Write a wiki page from stdin",
    help: {
      reads: [[".forge/wiki/<page>.md", "the pages (markdown; the title is the first # heading)"]],
      examples: [
        "forge-wiki put docs/setup < setup.md",
        "printf '# Notes\\n' | forge-wiki put notes --json path,title",
      ],
    },
  },
  args: {
    page: {
      type: "positional",
      required: true,
      valueHint: "page",
      description: "the page's path under .forge/wiki/, with or without .md; its text comes on stdin",
    },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const opts = parsePutOptions(args);
    const { page, created } = putPage(ctx, opts, await readPageText(ctx));
    const tick = useColor(ctx.io) ? "\x1b[32m✓\x1b[0m " : "";
    ctx.io.stderr.write(`${tick}${created ? "Created" : "Updated"} wiki page ${page.path}\n`);
    await emit(ctx.io, ctx.out, [page], { json: req, jq: args.jq as string | undefined, single: true });
  },
});
