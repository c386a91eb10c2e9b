/**
 * Activation targets: a folder `DIR` with the installed releases under
 * `DIR/releases/<tag>/` and `DIR/current`, a symlink to `releases/<tag>`.
 * `current` is only ever replaced by renaming a new symlink over it
 * (rename(2) is atomic), so a reader or a kill at any moment sees the old
 * release or the new one, never a missing or half-made link. Installing
 * copies into a temp folder beside the final one and renames it into place.
 * Every activation and rollback is recorded in
 * `.forge/releases/activations/<id>.md`, first as `pending` (before
 * `current` moves), then with its outcome. Each is a transaction: a record
 * a kill left `pending` is reconciled by the next activate or rollback on
 * the target (`reconcilePending` in _switch.ts) to `active` or `aborted`.
 */
import { randomBytes } from "node:crypto";
import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  symlinkSync,
  unlinkSync,
} from "node:fs";
import { dirname, join, sep } from "node:path";
import {
  atomicWrite,
  displayPath,
  ForgeError,
  formatFrontmatter,
  formatTimestamp,
  holdLock,
  isReleaseTag,
  lexists,
  loadFile,
  mkdirInside,
  releasesDir,
  toFrontmatter,
  validate,
  type EntitySchema,
  type Store,
} from "@forge/core";
import { checkAssets, type RecordedAsset } from "./_identity.js";

/** `.forge/releases/activations/<id>.md`: one activation or rollback. */
export const ACTIVATION: EntitySchema = {
  kind: "activation",
  fields: [
    { name: "id", type: { t: "string" }, required: true },
    { name: "action", type: { t: "enum", values: ["activate", "rollback"] }, required: true },
    { name: "tag", type: { t: "string" }, required: true },
    { name: "previous", type: { t: "string" } },
    { name: "dir", type: { t: "string" }, required: true },
    { name: "outcome", type: { t: "enum", values: ["pending", "active", "check-failed", "aborted"] }, required: true },
    { name: "check", type: { t: "text" } },
    { name: "checkExit", type: { t: "int" } },
    { name: "checkSignal", type: { t: "string" } },
    { name: "author", type: { t: "string" }, required: true },
    { name: "createdAt", type: { t: "timestamp" }, required: true },
    { name: "reconciledAt", type: { t: "timestamp" } },
  ],
};

/** `--json` fields of activate and rollback. */
export const ACTIVATION_FIELDS: readonly string[] = [
  "action",
  "check",
  "checkExit",
  "createdAt",
  "dir",
  "id",
  "outcome",
  "previous",
  "record",
  "tag",
];

/** An activation record, as `--json` shows it. */
export interface ActivationJson {
  action: "activate" | "rollback";
  check: string | null;
  checkExit: number | null;
  createdAt: string;
  dir: string;
  id: string;
  outcome: "pending" | "active" | "check-failed" | "aborted";
  previous: string | null;
  /** The record file, relative to the repository. */
  record: string;
  tag: string;
}

