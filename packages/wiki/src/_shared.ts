/**
 * What every wiki verb shares: the store and the realpath of `wiki/`, page
 * paths resolved without leaving it (SEC-02), the index record and its row.
 */
import { lstatSync, realpathSync } from "node:fs";
import { basename, dirname, sep } from "node:path";
import {
  displayPath,
  InvalidFileError,
  isInside,
  NotFoundError,
  openStore,
  wikiDir,
  wikiTitle,
  type Store,
} from "@forge/core";
import {
  type FlagDef,
  type Io,
  type JsonRequest,
  type Parsed,
  type RenderOptions,
  jsonFlags,
  jsonRequestOf,
} from "@forge/cli";

/** `list --json` (and `put --json`) fields: spec/schema.md, wiki page. */
export const WIKI_FIELDS: readonly string[] = ["path", "size", "title"];

/** One page of the index. */
export interface WikiPageJson {
  /** The path under `wiki/`, with `.md` (also a valid page name). */
  path: string;
  /** Bytes. */
  size: number;
  /** The first H1, or null. */
  title: string | null;
}

/** An open store's wiki. */
export class Wiki {
  readonly store: Store;
  /** `.forge/wiki` (it may not exist yet). */
  readonly dir: string;
  constructor(io: Io) {
    this.store = openStore({ cwd: io.cwd, env: io.env });
    this.dir = wikiDir(this.store);
  }
  /**
   * The realpath of `wiki/`, or undefined when there is no wiki yet.
   * @throws InvalidFileError when `wiki/` resolves outside the store
   */
  real(): string | undefined {
    let real: string;
    try {
      real = realpathSync(this.dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return undefined;
      throw err;
    }
    if (!isInside(this.store, real) || real === this.store.real)
      throw new InvalidFileError(displayPath(this.store, this.dir), "resolves outside .forge/ (refused)");
    return real;
  }
  /** `abs` for messages (`.forge/wiki/…`). */
  show(abs: string): string {
    return displayPath(this.store, abs);
  }
  /**
   * An existing page's absolute path, checked: its folder and (when it is a
   * symlink) the page itself must resolve inside `wiki/`.
   * @param rel a checked page path (`wikiPagePath`)
   * @throws NotFoundError when there is no such page; InvalidFileError when it escapes
   */
  existing(rel: string): string {
    const abs = this.dir + sep + rel;
    const real = this.real();
    const missing = (): NotFoundError => new NotFoundError(`no page '${rel}' in .forge/wiki/`);
    if (!real) throw missing();
    let parent: string;
    try {
      parent = realpathSync(dirname(abs));
    } catch {
      throw missing();
    }
    if (!within(parent, real))
      throw new InvalidFileError(this.show(abs), "folder resolves outside .forge/wiki/ (refused)");
    let link = false;
    try {
      link = lstatSync(abs).isSymbolicLink();
    } catch {
      throw missing();
    }
    if (link) {
      let target: string;
      try {
        target = realpathSync(abs);
      } catch {
        throw new InvalidFileError(this.show(abs), "dangling symlink");
      }
      if (!within(target, real))
        throw new InvalidFileError(this.show(abs), "symlink points outside .forge/wiki/ (refused)");
    }
    return abs;
  }
}

/** Whether the realpath `p` is `dir` or inside it. */
export function within(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir + sep);
}

/** The index record of a page. */
export function pageRecord(path: string, bytes: Buffer): WikiPageJson {
  return { path, size: bytes.length, title: wikiTitle(bytes.toString("utf8")) };
}

/** A row: path and title (the file name when the page has no H1). */
export function pageRow(p: WikiPageJson): string[] {
  return [p.path, p.title ?? basename(p.path, ".md")];
}

/** `--json [fields]` and `--jq`, as gh spells them. */
export const JSON_FLAGS: Record<string, FlagDef> = jsonFlags(WIKI_FIELDS);

/** The JSON request from `--json`/`--jq` (`--jq` alone means every field). */
export function jsonRequest(args: Parsed): JsonRequest | null {
  return jsonRequestOf(args, WIKI_FIELDS);
}

/** Render options for page records. */
export function pageRender(args: Parsed, req: JsonRequest | null, single: boolean): RenderOptions<WikiPageJson> {
  return { json: req, jq: args.jq as string | undefined, single, row: pageRow, header: ["PATH", "TITLE"] };
}
