/**
 * The run's export lane: one forge-export for the whole loop, kept open.
 * Its start-up, its read of the import log and its compile of the fold are
 * done once, while the pick-up runs, at a lower CPU priority (nice 10:
 * observe | plan is the iteration's critical path), not again in every
 * iteration beside observe and plan. It answers each line it is sent
 * (an import-log line on stdout, or a `stdin line N:` line on stderr), with
 * forge-observe's kernel view kept current before it answers (spec/evidence.md
 * §6), so the next observation reads it.
 */
import { setPriority } from "node:os";
import type { ExportAnswer } from "./_lines.js";
import { failure, parseLines, type Tools } from "./tools.js";

/** The export lane's niceness. */
const LANE_NICE = 10;

/**
 * How long the lane may take to answer a batch before it is given up
 * (killed) and the batch sent through a forge-export of its own.
 */
const LANE_ANSWER_MS = 300_000;

/**
 * A batch's answers: import-log lines, and the `stdin line N:` errors.
 * `partial`: the lane died or went silent first.
 */
export interface Answers {
  out: string[];
  err: string[];
  partial?: true;
}

/** The run's export lane. */
export interface Lane {
  /** Whether it died (a signal, a crash): the loop opens another. */
  readonly dead: boolean;
  /** Send a batch of `n` lines; its answers, or null when the lane was dead already. */
  send(text: string, n: number): Promise<Answers | null>;
  /** End its stdin and wait for it to exit. */
  close(): Promise<unknown>;
}

/** How much an export sent, how many were new imports, and the last failure it reported. */
export interface Exported {
  exports: number;
  imports: number;
  failed?: string | null | undefined;
}

/**
 * Open the lane: a forge-export of the scope at niceness 10. `send` resolves
 * with a batch's answers, `partial` when the lane died or went silent before
 * it answered them all. Closed whatever happens.
 */
export function openLane(tools: Tools, scope: string): Lane {
  const lane = tools.start("forge-export", ["--scope", scope]);
  try {
    if (lane.child.pid !== undefined) setPriority(lane.child.pid, LANE_NICE);
  } catch {
    // gone already, or not ours to lower: it runs as it is
  }
  const got: Answers = { out: [], err: [] };
  const rest = { out: "", err: "" };
  let wake = (): void => undefined;
  let dead = false;
  const feed =
    (k: "out" | "err") =>
    (d: Buffer): void => {
      rest[k] += d.toString("utf8");
      for (let nl = rest[k].indexOf("\n"); nl >= 0; nl = rest[k].indexOf("\n")) {
        const line = rest[k].slice(0, nl);
        rest[k] = rest[k].slice(nl + 1);
        if (k === "out" ? line.trim() !== "" : /^forge-export: stdin line [0-9]+:/.test(line)) got[k].push(line);
      }
      wake();
    };
  lane.child.stdout.on("data", feed("out"));
  lane.child.stderr.on("data", feed("err"));
  void lane.done.then(() => {
    dead = true;
    wake();
  });
  return {
    get dead() {
      return dead;
    },
    async send(text, n) {
      if (dead) return null;
      lane.child.stdin.write(text);
      const until = Date.now() + LANE_ANSWER_MS;
      while (got.out.length + got.err.length < n && !dead && Date.now() < until) {
        await new Promise<void>((res) => {
          const t = setTimeout(res, until - Date.now());
          wake = () => {
            clearTimeout(t);
            res();
          };
        });
      }
      wake = () => undefined;
      const answers: Answers = { out: got.out.splice(0), err: got.err.splice(0) };
      // Dead, or silent: the batch goes through a forge-export of its own (a re-export is a no-op), after what
      // this one answered.
      if (answers.out.length + answers.err.length < n) {
        lane.child.kill("SIGTERM");
        return { ...answers, partial: true };
      }
      return answers;
    },
    close() {
      lane.child.stdin.end();
      return lane.done;
    },
  };
}

/**
 * Send JSON lines through forge-export: through the run's lane, which
 * answers them; without one, or when it died, a forge-export of their own
 * (a re-export is a no-op).
 */
export async function exportText(
  tools: Tools,
  scope: string,
  text: string,
  lane: Lane | null = null
): Promise<Exported> {
  const n = text.split("\n").filter((l) => l.trim() !== "").length;
  if (n === 0) return { exports: 0, imports: 0 };
  const a = lane ? await lane.send(text, n) : null;
  const imported = (ls: string[]): number =>
    ls.filter((l) => (JSON.parse(l) as ExportAnswer).status === "imported").length;
  if (a && !a.partial) {
    // A note (a run not completed, a merge that wrote no record: "skipped, not evidence") is no failure.
    const failed = a.err.filter((l) => !l.endsWith(": skipped, not evidence")).at(-1) ?? null;
    return { exports: a.out.length, imports: imported(a.out), failed };
  }
  const r = await tools.run("forge-export", ["--scope", scope], text);
  if (r.code !== 0 && r.code !== 1) throw failure("forge-export", r);
  const recs = parseLines<ExportAnswer>(r.stdout);
  // What a lane that died imported before it did is "already imported" now: counted as its imports.
  const before = a ? imported(a.out) : 0;
  const failed = r.code !== 0 ? r.stderr.trim().split("\n").pop() : null;
  return { exports: recs.length, imports: before + recs.filter((e) => e.status === "imported").length, failed };
}
