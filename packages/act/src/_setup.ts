/**
 * Setup once per worktree: the trials of one forge-act process (every plan
 * on its stdin) that target a step of the same tree (commit, patch, step
 * files) share one worktree. The steps before the first target run there
 * once (its setup), then each trial runs only its target: a run that starts
 * at the target, the steps before it recorded `skipped`, and every run made
 * in that worktree carries the same `setupId` in its record. A later target
 * further down runs only the steps between (its setup grows in place); one
 * further up reuses the tree as its later steps left it. A setup step that
 * could not finish (timed out, cancelled, exit 126/127) retires the
 * worktree: the next trial starts a fresh one. `--independent-trials` (no
 * pool) gives every trial a fresh worktree and its whole setup, for checks
 * whose setup is the suspect. With a pool folder (`FORGE_ACT_SETUPS`, which
 * forge-pilot sets for its run), the worktrees are kept there when the
 * process ends and taken by the next forge-act (runner's kept_trees.ts):
 * a pilot run's acts share their setups, keyed as here (commit, patch,
 * the steps' and ci.env's digest, which names the cache's settings; the
 * cache key follows from the tree's lockfile).
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { atomicWrite } from "@forge/core";
import {
  checkedPosture,
  keepTree,
  openTree,
  runStepsIn,
  takeKeptTrees,
  type OpenTree,
  type Posture,
} from "@forge/runner";
import { rmSync } from "node:fs";
import { OWNER_FILE, stepsRequest, type TrialRequest } from "./_runner.js";
import type { CiRunJson } from "@forge/runner";

/** The most worktrees kept open at once (the least recently used idle one is closed first). */
export const MAX_OPEN_TREES = 4;

interface Prepared {
  key: string;
  tree: OpenTree;
  setupId: string;
  /** The index of the last step that ran in this tree (-1: none). */
  ranThrough: number;
  busy: boolean;
  usedAt: number;
}

/** The worktrees of one forge-act process, each with the steps that ran in it. */
export class SharedSetups {
  private readonly trees: Prepared[] = [];
  private clock = 0;
  /** The pool files this process took (undefined: not looked at yet). */
  private claims: string[] | undefined;

  /** @param pool the folder where worktrees are kept from one process to the next, if any */
  constructor(
    private readonly max = MAX_OPEN_TREES,
    private readonly pool?: string
  ) {}

  /**
   * One trial of `req.until` in a prepared worktree of its tree (made, with its setup, when there is none).
   * @returns the run, or why the tree could not be made (the harness's failure)
   */
  async trial(req: TrialRequest & { until: string }): Promise<{ run: CiRunJson } | { error: string }> {
    const p: Posture = await checkedPosture(req.store, req.top, req.env, undefined, false);
    const k = p.steps.findIndex((s) => s.name === req.until);
    const key = `${req.headSha}:${req.patchSha256 ?? "-"}:${p.envSha256}`;
    if (this.claims === undefined) this.take(req.top);
    let t = this.trees.find((x) => x.key === key && !x.busy);
    if (!t) {
      let tree: OpenTree;
      try {
        tree = await openTree(req.top, req.headSha, req.patch, {
          mark: (tmp) => atomicWrite(join(tmp, OWNER_FILE), `${process.pid}\n`),
        });
      } catch (err) {
        const e = err as { code?: unknown; message?: unknown };
        if (e.code === "E_PATCH_FAILED" || e.code === "E_WORKTREE") return { error: String(e.message) };
        throw err;
      }
      t = { key, tree, setupId: randomBytes(12).toString("hex"), ranThrough: -1, busy: true, usedAt: ++this.clock };
      this.trees.push(t);
      await this.evict();
    }
    t.busy = true;
    t.usedAt = ++this.clock;
    try {
      // The steps between what already ran here and the target; none when the target's setup is all done.
      const start = k < 0 ? 0 : Math.min(t.ranThrough + 1, k);
      const run = await runStepsIn(t.tree.dir, {
        ...stepsRequest(req),
        from: start > 0 ? p.steps[start]!.name : undefined,
        setupId: t.setupId,
        posture: p,
      });
      const broken = run.steps.some(
        (s) =>
          s.name !== req.until &&
          (s.outcome === "timeout" || s.outcome === "cancelled" || s.exitCode === 126 || s.exitCode === 127)
      );
      if (broken || run.verdict === "cancelled") await this.retire(t);
      else t.ranThrough = Math.max(t.ranThrough, k);
      return { run };
    } catch (err) {
      await this.retire(t);
      throw err;
    } finally {
      t.busy = false;
    }
  }

  /** Close every worktree, or leave the most recently used (at most `max`) in the pool for the next process. */
  async close(): Promise<void> {
    const all = this.trees.splice(0).sort((a, b) => b.usedAt - a.usedAt);
    const closing: OpenTree[] = [];
    for (const [i, t] of all.entries()) {
      if (!this.pool || t.busy || i >= this.max) {
        closing.push(t.tree);
        continue;
      }
      const { dir, commit, tree } = t.tree;
      try {
        keepTree(this.pool, { key: t.key, dir, commit, tree, setupId: t.setupId, ranThrough: t.ranThrough });
      } catch {
        // The pool is gone (its run ended): nobody would take it.
        closing.push(t.tree);
      }
    }
    for (const c of this.claims ?? []) rmSync(c, { force: true });
    await Promise.all(closing.map((t) => t.close()));
  }

  /** The worktrees a process before this one kept in the pool, as this one's own. */
  private take(top: string): void {
    this.claims = [];
    if (!this.pool) return;
    for (const k of takeKeptTrees(this.pool, top)) {
      this.claims.push(k.claim);
      const { key, setupId, ranThrough } = k.kept;
      this.trees.push({ key, tree: k.open, setupId, ranThrough, busy: false, usedAt: ++this.clock });
    }
  }

  private async retire(t: Prepared): Promise<void> {
    const i = this.trees.indexOf(t);
    if (i >= 0) this.trees.splice(i, 1);
    await t.tree.close();
  }

  private async evict(): Promise<void> {
    while (this.trees.length > this.max) {
      const idle = this.trees.filter((x) => !x.busy).sort((a, b) => a.usedAt - b.usedAt)[0];
      if (!idle) return;
      await this.retire(idle);
    }
  }
}

/**
 * One worktree reused by a run of trials of the same tree (a paired experiment's side): made for the first,
 * reset (git checkout/read-tree/clean, in this worktree only) before each next, so every trial starts from the
 * tree as made; closed with `close()`. A tree that cannot be made or reset is the trial's error, as runTrial's.
 */
export class ReusedTree {
  private tree: OpenTree | null = null;

  async trial(req: TrialRequest): Promise<{ run: CiRunJson } | { error: string }> {
    try {
      if (this.tree) await this.tree.reset();
      else
        this.tree = await openTree(req.top, req.headSha, req.patch, {
          mark: (tmp) => atomicWrite(join(tmp, OWNER_FILE), `${process.pid}\n`),
        });
    } catch (err) {
      const e = err as { code?: unknown; message?: unknown };
      if (e.code === "E_PATCH_FAILED" || e.code === "E_WORKTREE") {
        await this.close();
        return { error: String(e.message) };
      }
      throw err;
    }
    try {
      return { run: await runStepsIn(this.tree.dir, stepsRequest(req)) };
    } catch (err) {
      await this.close();
      throw err;
    }
  }

  /** Remove the worktree (if one was made). */
  async close(): Promise<void> {
    const t = this.tree;
    this.tree = null;
    await t?.close();
  }
}
