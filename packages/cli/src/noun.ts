/**
 * The noun layer issue, pr and task share: a store of one kind with its
 * ranked order and ref resolution, label/milestone definitions and the web
 * address for `url`, the walk behind view / close / reopen / comment /
 * edit / archive (every ref, or every record on stdin, one confirmation on
 * stderr each), the list filters every noun has, and the renderers of a
 * verb that writes. A new verb or field is written here once.
 */
import {
  cacheDir,
  dropOrder,
  entityOrder,
  loadEntity,
  loadLabelDefs,
  loadMilestoneDefs,
  NotFoundError,
  openStore,
  repoWebUrl,
  resolveRef,
  sameName,
  staleRank,
  type EntitySchema,
  type IssueContext,
  type KindLayout,
  type LoadedEntity,
  type Order,
  type Store,
} from "@forge/core";
import { eachRef, type Batch } from "./batch.js";
import { useColor, type Io } from "./io.js";
import type { Ctx } from "./main.js";
import type { RenderOptions } from "./output.js";

/** One kind's store: its order (numbers), refs, definitions. */
export class NounStore {
  readonly store: Store;
  readonly cwd: string;
  readonly kind: KindLayout;
  readonly schema: EntitySchema;
  /** How messages name one (`issue`, `pull request`, `task`). */
  readonly noun: string;
  #order: Order | undefined;
  #defs: IssueContext | undefined;
  constructor(io: Io, kind: KindLayout, schema: EntitySchema, noun: string) {
    this.store = openStore({ cwd: io.cwd, env: io.env });
    this.cwd = io.cwd;
    this.kind = kind;
    this.schema = schema;
    this.noun = noun;
  }
  /** The ranked entities (number = index + 1) with the ones that could not be ranked. */
  async ranked(): Promise<Order> {
    return (this.#order ??= await entityOrder(this.store, this.kind, this.schema));
  }
  /**
   * Resolve a ref (number, `#n`, id, prefix) and load the entity. An id of
   * an unreadable file gets that file's error, not "no … matches".
   */
  async resolve(ref: string): Promise<{ entity: LoadedEntity; number: number }> {
    const order = await this.ranked();
    const r = resolveRef(order, ref, this.noun, order.errors);
    let entity: LoadedEntity;
    try {
      entity = await loadEntity(this.store, this.kind, this.schema, r.ref);
    } catch (err) {
      // Ranked, yet its file is gone: the order is wrong (the next reader ranks every file again).
      if (err instanceof NotFoundError) dropOrder(this.store, this.kind);
      throw err;
    }
    // Ranked by another createdAt than its file's (edited since): its number, and maybe others', is wrong. Nothing is
    // done with it.
    const stale = staleRank(this.store, this.kind, entity, order.at(r.number - 1)?.createdAt, r.number);
    if (stale) throw stale;
    return { entity, number: r.number };
  }
  /** Label and milestone definitions, and the web address `url` fields are built from. */
  async defs(): Promise<IssueContext> {
    return (this.#defs ??= {
      labels: await loadLabelDefs(this.store),
      milestones: await loadMilestoneDefs(this.store),
      baseUrl: await repoWebUrl(this.store.root, this.store.root, cacheDir(this.store)),
    });
  }
}

/** A confirmation line for stderr (gh prints these there, never on stdout): `✓ Closed issue #3 (title)`. */
export function confirmWrite(
  ctx: Ctx,
  verb: string,
  noun: string,
  rec: { number: number; title: string },
  tail = ""
): void {
  const tick = useColor(ctx.io) ? "\x1b[32m✓\x1b[0m " : "";
  ctx.io.stderr.write(`${tick}${verb} ${noun} #${rec.number} (${rec.title})${tail}\n`);
}

/** Render options of a verb that writes: records only with --json/--jq (the confirmation went to stderr). */
export function writtenRenderOf<R>(render: RenderOptions<R>): RenderOptions<R> {
  return { ...render, row: undefined, text: undefined };
}

/** What a state change (close / reopen) of one noun needs. */
export interface StateChange<J> {
  /** The target state as stored (`closed`, `open`). */
  to: string;
  /** The confirmation's verb (`Closed`). */
  verb: string;
  /** Refuse a change (throw), e.g. a merged PR. */
  refuse?: (e: LoadedEntity, number: number) => void;
  /** Add the comment the verb was given, before the change. */
  comment?: (e: LoadedEntity) => void;
  /** Write the change; returns the entity as written. */
  apply: (e: LoadedEntity) => LoadedEntity;
  json: (e: LoadedEntity, number: number) => Promise<J>;
}

/**
 * close / reopen for any noun: each ref (or record on stdin) is resolved,
 * refused when the noun says so, left alone with a note when it is already
 * in the target state, else commented on (when asked), changed and confirmed.
 */
export async function* changeStateEach<J extends { number: number; title: string }>(
  ctx: Ctx,
  nouns: NounStore,
  ref: string,
  batch: Batch,
  c: StateChange<J>
): AsyncGenerator<J> {
  yield* eachRef(ctx, ref, batch, async (r) => {
    const { entity, number } = await nouns.resolve(r);
    c.refuse?.(entity, number);
    if (entity.data.state === c.to) {
      const rec = await c.json(entity, number);
      ctx.io.stderr.write(
        `! ${nouns.noun[0]!.toUpperCase()}${nouns.noun.slice(1)} #${number} (${rec.title}) is already ${c.to}\n`
      );
      return rec;
    }
    c.comment?.(entity);
    const rec = await c.json(c.apply(entity), number);
    confirmWrite(ctx, c.verb, nouns.noun, rec);
    return rec;
  });
}

/**
 * Any write verb over refs (comment, edit, archive): resolve each, `write`
 * it, confirm with `verb`.
 */
export async function* writeEach<J extends { number: number; title: string }>(
  ctx: Ctx,
  nouns: NounStore,
  ref: string,
  batch: Batch,
  verb: string,
  write: (e: LoadedEntity, number: number) => Promise<J>
): AsyncGenerator<J> {
  yield* eachRef(ctx, ref, batch, async (r) => {
    const { entity, number } = await nouns.resolve(r);
    const rec = await write(entity, number);
    confirmWrite(ctx, verb, nouns.noun, rec);
    return rec;
  });
}

/** The list filters every noun has (gh's `--label --assignee --author --milestone`), `@me` already expanded. */
export interface ListFilters {
  labels: readonly string[];
  assignee?: string;
  author?: string;
  milestone?: string;
}

/**
 * Whether a loaded entity passes the common list filters: names ignoring case, as gh's do (`sameName`: its list flags
 * are search qualifiers, or GitHub's filters over logins).
 */
export function passesFilters(d: Record<string, unknown>, f: ListFilters): boolean {
  const has = (xs: unknown, v: string): boolean =>
    ((xs as string[] | undefined) ?? []).some((x) => typeof x === "string" && sameName(x, v));
  if (!f.labels.every((l) => has(d.labels, l))) return false;
  if (f.assignee !== undefined && !has(d.assignees, f.assignee)) return false;
  if (f.author !== undefined && !(typeof d.author === "string" && sameName(d.author, f.author))) return false;
  if (f.milestone !== undefined && !(typeof d.milestone === "string" && sameName(d.milestone, f.milestone)))
    return false;
  return true;
}
