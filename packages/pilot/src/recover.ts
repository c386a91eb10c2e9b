/**
 * The pick-up after a kill: remove the worktrees of acts that are gone
 * (their scratch folder names the pid), finish their in-progress CI runs as
 * cancelled, and send every completed CI run through the lane (idempotent):
 * a trial that finished before the kill is never lost.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pidAlive } from "@forge/core";
import type { CiRun } from "./_lines.js";
import { exportText, type Exported, type Lane } from "./lane.js";
import { asJsonLines, parseLines, type Tools } from "./tools.js";

/** What the pick-up did (the report's `recovered`). */
export interface Recovered {
  worktrees_removed: number;
  runs_cancelled: number;
  exports: number;
  imports: number;
  failed?: string | null | undefined;
}

/**
 * Whether an act's owner file names a pid that is gone. A file another act
 * is writing or has just removed (every forge-act on the machine keeps its
 * scratch folder in the same tmp folder) is not ours to clean.
 */
function ownerGone(file: string): boolean {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return false;
  }
  const m = /^([1-9][0-9]*)\n$/.exec(text);
  return m !== null && !pidAlive(Number(m[1]));
}

/** Pick up after a kill (see the module's comment). */
export async function recover(
  tools: Tools,
  scope: string,
  lane: Lane | null = null,
  sent: Set<string> = new Set()
): Promise<Recovered> {
  const wt = await tools.run("git", ["worktree", "list", "--porcelain"]);
  let removed = 0;
  for (const l of wt.stdout.split("\n")) {
    if (!l.startsWith("worktree ")) continue;
    const dir = l.slice(9);
    const owner = join(dirname(dir), "forge-act.pid");
    if (!existsSync(owner) || !ownerGone(owner)) continue;
    await tools.run("git", ["worktree", "remove", "--force", "--force", dir]);
    rmSync(dirname(dir), { recursive: true, force: true });
    removed++;
  }
  // Scratch folders of acts that are gone, whatever step of their clean-up the kill interrupted; then git forgets
  // missing worktrees.
  for (const n of readdirSync(tmpdir())) {
    const owner = join(tmpdir(), n, "forge-act.pid");
    if (!n.startsWith("forge-") || !existsSync(owner) || !ownerGone(owner)) continue;
    rmSync(join(tmpdir(), n), { recursive: true, force: true });
    removed++;
  }
  await tools.run("git", ["worktree", "prune"]);
  const inProgress = ["list", "--status", "in_progress", "--limit", "100000", "--json", "id,displayTitle"];
  const stale = await tools.lines<CiRun>("forge-ci", inProgress);
  for (const r of stale) {
    if (String(r.displayTitle).startsWith("forge-act ")) await tools.run("forge-ci", ["cancel", r.id]);
  }
  const all = await tools.run("forge-ci", ["list", "--limit", "100000", "--json"]);
  const text = asJsonLines(all.stdout);
  const ex: Exported = await exportText(tools, scope, text, lane);
  // The completed runs sent: an act's export, which takes every completed run since its start to the second, sends
  // none of them again (one the same second as the act's start was counted twice, by the clock).
  for (const r of parseLines<CiRun>(text)) if (r.status === "completed") sent.add(r.id);
  return { worktrees_removed: removed, runs_cancelled: stale.length, ...ex };
}
