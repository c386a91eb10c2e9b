import { readStoreBytes, wikiPagePath } from "@forge/core";
import { defineCommand, type Ctx, type Parsed } from "@forge/cli";
import { Wiki } from "./_shared.js";

/** Options of `forge-wiki get`. */
export interface GetPageOptions {
  /** The page name (`docs/setup` or `docs/setup.md`). */
  name: string;
}

/** argv → options. */
export function parseGetOptions(args: Parsed): GetPageOptions {
  return { name: args.page as string };
}

/**
 * A page's bytes, exactly as stored.
 * @throws UsageError for a bad name; NotFoundError; InvalidFileError when the page escapes or is too big
 */
export function getPage(ctx: Ctx, opts: GetPageOptions): Buffer {
  const rel = wikiPagePath(opts.name);
  const wiki = new Wiki(ctx.io);
  return readStoreBytes(wiki.store, wiki.existing(rel));
}

export default defineCommand({
  meta: {
    name: "get",
    description: "Print a wiki page",
    help: {
      reads: [[".forge/wiki/<page>.md", "the pages (markdown; the title is the first # heading)"]],
      examples: ["forge-wiki get docs/setup", "forge-wiki get docs/setup | sed -n 1,20p"],
    },
  },
  args: {
    page: {
      type: "positional",
      required: true,
      valueHint: "page",
      description: "the page's path under .forge/wiki/, with or without .md (docs/setup)",
    },
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const bytes = getPage(ctx, parseGetOptions(args));
    await ctx.out.flush();
    // Bytes, not text: a page that is not valid UTF-8 comes out unchanged.
    await new Promise<void>((resolve) => ctx.io.stdout.write(bytes, () => resolve()));
  },
});
