/**
 * Issue dependencies and sub-issues (spec/schema.md "Dependencies"): the
 * edges as the owning files keep them (`blockedBy` and `parent` in the
 * blocked issue's and the child's own file), the derived reverse edges
 * (`blocking`, `subIssues`), ready work, and the JSON gh's GraphQL gives
 * them. Pure: the caller reads the files.
 *
 * Ready, as beads' `bd ready` decides it: an issue is blocked when one of
 * its blockers is open, or when its parent is blocked (closed issues never
 * block; a blocked parent blocks its children, whatever its own state);
 * ready is open and not blocked. An archived issue is out of the way, as a
 * deleted one is in beads: it blocks nothing, and nothing is blocked through it.
 */

/** One issue as the graph needs it. */
export interface LinkNode {
  id: string;
  /** Its number (rank + 1); 0 when unknown. */
  number: number;
  title: string;
  open: boolean;
  blockedBy: readonly string[];
  parent?: string | undefined;
  /** Archived (moved out of the way): never blocks, and blocks nothing under it. */
  archived?: boolean;
}

/** An issue as GitHub's GraphQL names a linked one. */
export interface LinkedIssueJson {
  id: string;
  number: number;
  state: "OPEN" | "CLOSED";
  title: string;
  url: string;
}

/** GraphQL's connection shape (`blockedBy { nodes totalCount }`). */
export interface IssueConnectionJson {
  nodes: LinkedIssueJson[];
  totalCount: number;
}

/** The link fields of an issue's `--json`. */
export interface IssueLinksJson {
  blockedBy: IssueConnectionJson;
  blocking: IssueConnectionJson;
  parent: LinkedIssueJson | null;
  subIssues: IssueConnectionJson;
  subIssuesSummary: { completed: number; percentCompleted: number; total: number };
}

/** The `--json` fields an issue has for its links (asked for by name; not in the default set). */
export const ISSUE_LINK_FIELDS: readonly string[] = [
  "blockedBy",
  "blocking",
  "parent",
  "subIssues",
  "subIssuesSummary",
];

/** The graph of every issue's links. */
export class IssueGraph {
  readonly #nodes = new Map<string, LinkNode>();
  readonly #blocking = new Map<string, string[]>();
  readonly #children = new Map<string, string[]>();
  readonly #blocked = new Map<string, boolean>();
  #reversed = false;

  /** @param nodes every issue (archived too: a link may name one) */
  constructor(nodes: Iterable<LinkNode>) {
    for (const n of nodes) this.#nodes.set(n.id, n);
  }

