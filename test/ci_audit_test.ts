/**
 * SEC-09: `.ci/audit`, the advisory gate `.ci/run` calls, against a fake
 * pnpm that answers as the real one does: a clean answer passes, an
 * answer with a high advisory fails CI, an endpoint that does not answer
 * (the mirror's 405, no network) only warns, and anything else fails
 * closed. (On main `pnpm audit … || echo warning` passed all of them.)
 */
import test from "ava";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

/** Run `.ci/audit` with a fake pnpm that prints `stdout`/`stderr` and exits `code`. */
function audit(fake: { stdout?: string; stderr?: string; code: number }): {
  code: number | null;
  stderr: string;
  args: string;
} {
  const dir = scratch(mkdtempSync(join(tmpdir(), "forge-audit-")));
  writeFileSync(join(dir, "out"), fake.stdout ?? "");
  writeFileSync(join(dir, "err"), fake.stderr ?? "");
  const bin = join(dir, "pnpm");
  writeFileSync(
    bin,
    `#!/bin/sh\nprintf '%s\\n' "$*" > "${dir}/args"\ncat "${dir}/out"\ncat "${dir}/err" >&2\nexit ${fake.code}\n`
  );
  chmodSync(bin, 0o755);
  const r = spawnSync(join(ROOT, ".ci", "audit"), [bin], { encoding: "utf8", cwd: dir });
  return { code: r.status, stderr: r.stderr, args: readFileSync(join(dir, "args"), "utf8") };
}

const REPORT = (high: number, text = "Prototype pollution"): string =>
  JSON.stringify({
    advisories: high ? { "1": { module_name: "yaml", severity: "high", title: text } } : {},
    metadata: { vulnerabilities: { info: 0, low: 0, moderate: 0, high, critical: 0 } },
  });

test("a clean answer passes; the audit is asked for prod dependencies at level high, as JSON", (t) => {
  const r = audit({ stdout: REPORT(0), code: 0 });
  t.is(r.code, 0, r.stderr);
  t.is(r.args, "audit --prod --audit-level high --json\n");
  t.regex(r.stderr, /^audit: no high or critical advisory\n$/);
});

test("an answer with a high advisory fails CI (exit 1), naming the counts", (t) => {
  const r = audit({ stdout: REPORT(1), code: 1 });
  t.is(r.code, 1);
  t.regex(r.stderr, /^audit: FAILED: the audit endpoint reports advisories at high or above \(.*1 high, 0 critical\)/);
  t.regex(r.stderr, /Prototype pollution/);
});

test("an advisory whose text names a network error is still a failure (the report decides, not its words)", (t) => {
  const r = audit({ stdout: REPORT(2, "ECONNREFUSED ERR_PNPM_AUDIT_BAD_RESPONSE"), code: 1 });
  t.is(r.code, 1);
  t.regex(r.stderr, /FAILED/);
});

test("an endpoint that does not answer only warns: the mirror's 405, no network", (t) => {
  for (const err of [
    "Error: ERR_PNPM_AUDIT_BAD_RESPONSE\n\n  × The audit endpoint (at https://registry.npmjs.org/-/npm/v1/security/\n" +
      "  │ advisories/bulk) responded with 405:\n",
    " ERR_PNPM_AUDIT_ENDPOINT_NOT_EXISTS  The audit endpoint doesn't exist.\n",
    "request to https://registry.npmjs.org/-/npm/v1/security/audits failed, reason: getaddrinfo ENOTFOUND x\n",
  ]) {
    const r = audit({ stderr: err, code: 1 });
    t.is(r.code, 0, r.stderr);
    t.regex(
      r.stderr,
      /^warning: audit: the audit endpoint did not answer \((ERR_PNPM_\w+|ENOTFOUND)\); no advisory was checked\n$/
    );
  }
});

test("any other failure fails closed: an unknown error, a report that is not one", (t) => {
  for (const fake of [
    { stderr: " ERR_PNPM_LOCKFILE_BROKEN  broken\n", code: 1 },
    { stdout: "{not json", code: 1 },
    { stdout: JSON.stringify({ advisories: {} }), code: 1 },
  ]) {
    const r = audit(fake);
    t.is(r.code, 1, JSON.stringify(fake));
    t.regex(r.stderr, /^audit: FAILED: pnpm audit exited 1 without a report or a known endpoint error:/);
  }
});
