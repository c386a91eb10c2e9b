/**
 * The entities of a foreign store, each validated strictly before anything
 * is written: frontmatter read with core's SEC-01 limits and checked
 * against schema v1, ids equal to their folder or file names, a PR's
 * `patch.diff` equal to its `patchSha256`, wiki page paths and release tags
 * as safe as the local commands make them (SEC-02), evidence imports as
 * the evidence lane checks them (`checkImportRecord`; a pack's records each
 * so, after its digest, and then taken as the loose imports they were: the
 * same entity whether the other clone packed or not). Any invalid file
 * stops the import with one line naming the file and the field.
 */
import {
  COMMENT,
  EDIT,
  IMPORT_RECORD,
  InvalidFileError,
  ISSUE,
  isReleaseTag,
  isUuid,
  isWikiPagePath,
  LABELS,
  MAX_PATCH_BYTES,
  MERGE_RECORD,
  MILESTONES,
  parseFrontmatter,
  patchSha256,
  PR,
  PR_REVIEW,
  RELEASE,
  TASK,
  validate,
  type EntitySchema,
} from "@forge/core";
import type { ImportRecord } from "@forge/evidence";
import type { Foreign } from "./_foreign.js";

/** The kinds an import knows, in the order they are written (owners before their records). */
export const KINDS = [
  "label",
  "milestone",
  "issue",
  "task",
  "pr",
  "comment",
  "review",
  "pr-comment",
  "edit",
  "pr-edit",
  "wiki",
  "release",
  "merge",
  "import-record",
  "evidence",
] as const;

/** One kind of entity. */
export type Kind = (typeof KINDS)[number];

/** A validated foreign entity. */
export interface Incoming {
  kind: Kind;
  /** uuid, label name, milestone title, wiki path, release tag or evidence file name. */
  id: string;
  /** For file entities: the foreign file (relative to its `.forge/`) and its bytes; a PR also has its patch. */
  rel?: string;
  bytes?: Buffer;
  patch?: Buffer;
  /** For folder entities and their records: under `archive/`. */
  archived?: boolean;
  /** For comments and reviews: the owning entity's id. */
  parent?: string;
  /** For labels and milestones: the validated item. */
  item?: Record<string, unknown>;
  /** For evidence: the import record, checked by the evidence lane. */
  record?: ImportRecord;
  /** Unknown-field warnings, for stderr. */
  warnings: string[];
}

/** A foreign file that no kind claims: reported, never written. */
export interface Skipped {
  rel: string;
  reason: string;
}

const OWNER = /^(archive\/)?(issues|prs|tasks)\/([^/]+)\/(issue|pr|task)\.md$/;
const RECORD = /^(archive\/)?(issues|prs)\/([^/]+)\/(comments|reviews|edits)\/([^/]+)\.md$/;
const PATCH = /^(archive\/)?prs\/([^/]+)\/patch\.diff$/;
const EVIDENCE = /^evidence\/imports\/([A-Za-z0-9][A-Za-z0-9._-]{0,200}\.json)$/;
const PACK = /^evidence\/imports\/(pack-[0-9a-f]{64}\.json)$/;
const MAX_EVIDENCE = 16 * 1024 * 1024;
const FILE_OF: Record<string, string> = { issues: "issue", prs: "pr", tasks: "task" };
const SCHEMA_OF: Record<string, EntitySchema> = { issues: ISSUE, prs: PR, tasks: TASK };

/**
 * Classify and validate every file of a foreign store.
 * @returns the entities (sorted by kind order, then id) and the files skipped
 * @throws InvalidFileError naming the first invalid file (`<label>/<path>`) and field
 */
