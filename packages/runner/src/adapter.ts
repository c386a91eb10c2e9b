/**
 * One adapter contract, the Radicle CI broker's (spec/hosts.md): a trigger
 * line in on stdin (`{"request":"trigger","version":1,"event_type":"push"|
 * "patch",…}`), exactly two lines out (`{"response":"triggered","run_id":
 * {"id":…}}`, then `{"response":"finished","result":"success"|"failure"}`),
 * logs on stderr only. `forge-ci adapter` speaks it (parseTrigger); forge
 * drives an external adapter by it (`runner=adapter:CMD` in ci.env,
 * runAdapter), and records what it said as a run with one step, `00-adapter`.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { ForgeError } from "@forge/core";

/** The step an adapter's run records (its stderr is the step's log). */
export const ADAPTER_STEP = "00-adapter";

/** What a trigger line asks for. */
export interface Trigger {
  eventType: "push" | "patch";
  /** The commit to run: a push's `after`, a patch's latest revision. */
  commit: string;
  /** The repository's id, as the broker names it (or null). */
  repository: string | null;
  /** A patch's id (or null for a push). */
  patch: string | null;
}

const OID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

function bad(what: string): never {
  throw new ForgeError(`stdin: trigger line: ${what}`, "E_TRIGGER", 1);
}

function obj(v: unknown): Record<string, unknown> | undefined {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/**
 * Parse a trigger line: a push's commit is `push.after` (or its last of `push.commits`), a patch's is its last
 * revision's `oid` (or `patch.after`).
 * @throws ForgeError (exit 1) naming the field that is wrong
 * @example parseTrigger('{"request":"trigger","version":1,"event_type":"push","push":{"after":"<40 hex>"}}')
 */
export function parseTrigger(line: string): Trigger {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    bad("not JSON");
  }
  const o = obj(v) ?? bad("not a JSON object");
  if (o.request !== "trigger") bad(`field 'request': expected "trigger"`);
  if (o.version !== 1) bad("field 'version': expected 1");
  const repo = obj(o.repository);
  const repository = typeof repo?.id === "string" ? repo.id : typeof o.repository === "string" ? o.repository : null;
  if (o.event_type === "push") {
    const push = obj(o.push) ?? bad("field 'push': missing");
    const commits = Array.isArray(push.commits) ? push.commits : [];
    const commit = push.after ?? commits[commits.length - 1];
    if (typeof commit !== "string" || !OID.test(commit)) bad("field 'push.after': expected a commit id");
    return { eventType: "push", commit, repository, patch: null };
  }
  if (o.event_type === "patch") {
    const ev = obj(o.patch) ?? bad("field 'patch': missing");
    const p = obj(ev.patch) ?? ev;
    const revs = Array.isArray(p.revisions) ? p.revisions : [];
    const last = obj(revs[revs.length - 1]);
    const commit = last?.oid ?? p.after;
    if (typeof commit !== "string" || !OID.test(commit)) bad("field 'patch.revisions[-1].oid': expected a commit id");
    return { eventType: "patch", commit, repository, patch: typeof p.id === "string" ? p.id : null };
  }
  return bad(`field 'event_type': expected "push" or "patch"`);
}

/** The trigger line forge sends an external adapter for a commit (a push of it). */
export function triggerLine(commit: string, repository: string, branch: string): string {
  return (
    JSON.stringify({
      request: "trigger",
      version: 1,
      event_type: "push",
      repository: { id: repository, name: repository },
      push: { pusher: "forge", before: commit, after: commit, branch, commits: [commit] },
    }) + "\n"
  );
}

/** What an external adapter said. */
export interface AdapterResult {
  runId: string;
  result: "success" | "failure";
  /** The finished line's other fields (records, a URL), as it gave them. */
  extra: Record<string, unknown>;
  /** Its stderr (the step's log). */
  log: Buffer;
  logSha256: string;
  durationMs: number;
  exitCode: number | null;
}

/**
 * Run an external adapter on one trigger line: exactly two JSON lines must come out (triggered, then finished).
 * @param argv the command (ci.env `runner=adapter:CMD`, split on spaces; no shell)
 * @throws ForgeError naming the adapter and what broke the contract (a third line, a bad line, no finished line)
 */
export async function runAdapter(
  argv: string[],
  line: string,
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeout?: number }
): Promise<AdapterResult> {
  const name = argv.join(" ").slice(0, 60);
  const t0 = performance.now();
  const { stdout, stderr, code } = await new Promise<{ stdout: string; stderr: Buffer; code: number | null }>(
    (res, rej) => {
      const child = spawn(argv[0]!, argv.slice(1), { cwd: opts.cwd, env: opts.env, stdio: ["pipe", "pipe", "pipe"] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let timer: NodeJS.Timeout | undefined;
      if (opts.timeout) timer = setTimeout(() => child.kill("SIGKILL"), opts.timeout * 1000);
      child.stdout.on("data", (d: Buffer) => out.push(d));
      child.stderr.on("data", (d: Buffer) => err.push(d));
      child.on("error", (e) =>
        rej(new ForgeError(`adapter ${name}: cannot run it (${(e as NodeJS.ErrnoException).code})`, "E_ADAPTER", 1))
      );
      child.on("close", (c) => {
        clearTimeout(timer);
        res({ stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err), code: c });
      });
      child.stdin.on("error", () => undefined);
      child.stdin.end(line);
    }
  );
  const lines = stdout.split("\n").filter((l) => l.trim() !== "");
  const broke = (what: string): never => {
    throw new ForgeError(`adapter ${name}: ${what} (the contract: two lines, triggered then finished)`, "E_ADAPTER", 1);
  };
  if (lines.length !== 2) broke(`${lines.length} lines on stdout`);
  let a: Record<string, unknown> | undefined;
  let b: Record<string, unknown> | undefined;
  try {
    a = obj(JSON.parse(lines[0]!));
    b = obj(JSON.parse(lines[1]!));
  } catch {
    broke("a line that is not JSON");
  }
  const runId = obj(a?.run_id)?.id;
  if (a?.response !== "triggered" || typeof runId !== "string") broke("line 1 is not a triggered response");
  if (b?.response !== "finished" || (b.result !== "success" && b.result !== "failure"))
    broke("line 2 is not a finished response with result success or failure");
  const { response: _r, result, ...extra } = b!;
  void _r;
  return {
    runId: runId as string,
    result: result as "success" | "failure",
    extra,
    log: stderr,
    logSha256: createHash("sha256").update(stderr).digest("hex"),
    durationMs: Math.round(performance.now() - t0),
    exitCode: code,
  };
}
