# forge-ci emit nomad: a parameterized batch job, dispatched once per (arm, chunk) (spec/hosts.md).
# Records come back on the host volume (forge-job-*.rec beside each job file).
job "forge-ci-BATCH" {
  type = "batch"

  parameterized {
    payload       = "required"
    meta_required = ["forge_index"]
  }

  group "worker" {
    reschedule {
      attempts  = 0
      unlimited = false
    }
    volume "forge" {
      type   = "host"
      source = "forge-ci"
    }

    task "worker" {
      driver = "docker"
      config {
        image   = "node:20"
        command = "node"
        args    = ["/forge/forge-worker-BATCH.mjs", "--index", "3", "/forge/forge-job-BATCH"]
      }
      volume_mount {
        volume      = "forge"
        destination = "/forge"
      }
      env {
        JOB_COMPLETION_INDEX = "${NOMAD_META_forge_index}"
      }
      dispatch_payload {
        file = "forge-payload.json"
      }
      restart {
        attempts = 0
        mode     = "fail"
      }
    }
  }
}
