/**
 * The part activate and rollback share: record `pending`, switch `current`,
 * run the check against it, and on failure switch back and record that.
 */
import { spawn } from "node:child_process";
import type { Store } from "@forge/core";
import type { Ctx } from "@forge/cli";
import {
  closeActivation,
  newActivationId,
  nowStamp,
  writeActivation,
  type ActivationJson,
  type Target,
} from "./_activation.js";

/** What to switch to. */
export interface SwitchPlan {
  action: "activate" | "rollback";
  tag: string;
  /** The tag `current` pointed at before (undefined: none). */
  previous: string | undefined;
  /** The check's argv (none: no check). */
  check: string[] | undefined;
  /** Seconds the check may run. */
  timeout: number;
  author: string;
}

/** The outcome: the final record, and why the check failed (undefined: it passed or there was none). */
export interface Switched {
  record: ActivationJson;
  failure?: string;
}

/**
 * Switch `current` to the plan's tag and check it; a failed check switches
 * back to the previous release. The record is written before `current`
 * moves (`pending`) and rewritten with the outcome after.
 */
export async function switchAndCheck(ctx: Ctx, store: Store, target: Target, plan: SwitchPlan): Promise<Switched> {
  const base: Omit<ActivationJson, "record"> = {
    action: plan.action,
    check: plan.check ? plan.check.join(" ") : null,
    checkExit: null,
    createdAt: nowStamp(),
    dir: target.dir,
    id: newActivationId(),
    outcome: "pending",
    previous: plan.previous ?? null,
    tag: plan.tag,
  };
  writeActivation(store, base, plan.author);
  target.switchTo(plan.tag);
  if (!plan.check) return { record: writeActivation(store, { ...base, outcome: "active" }, plan.author) };
  const env: NodeJS.ProcessEnv = {
    ...(ctx.io.env as NodeJS.ProcessEnv),
    FORGE_RELEASE_TAG: plan.tag,
    FORGE_RELEASE_DIR: target.current,
    FORGE_RELEASE_PREVIOUS: plan.previous ?? "",
  };
  const r = await runCheck(ctx, plan.check, target.current, env, plan.timeout);
  if (r.ok) return { record: writeActivation(store, { ...base, outcome: "active", checkExit: r.code }, plan.author) };
  target.switchTo(plan.previous);
  const record = writeActivation(store, { ...base, outcome: "check-failed", checkExit: r.code }, plan.author);
  const back =
    plan.previous === undefined
      ? "no release is current (there was none before)"
      : `current is back on ${plan.previous}`;
  return { record, failure: `${plan.tag}: check '${base.check!.slice(0, 80)}' ${r.why}; ${back}` };
}

/**
 * Close every transaction a kill left `pending` on this target, before a
 * new one starts (the caller holds the target's lock, so none is live).
 * Only the target's newest record can have left `current` moved: when
 * `current` is on its tag, one without a check had nothing left to do and
 * is committed (`active`); one with a check never saw it pass, so
 * `current` goes back to its `previous` (removed when there was none) and
 * it is `aborted`. Any other pending record changed nothing that is still
 * in place: `aborted`. One line on stderr per record closed.
 * @returns the records, with the closed ones' new outcomes
 */
export async function reconcilePending(
  ctx: Ctx,
  store: Store,
  target: Target,
  recs: readonly ActivationJson[]
): Promise<ActivationJson[]> {
  const out: ActivationJson[] = [];
  for (const [i, r] of recs.entries()) {
    if (r.outcome !== "pending") {
      out.push(r);
      continue;
    }
    const moved = i === recs.length - 1 && target.currentTag() === r.tag;
    let outcome: "active" | "aborted" = "aborted";
    let where: string;
    if (moved && r.check === null) {
      outcome = "active";
      where = `current is on ${r.tag}`;
    } else if (moved) {
      target.switchTo(r.previous ?? undefined);
      where = r.previous === null ? "current removed (there was none before)" : `current back on ${r.previous}`;
    } else {
      const cur = target.currentTag();
      where = cur === undefined ? "no release is current" : `current stays on ${cur}`;
    }
    out.push(await closeActivation(store, r, outcome));
    ctx.log.warn(
      `an interrupted ${r.action} of ${r.tag} (${r.record}) is now ` +
        `${outcome === "active" ? "committed" : "aborted"}: ` +
        where
    );
  }
  return out;
}

/** Split `--check CMD` into an argv (on blanks; no shell, no quotes: a check that needs more is a script). */
export function checkArgv(cmd: string): string[] {
  return cmd.split(/[ \t]+/).filter((w) => w !== "");
}

/** Run the check with `current` as cwd; its output goes to stderr. */
function runCheck(
  ctx: Ctx,
  argv: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeout: number
): Promise<{ ok: boolean; code: number | null; why: string }> {
  return new Promise((settle) => {
    let timedOut = false;
    let settled = false;
    const resolve = (r: { ok: boolean; code: number | null; why: string }): void => {
      if (!settled) settle(r);
      settled = true;
    };
    const child = spawn(argv[0]!, argv.slice(1), { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // gone already
      }
    }, timeout * 1000);
    child.stdout.on("data", (d: Buffer) => ctx.io.stderr.write(d));
    child.stderr.on("data", (d: Buffer) => ctx.io.stderr.write(d));
    child.on("error", (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ ok: false, code: err.code === "ENOENT" ? 127 : 126, why: `could not start (${err.code ?? "error"})` });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (timedOut) resolve({ ok: false, code: null, why: `timed out after ${timeout}s` });
      else if (signal) resolve({ ok: false, code: null, why: `was killed by ${signal}` });
      else resolve({ ok: code === 0, code, why: `failed (exit ${code})` });
    });
  });
}
