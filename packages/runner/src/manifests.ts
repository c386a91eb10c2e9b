/**
 * Clusters on paper (spec/hosts.md): the manifests `forge-ci emit` writes
 * for a staged batch (stageBatch: the worker, the trees, one job file per
 * (arm, chunk)). A Kubernetes Indexed Job runs index = arm × chunks + chunk
 * with no retry per index, disruptions ignored and the worker's
 * infrastructure exit code failing its index; a Nomad parameterized job is
 * dispatched once per index with an idempotency token per run/arm/chunk.
 * Records come back on the shared volume the bundle is on.
 */
import { INFRA_EXIT } from "./hosts_worker.js";

/** What a manifest needs to know of a staged batch. */
export interface ManifestBatch {
  batch: string;
  /** The worker's file name in the bundle. */
  worker: string;
  arms: number;
  chunks: number;
  /** The commit the batch runs (the Nomad payload names it). */
  commit: string;
  /** Where the bundle is mounted in the pod / task. */
  mount: string;
  image: string;
}

/** The most bytes of a Nomad dispatch payload. */
export const NOMAD_PAYLOAD_MAX = 16 * 1024;

const q = (s: string): string => JSON.stringify(s);

/** The worker's argv in a pod or task: it reads JOB_COMPLETION_INDEX. */
function workerArgv(b: ManifestBatch): string[] {
  return ["node", `${b.mount}/${b.worker}`, "--index", String(b.chunks), `${b.mount}/forge-job-${b.batch}`];
}

/** A Kubernetes Indexed Job (YAML) for the batch; the bundle on the PVC `forge-ci` mounted at `mount`. */
export function k8sJob(b: ManifestBatch): string {
  const n = b.arms * b.chunks;
  return [
    "# forge-ci emit k8s: one pod per (arm, chunk); index = arm × chunks + chunk (spec/hosts.md).",
    "# Records come back on the volume (forge-job-*.rec beside each job file), or with kubectl cp.",
    "apiVersion: batch/v1",
    "kind: Job",
    "metadata:",
    `  name: forge-ci-${b.batch}`,
    "  labels:",
    "    app.kubernetes.io/managed-by: forge",
    "spec:",
    "  completionMode: Indexed",
    `  completions: ${n}`,
    `  parallelism: ${n}`,
    "  backoffLimitPerIndex: 0",
    `  maxFailedIndexes: ${n}`,
    "  podFailurePolicy:",
    "    rules:",
    "      - action: Ignore",
    "        onPodConditions:",
    "          - type: DisruptionTarget",
    "      - action: FailIndex",
    "        onExitCodes:",
    "          containerName: worker",
    "          operator: In",
    `          values: [${INFRA_EXIT}]`,
    "  template:",
    "    spec:",
    "      restartPolicy: Never",
    "      containers:",
    "        - name: worker",
    `          image: ${q(b.image)}`,
    `          workingDir: ${q(b.mount)}`,
    `          command: [${workerArgv(b).map(q).join(", ")}]`,
    "          volumeMounts:",
    "            - name: forge",
    `              mountPath: ${q(b.mount)}`,
    "      volumes:",
    "        - name: forge",
    "          persistentVolumeClaim:",
    "            claimName: forge-ci",
    "",
  ].join("\n");
}

/** A Nomad parameterized job (HCL) for the batch: JOB_COMPLETION_INDEX from the dispatch's meta. */
export function nomadJob(b: ManifestBatch): string {
  const [cmd, ...args] = workerArgv(b);
  return [
    "# forge-ci emit nomad: a parameterized batch job, dispatched once per (arm, chunk) (spec/hosts.md).",
    "# Records come back on the host volume (forge-job-*.rec beside each job file).",
    `job ${q(`forge-ci-${b.batch}`)} {`,
    '  type = "batch"',
    "",
    "  parameterized {",
    '    payload       = "required"',
    '    meta_required = ["forge_index"]',
    "  }",
    "",
    '  group "worker" {',
    "    reschedule {",
    "      attempts  = 0",
    "      unlimited = false",
    "    }",
    '    volume "forge" {',
    '      type   = "host"',
    '      source = "forge-ci"',
    "    }",
    "",
    '    task "worker" {',
    '      driver = "docker"',
    "      config {",
    `        image   = ${q(b.image)}`,
    `        command = ${q(cmd!)}`,
    `        args    = [${args.map(q).join(", ")}]`,
    "      }",
    "      volume_mount {",
    '        volume      = "forge"',
    `        destination = ${q(b.mount)}`,
    "      }",
    "      env {",
    '        JOB_COMPLETION_INDEX = "${NOMAD_META_forge_index}"',
    "      }",
    "      dispatch_payload {",
    '        file = "forge-payload.json"',
    "      }",
    "      restart {",
    "        attempts = 0",
    '        mode     = "fail"',
    "      }",
    "    }",
    "  }",
    "}",
    "",
  ].join("\n");
}

/** The dispatch payload: the commit and the bundle's path (well under Nomad's 16 KiB). */
export function nomadPayload(b: ManifestBatch): string {
  return JSON.stringify({ commit: b.commit, bundle: b.mount, batch: b.batch }) + "\n";
}

/** One `nomad job dispatch` argv per index, each with an idempotency token per run/arm/chunk. */
export function nomadDispatch(b: ManifestBatch, payloadFile: string): string[][] {
  const out: string[][] = [];
  for (let arm = 0; arm < b.arms; arm++)
    for (let c = 0; c < b.chunks; c++)
      out.push([
        "nomad",
        "job",
        "dispatch",
        "-idempotency-token",
        `forge-${b.batch}-${arm}-${c}`,
        "-meta",
        `forge_index=${arm * b.chunks + c}`,
        `forge-ci-${b.batch}`,
        payloadFile,
      ]);
  return out;
}
