/**
 * `forge-pr list`'s record cache: core's record cache (record_cache.ts) kept
 * as `.forge/.cache/prs.records`, as `forge-issue list` keeps its own. A
 * listed PR's JSON — with its reviews and its patch's stat, the parts a
 * full `--json` list reads besides pr.md — is reused while every file it
 * was made from is unchanged: pr.md (the cache's own check: its lstat),
 * and, kept in the payload, the lstat of `patch.diff`, of the `reviews/`
 * folder (its mtime moves when a review is added, removed or renamed in)
 * and of each review file; and the stamps of its record folders (comments/, edits/, reviews/: updatedAt and isDraft
 * read them). Any of them changed, missing or
 * too fresh to vouch (racy clean, core's `fileStamp`): the PR is read from
 * its files, as without the cache. Label and milestone definitions are the
 * cache's context (another context: another cache).
 *
 * What the cache does not hold is made at each list: `number` and `url`
 * (a PR's place), `closingIssuesReferences`' numbers (the issues' order),
 * `mergeCommit` (the merge records). Comments, the merge check and `-S`
 * search never use it. Deleting the cache changes no answer.
 */
import { readdirSync } from "node:fs";
import { sep } from "node:path";
import {
  activityDirs,
  isDraftPr,
  isFileMode,
  isFolderMode,
  entityDir,
  fileStamp,
  FIRST_CHUNK,
  isUuid,
  nextChunk,
  openRecordCache,
  patchFile,
  PRS,
  raw,
  rawStat,
  recordContext,
  statStore,
  entityFile,
  type EntityRef,
  type IssueContext,
  type LoadedEntity,
  type PrJson,
  type RawStat,
  type RecordCache,
  type Store,
} from "@forge/core";

/** What list's filters read of a PR (pr.md's fields), kept beside its record. */
export interface PrFilterData {
  state: string;
  labels: string[];
  assignees: string[];
  author: string;
  baseRefName: string;
  headRefName: string;
  isDraft?: boolean;
}

/**
 * A PR as the cache gives it back: its filter data, the ids of the issues it
 * closes, and its record's JSON text without braces in four parts, split
 * where what the cache does not keep goes: `closingIssuesReferences`,
 * `mergeCommit`, `number` (and `url`, last). The keys are sorted, as in
 * prToJson, so `RecordSink.cached` puts a record together with no parse.
 * The parts are UTF-8 bytes `[at[2k], at[2k + 1])` of `buf`, valid until the
 * next `get`.
 */
export interface CachedPr {
  data: PrFilterData;
  closes: string[];
  buf: Buffer;
  at: number[];
}

/** The payload's layout (the cache's header names it: another layout, another cache). */
const LAYOUT = "pr-list-2";
const SEP = "\x1f";
/** What a record holds that the cache does not keep (made at each list). */
const KEPT_OUT = ["comments", "mergeCommit", "number", "url"];

/** One newest-first walk over the PR record cache (get each live PR in order, put what missed, then close). */
export class PrListCache {
  /** The store as its files are stat'ed (`statStore`: named from the working folder). */
  readonly #stats: Store;
  readonly #cache: RecordCache;
  readonly #now: number;
  // The lstat `#fileStamp` reads into (its stamp is made before the next).
  readonly #st: RawStat = rawStat();
  readonly #full: boolean;
  /** The stamps of the PR `get` just missed, taken before its files are read (undefined: not cacheable). */
  #stamps: string | undefined;

  /**
   * @param full whether the walk makes full records (reviews and the patch's stat): only those are kept, so only
   *   then are a miss's stamps taken
   */
  constructor(store: Store, defs: IssueContext, full: boolean, now = Date.now()) {
    this.#stats = statStore(store);
    this.#full = full;
    this.#now = now;
    const context = recordContext([[...defs.labels], [...defs.milestones]]);
    this.#cache = openRecordCache(store, PRS, { layout: LAYOUT, context, write: true, now });
  }