  /** The reverse edges, made on first use (ready work needs none). */
  #reverse(): void {
    if (this.#reversed) return;
    this.#reversed = true;
    for (const n of this.#nodes.values()) {
      for (const b of n.blockedBy) push(this.#blocking, b, n.id);
      if (n.parent !== undefined) push(this.#children, n.parent, n.id);
    }
  }

  /** The issue with this id, if any. */
  node(id: string): LinkNode | undefined {
    return this.#nodes.get(id);
  }

  /** Every issue in the graph. */
  get nodes(): IterableIterator<LinkNode> {
    return this.#nodes.values();
  }

  /** The issues that block `id` (links to missing issues left out: fsck names them). */
  blockers(id: string): LinkNode[] {
    return this.#known(this.#nodes.get(id)?.blockedBy ?? []);
  }

  /** The issues `id` blocks. */
  blocking(id: string): LinkNode[] {
    this.#reverse();
    return this.#known(this.#blocking.get(id) ?? []);
  }

  /** The sub-issues of `id`. */
  children(id: string): LinkNode[] {
    this.#reverse();
    return this.#known(this.#children.get(id) ?? []);
  }

  /**
   * Whether `id` is blocked: an open blocker, or a blocked ancestor. A parent
   * cycle (refused on write; fsck names it) ends the walk, not the program.
   */
  blocked(id: string): boolean {
    const known = this.#blocked.get(id);
    if (known !== undefined) return known;
    // Up the parent chain until an answer, then the memo filled for the chain (a cycle, refused on write and named
    // by fsck, ends the walk unblocked).
    const chain: string[] = [];
    let at: string | undefined = id;
    let answer = false;
    while (at !== undefined) {
      const memo = this.#blocked.get(at);
      if (memo !== undefined) {
        answer = memo;
        break;
      }
      if (chain.length > 0 && chain.includes(at)) break;
      chain.push(at);
      const n = this.#nodes.get(at);
      if (n === undefined || n.archived === true) break;
      if (this.#openBlocker(n)) {
        answer = true;
        break;
      }
      at = n.parent;
    }
    for (const c of chain) this.#blocked.set(c, answer);
    return answer;
  }

  #openBlocker(n: LinkNode): boolean {
    for (const b of n.blockedBy) {
      const x = this.#nodes.get(b);
      if (x !== undefined && x.open && x.archived !== true) return true;
    }
    return false;
  }

  /**
   * Why `id` is blocked: the open blockers of the nearest blocked issue up
   * its parent chain (itself first); empty when it is not blocked.
   */
  blockedBy(id: string): LinkNode[] {
    const seen = new Set<string>();
    for (let at: string | undefined = id; at !== undefined && !seen.has(at); at = this.#nodes.get(at)?.parent) {
      seen.add(at);
      if (this.#nodes.get(at)?.archived === true) return [];
      const open = this.blockers(at).filter((b) => b.open && b.archived !== true);
      if (open.length > 0) return open;
    }
    return [];
  }

  /** Ready work: open, not archived, and not blocked. */
  ready(id: string): boolean {
    const n = this.#nodes.get(id);
    return n !== undefined && n.open && n.archived !== true && !this.blocked(id);
  }

  /**
   * The cycle a new edge would close, as the path of ids it would run along
   * (`from` … `from`), or undefined. Both kinds of edge mean "waits for":
   * an issue waits for its blockers, and for its parent (a blocked parent
   * blocks its children), so a cycle through either kind is a deadlock and
   * is refused. `blockedBy`: `from` becomes blocked by `to`; `parent`: `to`
   * becomes `from`'s parent.
   */
  cycle(_kind: "blockedBy" | "parent", from: string, to: string): string[] | undefined {
    if (from === to) return [from, from];
    // Does `to` (transitively) wait for `from`? Breadth first, so the path named is a shortest one.
    const prev = new Map<string, string>([[to, ""]]);
    const queue = [to];
    for (let q = 0; q < queue.length; q++) {
      const at = queue[q]!;
      const n = this.#nodes.get(at);
      if (n === undefined) continue;
      for (const b of n.parent === undefined ? n.blockedBy : [...n.blockedBy, n.parent]) {
        if (prev.has(b)) continue;
        prev.set(b, at);
        if (b === from) {
          const back: string[] = [];
          for (let x: string = b; x !== ""; x = prev.get(x)!) back.push(x);
          return [from, ...back.reverse()];
        }
        queue.push(b);
      }
    }
    return undefined;
  }

  /**
   * The link fields of an issue, as gh's GraphQL shapes them.
   * @param baseUrl what issue urls start with (`repoWebUrl`; "" leaves them relative)
   */
  json(id: string, baseUrl = ""): IssueLinksJson {
    const one = (n: LinkNode): LinkedIssueJson => ({
      id: n.id,
      number: n.number,
      state: n.open ? "OPEN" : "CLOSED",
      title: n.title,
      url: `${baseUrl}/issues/${n.number}`,
    });
    const conn = (ns: LinkNode[]): IssueConnectionJson => ({
      nodes: ns.sort((a, b) => a.number - b.number).map(one),
      totalCount: ns.length,
    });
    const subs = this.children(id);
    const completed = subs.filter((s) => !s.open).length;
    const parentId = this.#nodes.get(id)?.parent;
    const parent = parentId === undefined ? undefined : this.#nodes.get(parentId);
    return {
      blockedBy: conn(this.blockers(id)),
      blocking: conn(this.blocking(id)),
      parent: parent ? one(parent) : null,
      subIssues: conn(subs),
      subIssuesSummary: {
        completed,
        percentCompleted: subs.length === 0 ? 0 : Math.floor((completed * 100) / subs.length),
        total: subs.length,
      },
    };
  }

  #known(ids: readonly string[]): LinkNode[] {
    const out: LinkNode[] = [];
    for (const i of ids) {
      const n = this.#nodes.get(i);
      if (n) out.push(n);
    }
    return out;
  }
}

/** A node from an issue's frontmatter (as validated) and its number. */
export function linkNodeOf(data: Record<string, unknown>, number: number, archived = false): LinkNode {
  return {
    archived,
    id: data.id as string,
    number,
    title: data.title as string,
    open: data.state !== "closed",
    blockedBy: (data.blockedBy as string[] | undefined) ?? [],
    parent: data.parent as string | undefined,
  };
}

/** A cycle's path as numbers, for a message: `#3 → #5 → #3`. */
export function cyclePath(g: IssueGraph, path: readonly string[]): string {
  return path.map((id) => `#${g.node(id)?.number ?? id.slice(0, 8)}`).join(" → ");
}

function push(m: Map<string, string[]>, k: string, v: string): void {
  const xs = m.get(k);
  if (xs) xs.push(v);
  else m.set(k, [v]);
}