/** An activation target folder. */
export class Target {
  /** The realpath of DIR. */
  readonly dir: string;
  /**
   * @param dir the folder (made when `create`)
   * @throws ForgeError when it does not exist and is not to be made
   */
  constructor(dir: string, create: boolean) {
    if (create) mkdirSync(join(dir, "releases"), { recursive: true });
    try {
      this.dir = realpathSync(dir);
    } catch {
      throw new ForgeError(`--to ${dir}: no such folder`, "E_TARGET", 1);
    }
  }
  get current(): string {
    return join(this.dir, "current");
  }
  installed(tag: string): string {
    return join(this.dir, "releases", tag);
  }
  /**
   * The tag `current` points at, or undefined when there is none.
   * @throws ForgeError when `current` is something else than forge's symlink
   */
  currentTag(): string | undefined {
    let link: string;
    try {
      link = readlinkSync(this.current);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return undefined;
      if (code === "EINVAL")
        throw new ForgeError(`${this.current} is not a symlink (refused; move it away)`, "E_TARGET", 1);
      throw err;
    }
    const m = /^releases\/(.+)$/.exec(link);
    if (!m || !isReleaseTag(m[1]!))
      throw new ForgeError(
        `${this.current} points at '${link.slice(0, 80)}', not releases/<tag> (refused)`,
        "E_TARGET",
        1
      );
    return m[1]!;
  }
  /**
   * Point `current` at `releases/<tag>` (a new symlink renamed over the old
   * one), or remove it when `tag` is undefined (there was no release before).
   */
  switchTo(tag: string | undefined): void {
    if (tag === undefined) {
      try {
        unlinkSync(this.current);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      }
      return;
    }
    const tmp = join(this.dir, `.current.${process.pid}.${randomBytes(4).toString("hex")}`);
    symlinkSync(`releases/${tag}`, tmp);
    renameSync(tmp, this.current);
  }
  /**
   * Install a release's artifacts as `releases/<tag>/`: copied from `from`
   * into a temp folder beside it, then renamed into place. An installed
   * folder that is already there must hold the same artifacts (it is never
   * overwritten).
   * @throws ForgeError (E_VERIFY) when the installed copy differs
   */
  install(tag: string, assets: readonly RecordedAsset[], from: string): "installed" | "present" {
    const dest = this.installed(tag);
    if (lexists(dest)) {
      this.checkInstalled(tag, assets);
      return "present";
    }
    const tmp = join(this.dir, "releases", `.${tag}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`);
    mkdirSync(tmp);
    for (const a of assets) {
      const to = join(tmp, ...a.name.split("/"));
      mkdirSync(dirname(to), { recursive: true });
      copyFileSync(join(from, ...a.name.split("/")), to);
    }
    checkAssets(tag, assets, tmp, `${tmp}/`, { test: () => true, name: this.dir });
    renameSync(tmp, dest);
    return "installed";
  }
  /** @throws ForgeError (E_VERIFY) when `releases/<tag>/` is missing or differs from the release */
  checkInstalled(tag: string, assets: readonly RecordedAsset[]): void {
    const dest = this.installed(tag);
    const shown = `${dest}/`;
    if (!lexists(dest)) throw new ForgeError(`${tag}: not installed in ${this.dir} (no ${shown})`, "E_VERIFY", 1);
    checkAssets(tag, assets, dest, shown, {
      test: (real) => real === dest || real.startsWith(dest + sep),
      name: shown,
    });
  }
  /**
   * Hold the target's lock while `fn` runs: one activation or rollback at a
   * time. A lock whose process is gone (a kill during an earlier
   * activation) is taken over, silently; a live one is never broken, however
   * long the activation's check runs (core's lock, `staleMs: Infinity`).
   * @throws ConflictError when another live process holds it
   */
  async locked<T>(fn: () => Promise<T>): Promise<T> {
    const lock = join(this.dir, ".forge-release.lock");
    const held = holdLock(lock, {
      waitMs: 0,
      staleMs: Infinity,
      pidOnly: true,
      onBreak: () => undefined,
      busy: (pid) => `another activation${pid === undefined ? "" : ` (pid ${pid})`} holds ${lock}`,
    });
    try {
      return await fn();
    } finally {
      held.release();
    }
  }
}

/** The activation records' folder. */
export function activationsDir(store: Store): string {
  return join(releasesDir(store), "activations");
}

/** A new record id: sorts after every earlier one (time to the millisecond, then random). */
export function newActivationId(now = new Date()): string {
  return now.toISOString().replace(/[-:.]/g, "") + "-" + randomBytes(4).toString("hex");
}

/** Write (or rewrite) a record, atomically; returns it as JSON. */
export function writeActivation(store: Store, rec: Omit<ActivationJson, "record">, author: string): ActivationJson {
  const dir = mkdirInside(store, activationsDir(store));
  const file = join(dir, `${rec.id}.md`);
  const data: Record<string, unknown> = { ...rec, author };
  for (const k of Object.keys(data)) if (data[k] === null) delete data[k];
  const shown = displayPath(store, join(activationsDir(store), `${rec.id}.md`));
  const checked = validate(ACTIVATION, data, shown).data;
  atomicWrite(file, formatFrontmatter(toFrontmatter(ACTIVATION, checked), ""));
  return { ...rec, record: shown };
}

/**
 * Rewrite a record's outcome (its other fields as written), stamped with
 * `reconciledAt`: how an interrupted transaction is closed.
 */
export async function closeActivation(
  store: Store,
  rec: ActivationJson,
  outcome: "active" | "aborted"
): Promise<ActivationJson> {
  const file = join(activationsDir(store), `${rec.id}.md`);
  const data = { ...(await loadFile(store, ACTIVATION, file)).data, outcome, reconciledAt: nowStamp() };
  const checked = validate(ACTIVATION, data, rec.record).data;
  atomicWrite(file, formatFrontmatter(toFrontmatter(ACTIVATION, checked), ""));
  return { ...rec, outcome };
}

/** Every record for the target `dir` (a realpath), oldest first. Unreadable records are skipped. */
export async function activationsOf(store: Store, dir: string): Promise<ActivationJson[]> {
  let names: string[];
  try {
    names = readdirSync(activationsDir(store))
      .filter((n) => /^[0-9TZ]+-[0-9a-f]{8}\.md$/.test(n))
      .sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  const out: ActivationJson[] = [];
  for (const n of names) {
    const path = join(activationsDir(store), n);
    try {
      const d = (await loadFile(store, ACTIVATION, path)).data;
      if (d.dir !== dir) continue;
      out.push({
        action: d.action as ActivationJson["action"],
        check: (d.check as string | undefined) ?? null,
        checkExit: (d.checkExit as number | undefined) ?? null,
        createdAt: d.createdAt as string,
        dir,
        id: d.id as string,
        outcome: d.outcome as ActivationJson["outcome"],
        previous: (d.previous as string | undefined) ?? null,
        record: displayPath(store, path),
        tag: d.tag as string,
      });
    } catch {
      continue;
    }
  }
  return out;
}

/** The timestamp a record carries. */
export function nowStamp(): string {
  return formatTimestamp();
}
