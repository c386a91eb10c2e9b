import test from "ava";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storeAt } from "@forge/core";
import { envFingerprint, posture, readSteps, stepEnv } from "./posture.js";

const made: string[] = [];
test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function store(): { dir: string; steps: string } {
  const root = mkdtempSync(join(tmpdir(), "forge-posture-"));
  made.push(root);
  const dir = join(root, ".forge");
  const steps = join(dir, "ci", "steps");
  mkdirSync(steps, { recursive: true });
  return { dir, steps };
}

function step(dir: string, name: string, text: string, mode = 0o755): void {
  writeFileSync(join(dir, name), text);
  chmodSync(join(dir, name), mode);
}

test("readSteps: only NN-name files, in code-unit order, with their bytes and mode", (t) => {
  const s = store();
  step(s.steps, "20-test", "#!/bin/sh\n");
  step(s.steps, "10-build", "#!/bin/sh\necho\n", 0o644);
  step(s.steps, "README.md", "not a step");
  const got = readSteps(s.steps, "steps");
  t.deepEqual(
    got.map((x) => [x.name, x.mode]),
    [
      ["10-build", 0o644],
      ["20-test", 0o755],
    ]
  );
  t.is(got[0]!.bytes.toString(), "#!/bin/sh\necho\n");
  t.deepEqual(readSteps(join(s.steps, "missing"), "x"), []);
});

test("readSteps refuses a step that is a symlink", (t) => {
  const s = store();
  symlinkSync("/bin/true", join(s.steps, "10-link"));
  t.throws(() => readSteps(s.steps, ".forge/ci/steps"), { message: /10-link: not a regular file/ });
});

test("the fingerprint changes with ci.env, a step's bytes or mode, the runner and the image", (t) => {
  const steps = [{ name: "10-a", mode: 0o755, bytes: Buffer.from("x") }];
  const base = envFingerprint("local", undefined, Buffer.from("A=1\n"), steps);
  t.regex(base, /^[0-9a-f]{64}$/);
  t.is(envFingerprint("local", undefined, Buffer.from("A=1\n"), [{ ...steps[0]! }]), base, "deterministic");
  t.not(envFingerprint("local", undefined, Buffer.from("A=2\n"), steps), base);
  t.not(envFingerprint("local", undefined, Buffer.from("A=1\n"), [{ ...steps[0]!, bytes: Buffer.from("y") }]), base);
  t.not(envFingerprint("local", undefined, Buffer.from("A=1\n"), [{ ...steps[0]!, mode: 0o644 }]), base);
  t.not(envFingerprint("local", undefined, Buffer.from("A=1\n"), [{ ...steps[0]!, name: "10-b" }]), base);
  t.not(envFingerprint("docker", "alpine", Buffer.from("A=1\n"), steps), base);
  const env = Buffer.from("A=1\n");
  t.not(envFingerprint("docker", "debian", env, steps), envFingerprint("docker", "alpine", env, steps));
});

test(
  "posture: runner from ci.env or --docker; docker without an image is an error naming the field, or the missing " +
    "file",
  (t) => {
    const s = store();
    step(s.steps, "10-a", "#!/bin/sh\n");
    const st = storeAt(s.dir);
    t.is(posture(st, s.steps, "steps", false).runner, "local");
    // No ci.env at all: say that, not that a field of a missing file is missing (issue 14).
    t.throws(() => posture(st, s.steps, "steps", true), {
      message: /ci\/ci\.env does not exist; --docker needs one with 'image=<image>'/,
    });
    writeFileSync(join(s.dir, "ci", "ci.env"), "timeout=5\n");
    t.throws(() => posture(st, s.steps, "steps", true), { message: /ci\.env: field 'image': missing/ });
    const env = "runner=docker\nimage=alpine:3\nTOKEN_NAME=x\ntimeout=5\n";
    writeFileSync(join(s.dir, "ci", "ci.env"), env);
    const p = posture(st, s.steps, "steps", false);
    t.is(p.runner, "docker");
    t.is(p.settings.timeout, 5);
    t.is(p.envSha256, envFingerprint("docker", "alpine:3", Buffer.from(env), p.steps));
  }
);

test("posture: a bad ci.env is an error naming the file and line", (t) => {
  const s = store();
  writeFileSync(join(s.dir, "ci", "ci.env"), "runer=docker\n");
  t.throws(() => posture(storeAt(s.dir), s.steps, "steps", false), {
    message: /ci\.env: line 1: unknown setting 'runer'/,
  });
});

test("stepEnv: the caller's environment, ci.env's variables on top, the run and step names", (t) => {
  const env = stepEnv({ PATH: "/bin", A: "caller" }, { runner: "local", env: { A: "ci", B: "2" } }, "run-id", "10-a");
  t.deepEqual(env, { PATH: "/bin", A: "ci", B: "2", FORGE_CI_RUN: "run-id", FORGE_CI_STEP: "10-a" });
});