export async function readIncoming(f: Foreign): Promise<{ entities: Incoming[]; skipped: Skipped[] }> {
  const name = (rel: string): string => `${f.label}/${rel}`;
  const entities: Incoming[] = [];
  const skipped: Skipped[] = [];
  const owners = new Set<string>();
  const packed: Incoming[] = [];
  for (const rel of f.files.keys()) {
    const m = OWNER.exec(rel);
    if (m && isUuid(m[3]) && FILE_OF[m[2]!] === m[4]) owners.add(`${m[2]}/${m[3]}`);
  }
  for (const [rel, bytes] of f.files) {
    let m: RegExpExecArray | null;
    if ((m = OWNER.exec(rel)) && isUuid(m[3]) && FILE_OF[m[2]!] === m[4]) {
      const [, arch, plural, id] = m as unknown as [string, string | undefined, string, string];
      const e = await fm(SCHEMA_OF[plural]!, bytes, name(rel));
      if (e.data.id !== id) throw new InvalidFileError(name(rel), "does not match its folder name", "id");
      const kind = FILE_OF[plural] as Kind;
      const inc: Incoming = { kind, id, rel, bytes, archived: arch !== undefined, warnings: e.warnings };
      if (plural === "prs") {
        const prel = `${arch ?? ""}prs/${id}/patch.diff`;
        const patch = f.files.get(prel);
        if (!patch) throw new InvalidFileError(name(rel), "the PR has no patch.diff");
        if (patch.length > MAX_PATCH_BYTES) throw new InvalidFileError(name(prel), "larger than 64 MiB");
        if (patchSha256(patch) !== e.data.patchSha256)
          throw new InvalidFileError(name(prel), "does not match the PR's patchSha256");
        inc.patch = patch;
      }
      entities.push(inc);
    } else if ((m = RECORD.exec(rel)) && isUuid(m[3]) && isUuid(m[5])) {
      const [, arch, plural, parent, sub, id] = m as unknown as [
        string,
        string | undefined,
        string,
        string,
        string,
        string,
      ];
      // An edit record (edits/<id>.md) moves updatedAt (and a PR's draft state): carried like a comment.
      const kind: Kind =
        sub === "edits"
          ? plural === "issues"
            ? "edit"
            : "pr-edit"
          : plural === "issues"
            ? "comment"
            : sub === "reviews"
              ? "review"
              : "pr-comment";
      if (plural === "issues" && sub === "reviews") {
        skipped.push({ rel, reason: "not a kind forge imports" });
        continue;
      }
      const e = await fm(sub === "reviews" ? PR_REVIEW : sub === "edits" ? EDIT : COMMENT, bytes, name(rel));
      if (e.data.id !== id) throw new InvalidFileError(name(rel), "does not match its file name", "id");
      if (!owners.has(`${plural}/${parent}`))
        throw new InvalidFileError(
          name(rel),
          `its ${plural === "issues" ? "issue" : "pull request"} is not in the store`
        );
      entities.push({ kind, id, rel, bytes, archived: arch !== undefined, parent, warnings: e.warnings });
    } else if ((m = PATCH.exec(rel)) && isUuid(m[2])) {
      if (!owners.has(`prs/${m[2]}`)) throw new InvalidFileError(name(rel), "a patch without its pr.md");
    } else if (rel === "labels.md" || rel === "milestones.md") {
      const key = rel === "labels.md" ? "labels" : "milestones";
      const e = await fm(key === "labels" ? LABELS : MILESTONES, bytes, name(rel));
      const field = key === "labels" ? "name" : "title";
      const seen = new Set<string>();
      for (const item of e.data[key] as Array<Record<string, unknown>>) {
        const n = String(item[field]);
        if (seen.has(n.toLowerCase()))
          throw new InvalidFileError(name(rel), `'${n.slice(0, 40)}' is defined twice`, key);
        seen.add(n.toLowerCase());
        entities.push({ kind: key === "labels" ? "label" : "milestone", id: n, item, warnings: [] });
      }
      entities.at(-1)?.warnings.push(...e.warnings);
    } else if (rel.startsWith("wiki/") && isWikiPagePath(rel.slice(5))) {
      const text = utf8(bytes, name(rel));
      if (bytes.length > 256 * 1024) throw new InvalidFileError(name(rel), "larger than 256 KiB");
      if (text.startsWith("---")) await parseFrontmatter(text, name(rel));
      entities.push({ kind: "wiki", id: rel.slice(5), rel, bytes, warnings: [] });
    } else if ((m = /^releases\/([^/]+)\.md$/.exec(rel)) && isReleaseTag(m[1]!)) {
      const e = await fm(RELEASE, bytes, name(rel));
      if (e.data.tagName !== m[1]) throw new InvalidFileError(name(rel), "does not match its file name", "tagName");
      entities.push({ kind: "release", id: m[1]!, rel, bytes, warnings: e.warnings });
    } else if ((m = /^merges\/(imports\/)?([^/]+)\.md$/.exec(rel)) && isUuid(m[2])) {
      const e = await fm(m[1] ? IMPORT_RECORD : MERGE_RECORD, bytes, name(rel));
      if (e.data.id !== m[2]) throw new InvalidFileError(name(rel), "does not match its file name", "id");
      entities.push({ kind: m[1] ? "import-record" : "merge", id: m[2]!, rel, bytes, warnings: e.warnings });
    } else if ((m = PACK.exec(rel))) {
      const { checkImportPack } = await import("@forge/evidence");
      for (const record of checkImportPack(bytes, name(rel), m[1]!))
        packed.push({ kind: "evidence", id: `${record.batch_id}.json`, rel, record, warnings: [] });
    } else if ((m = EVIDENCE.exec(rel))) {
      if (bytes.length > MAX_EVIDENCE) throw new InvalidFileError(name(rel), "larger than 16 MiB");
      let v: unknown;
      try {
        v = JSON.parse(utf8(bytes, name(rel)));
      } catch (err) {
        if (err instanceof InvalidFileError) throw err;
        throw new InvalidFileError(name(rel), "not valid JSON");
      }
      if (v === null || typeof v !== "object" || Array.isArray(v))
        throw new InvalidFileError(name(rel), "not a JSON object");
      // Loaded only for a store that has evidence (the lane brings the kernel with it).
      const { checkImportRecord } = await import("@forge/evidence");
      const record = checkImportRecord(v, name(rel), m[1]!);
      entities.push({ kind: "evidence", id: m[1]!, rel, bytes, record, warnings: [] });
    } else if (rel !== ".gitignore" && rel !== "version") {
      skipped.push({
        rel,
        reason:
          /^(ci|releases\/build|loops)\//.test(rel) || rel === "ci"
            ? "code and settings are not imported"
            : "not a kind forge imports",
      });
    }
  }
  // A batch both loose and packed there (a pack interrupted before it removed its parts), or in two packs: once.
  const have = new Set(entities.filter((e) => e.kind === "evidence").map((e) => e.record!.batch_id));
  for (const e of packed) if (!have.has(e.record!.batch_id)) (have.add(e.record!.batch_id), entities.push(e));
  const rank = (k: Kind): number => KINDS.indexOf(k);
  entities.sort((a, b) => rank(a.kind) - rank(b.kind) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  skipped.sort((a, b) => (a.rel < b.rel ? -1 : 1));
  return { entities, skipped };
}

/**
 * Parse and validate one frontmatter file (SEC-01 limits, strict schema).
 * @throws InvalidFileError naming the file and field
 */
export async function fm(
  schema: EntitySchema,
  bytes: Buffer,
  file: string
): Promise<{ data: Record<string, unknown>; extra: Record<string, unknown>; body: string; warnings: string[] }> {
  if (bytes.length > 256 * 1024) throw new InvalidFileError(file, "larger than 256 KiB");
  const parsed = await parseFrontmatter(utf8(bytes, file), file);
  const v = validate(schema, parsed.data, file);
  return { data: v.data, extra: v.extra, body: parsed.body, warnings: v.warnings };
}

function utf8(bytes: Buffer, file: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new InvalidFileError(file, "not valid UTF-8");
  }
}