  /**
   * The cached PR at `key`, or undefined (a miss: read it from its files,
   * then `put`). The stamps of a miss are taken here, before any read.
   * @param key `<createdAt> <id>`, as the order has it (descending from call to call)
   */
  get(key: string, ref: EntityRef): CachedPr | undefined {
    this.#stamps = undefined;
    const file = entityFile(this.#stats, PRS, ref.id);
    // updatedAt and isDraft read the PR's record folders (comments/, edits/, reviews/): their stamps key the line.
    const hit = ref.escapes ? undefined : this.#cache.get(key, file, undefined, activityDirs(file, false));
    if (hit) {
      try {
        // The payload's seven parts, split at U+001F (never inside JSON text: escaped there).
        const b = hit.buf;
        const cut = [hit.start - 1];
        for (let k = 0; k < 6 && cut[k]! >= 0; k++) cut.push(b.indexOf(0x1f, cut[k]! + 1));
        cut.push(hit.end);
        const stamps = cut[1]! > hit.start && cut[6]! < hit.end && b.toString("latin1", hit.start, cut[1]);
        if (stamps && cut.every((c, k) => k === 0 || c > cut[k - 1]!) && this.#stampsNow(ref, stamps) === stamps) {
          const data = JSON.parse(b.toString("utf8", cut[1]! + 1, cut[2])) as PrFilterData;
          const closes = JSON.parse(b.toString("latin1", cut[2]! + 1, cut[3])) as string[];
          const at = [cut[3]! + 1, cut[4]!, cut[4]! + 1, cut[5]!, cut[5]! + 1, cut[6]!, cut[6]! + 1, cut[7]!];
          if (data && typeof data === "object" && Array.isArray(closes)) return { data, closes, buf: b, at };
        }
      } catch {
        // Not a payload of this layout: read from the files.
      }
      this.#cache.refuse();
    }
    this.#stamps = ref.escapes || !this.#full ? undefined : this.#stampsNow(ref);
    return undefined;
  }

  /**
   * Keep the record made from the files of the PR `get` just missed: only
   * a full one (reviews and the patch's stat read), of a file without
   * warnings, whose other files were all still when stat'ed.
   */
  put(key: string, e: LoadedEntity, json: PrJson): void {
    const stamps = this.#stamps;
    this.#stamps = undefined;
    if (stamps === undefined || json.reviews === undefined || json.files === undefined) return;
    const parts: Array<Record<string, unknown>> = [{}, {}, {}, {}];
    const rec = json as unknown as Record<string, unknown>;
    for (const k of Object.keys(rec)) {
      if (k === "closingIssuesReferences" || KEPT_OUT.includes(k)) continue;
      parts[k < "closingIssuesReferences" ? 0 : k < "mergeCommit" ? 1 : k < "number" ? 2 : 3]![k] = rec[k];
    }
    const closes = json.closingIssuesReferences.map((c) => c.id);
    const text = [
      stamps,
      JSON.stringify(filterData(e.data, isDraftPr(e))),
      JSON.stringify(closes),
      ...parts.map(members),
    ].join(SEP);
    this.#cache.put(key, text, e.warnings.length === 0);
  }

  /** End the walk (`complete`: it visited every PR, and may rewrite the cache). */
  close(complete: boolean): void {
    this.#cache.close(complete);
  }

  /**
   * The stamps of a live PR's other files, now: `<patch.diff>|<reviews/>|<name>=<file>,…` (with `names`, of those
   * review files, as a hit lists them; else of the ones there are), or undefined when one cannot vouch.
   */
  #stampsNow(ref: EntityRef, cached?: string): string | undefined {
    const dir = entityDir(this.#stats, PRS, ref.id, false);
    const patch = this.#fileStamp(patchFile(this.#stats, PRS, ref.id, false));
    if (patch === undefined) return undefined;
    const reviews = dir + sep + "reviews";
    const folder = this.#fileStamp(reviews, true);
    if (folder === undefined) return undefined;
    let names: string[];
    if (cached !== undefined) {
      // The folder unchanged since the hit's stamps: the same names (a different folder stamp fails the compare).
      const at = cached.indexOf("|", cached.indexOf("|") + 1);
      const list = at < 0 ? "" : cached.slice(at + 1);
      names = list === "" ? [] : list.split(",").map((x) => x.slice(0, x.indexOf("=")));
    } else if (folder === "-") names = [];
    else {
      try {
        names = readdirSync(reviews)
          .filter((n) => n.endsWith(".md") && isUuid(n.slice(0, -3)))
          .sort();
      } catch {
        return undefined;
      }
    }
    let out = `${patch}|${folder}|`;
    for (let k = 0; k < names.length; k++) {
      const s = this.#fileStamp(reviews + sep + names[k]);
      if (s === undefined) return undefined;
      out += `${k ? "," : ""}${names[k]}=${s}`;
    }
    return out;
  }

  /**
   * A file's stamp (core's fileStamp of its lstat: inode, mtime, ctime, size), or undefined when it is missing, not a
   * file, or too fresh to vouch (racy clean). `folder`: a folder's (entries added, removed or renamed in move its
   * mtime), `-` when there is none.
   */
  #fileStamp(path: string, folder = false): string | undefined {
    const st = this.#st;
    try {
      if (!raw.lstat(path, st)) return folder ? "-" : undefined;
    } catch {
      return undefined;
    }
    if (folder ? !isFolderMode(st.mode) : !isFileMode(st.mode)) return undefined;
    return fileStamp(st, this.#now) ?? undefined;
  }
}

/** What list's filters read of a PR: pr.md's fields, and whether it is a draft (its latest ready/undo edit decides). */
export function filterData(d: Record<string, unknown>, draft: boolean): PrFilterData {
  return {
    state: d.state as string,
    labels: (d.labels as string[] | undefined) ?? [],
    assignees: (d.assignees as string[] | undefined) ?? [],
    author: d.author as string,
    baseRefName: d.baseRefName as string,
    headRefName: d.headRefName as string,
    ...(draft ? { isDraft: true } : {}),
  };
}

/**
 * JSON lines as bytes, records from the cache copied, others written as
 * text, handed out in chunks of up to 128 KiB (`nextChunk`).
 */
export class RecordSink {
  #buf = Buffer.allocUnsafe(1 << 18);
  #len = 0;
  #limit = FIRST_CHUNK;
  #chunks: Buffer[] = [];
  /** Lines so far. */
  count = 0;
  /** One line of JSON text (no newline). */
  text(s: string): void {
    this.#room(s.length * 3 + 1);
    this.#len += this.#buf.write(s, this.#len, "utf8");
    this.#buf[this.#len++] = 0x0a;
    this.#end();
  }
  /**
   * A cached PR's record, keys sorted as `JSON.stringify` of prToJson's record prints them.
   * @param closing `closingIssuesReferences`' JSON text (the closed issues numbered now)
   * @param mergeCommit `mergeCommit`'s JSON text, or undefined when not asked for
   */
  cached(pr: CachedPr, number: number, url: string, closing: string, mergeCommit: string | undefined): void {
    const { buf, at } = pr;
    this.#room(at[7]! - at[0]! + closing.length * 3 + (mergeCommit?.length ?? 0) * 3 + url.length * 3 + 96);
    let first = true;
    const bytes = (s: number, e: number): void => {
      if (s === e) return;
      if (!first) this.#buf[this.#len++] = 0x2c;
      first = false;
      this.#len += buf.copy(this.#buf, this.#len, s, e);
    };
    const member = (s: string): void => {
      if (!first) this.#buf[this.#len++] = 0x2c;
      first = false;
      this.#len += this.#buf.write(s, this.#len, "utf8");
    };
    this.#buf[this.#len++] = 0x7b;
    bytes(at[0]!, at[1]!);
    member(`"closingIssuesReferences":${closing}`);
    bytes(at[2]!, at[3]!);
    if (mergeCommit !== undefined) member(`"mergeCommit":${mergeCommit}`);
    bytes(at[4]!, at[5]!);
    member(`"number":${number}`);
    bytes(at[6]!, at[7]!);
    member(`"url":${JSON.stringify(url)}`);
    this.#buf[this.#len++] = 0x7d;
    this.#buf[this.#len++] = 0x0a;
    this.#end();
  }
  /** The chunks filled so far (handed out once). */
  ready(): Buffer[] {
    const out = this.#chunks;
    if (out.length > 0) this.#chunks = [];
    return out;
  }
  /** Every chunk not handed out yet (the sink is done). */
  take(): Buffer[] {
    if (this.#len > 0) this.#chunks.push(this.#buf.subarray(0, this.#len));
    this.#len = 0;
    return this.ready();
  }
  #end(): void {
    this.count++;
    if (this.#len < this.#limit) return;
    this.#limit = nextChunk(this.#limit, 1 << 17);
    this.#chunks.push(this.#buf.subarray(0, this.#len));
    this.#buf = Buffer.allocUnsafe(1 << 18);
    this.#len = 0;
  }
  #room(n: number): void {
    if (this.#len + n <= this.#buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.#buf.length * 2, this.#len + n));
    this.#buf.copy(next, 0, 0, this.#len);
    this.#buf = next;
  }
}

/** A cached PR's JSON record as text (as `RecordSink.cached` writes it): for a reader that wants the object. */
export function recordText(
  pr: CachedPr,
  number: number,
  url: string,
  closing: string,
  mergeCommit: string | undefined
): string {
  const sink = new RecordSink();
  sink.cached(pr, number, url, closing, mergeCommit);
  return Buffer.concat(sink.take()).toString("utf8", 0);
}

/** The JSON text of an object's members, without the braces (`"a":1,"b":2`). */
function members(o: Record<string, unknown>): string {
  return JSON.stringify(o).slice(1, -1);
}
