/**
 * A run's posture (SEC-07): the settings of `ci.env`, where the steps run
 * (`local` or `docker`, never silently one for the other), the steps'
 * environment, and the environment fingerprint that tells comparable runs
 * from incomparable ones.
 */
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  ciEnvFile,
  ciSettings,
  ciStepOrder,
  displayPath,
  isCiStepName,
  ForgeError,
  parseCiEnv,
  readStoreBytes,
  type CiSettings,
  type Store,
} from "@forge/core";

/** One step file, read once: what runs is what was fingerprinted. */
export interface StepFile {
  name: string;
  /** The file's permission bits. */
  mode: number;
  bytes: Buffer;
}

/** Everything a run needs to know before it starts. */
export interface Posture {
  settings: CiSettings;
  runner: "local" | "docker";
  /** The bytes of `ci.env` (empty when there is none). */
  envBytes: Buffer;
  steps: StepFile[];
  /** Files beside the steps whose names are not `NN-name` (`10-test.sh`): not run, said on stderr. */
  notSteps: string[];
  /** sha256 over the posture, `ci.env` and every step file. */
  envSha256: string;
}

/**
 * Read `ci.env` from the store.
 * @throws InvalidFileError naming the file and line of a bad setting
 */
export function readCiEnv(store: Store): { settings: CiSettings; bytes: Buffer } {
  const file = ciEnvFile(store);
  if (!existsSync(file)) return { settings: { runner: "local", env: {} }, bytes: Buffer.alloc(0) };
  const bytes = readStoreBytes(store, file);
  return { settings: ciSettings(parseCiEnv(bytes.toString("utf8"), displayPath(store, file))), bytes };
}

/**
 * The step files of a folder, in run order. A step that is a symlink or
 * not a regular file is an error, not a silent skip.
 * @param dir `.forge/ci/steps/` or a run's snapshot of it (may be missing: no steps)
 * @param shown the folder's name for messages
 * @throws ForgeError naming a step that is not a regular file
 */
export function readSteps(dir: string, shown: string): StepFile[] {
  if (!existsSync(dir)) return [];
  return ciStepOrder(readdirSync(dir)).map((name) => {
    const path = join(dir, name);
    const st = lstatSync(path);
    if (!st.isFile()) {
      throw new ForgeError(`${shown}/${name}: not a regular file (a step must be an executable file)`, "E_STEP", 1);
    }
    return { name, mode: st.mode & 0o777, bytes: readFileSync(path) };
  });
}

/**
 * The files of a steps folder that are not steps and look meant to be one
 * (`10-test.sh`, `test`): every name but `NN-name`, dot files and `README*`.
 * @example notStepNames(dir) // ["10-test.sh"] beside 20-lint and README.md
 */
export function notStepNames(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => !isCiStepName(n) && !n.startsWith(".") && !/^README/i.test(n))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * A line for a file that is not a step: its name, and the name that would run.
 * @example notStepWarning(".forge/ci/steps", "10-test.sh")
 * // ".forge/ci/steps/10-test.sh: not a step, not run (a step is named NN-name, e.g. 10-test)"
 */
export function notStepWarning(shown: string, name: string): string {
  const base = name.toLowerCase().replace(/\.[a-z0-9]+$/, "");
  const eg = isCiStepName(base) ? base : "10-test";
  return `${shown}/${name}: not a step, not run (a step is named NN-name, e.g. ${eg})`;
}

/**
 * The environment fingerprint: sha256 over the runner, the image, the
 * bytes of `ci.env` and each step's name, executable bit and bytes, in run
 * order. Two runs with the same fingerprint ran the same steps the same way.
 * @example envFingerprint("local", undefined, Buffer.alloc(0), []) // 64 hex digits
 */
export function envFingerprint(
  runner: string,
  image: string | undefined,
  envBytes: Uint8Array,
  steps: readonly StepFile[]
): string {
  const h = createHash("sha256");
  h.update(`forge-ci-env v1\nrunner ${runner}\nimage ${image ?? ""}\nci.env ${sha256(envBytes)}\n`);
  for (const s of steps) h.update(`step ${s.name} ${s.mode & 0o111 ? "x" : "-"} ${sha256(s.bytes)}\n`);
  return h.digest("hex");
}

/**
 * The posture of a run from the store's `ci.env` and a folder of steps.
 * @param docker `--docker`: run in the image of `ci.env` whatever `runner` says
 * @throws ForgeError when docker is asked for without an image
 */
export function posture(store: Store, stepsDir: string, stepsShown: string, docker: boolean): Posture {
  const { settings, bytes } = readCiEnv(store);
  const runner = docker ? "docker" : settings.runner;
  if (runner === "docker" && !settings.image) {
    const file = displayPath(store, ciEnvFile(store));
    // No file is not a file with a missing field: say which, and what to write.
    if (bytes.length === 0 && !existsSync(ciEnvFile(store))) {
      const want = "--docker needs one with 'image=<image>' (e.g. image=node:20)";
      throw new ForgeError(`${file} does not exist; ${want}`, "E_NO_IMAGE", 1);
    }
    throw new ForgeError(`${file}: field 'image': missing (runner docker needs an image)`, "E_NO_IMAGE", 1);
  }
  const steps = readSteps(stepsDir, stepsShown);
  const envSha256 = envFingerprint(runner, runner === "docker" ? settings.image : undefined, bytes, steps);
  return { settings, runner, envBytes: bytes, steps, notSteps: notStepNames(stepsDir), envSha256 };
}

/**
 * A step's environment: the caller's, the `ci.env` variables on top, and
 * the run's id and the step's name. Nothing else, no secrets.
 */
export function stepEnv(
  caller: NodeJS.ProcessEnv,
  settings: CiSettings,
  runId: string,
  step: string
): NodeJS.ProcessEnv {
  return { ...caller, ...settings.env, FORGE_CI_RUN: runId, FORGE_CI_STEP: step };
}

function sha256(b: Uint8Array): string {
  return createHash("sha256").update(b).digest("hex");
}
