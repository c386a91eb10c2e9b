/**
 * Two ssh hosts on this machine (spec/hosts.md), for test/hosts_test.ts and the hosts bench case
 * (tools/bench_hosts.ts): each a network namespace with its own sshd on its loopback (reached through
 * `ip netns exec … nc`, so nothing listens on the machine's network) and its own home folder (root's
 * home bind-mounted over in a private mount namespace), one key pair, a GNU parallel sshlogin file
 * (`1/<name>` a line) and `PARALLEL_SSH` naming the ssh config. Needs root, `ip netns`, GNU
 * parallel, Debian's `openssh-server`, `nc` and `unshare`; `up()` says which is missing instead.
 * `remove()` kills every process in the namespaces, deletes them and the lab folder; it may be
 * called at any point (after a partial `up()`, twice, from an exit handler: it is synchronous).
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** What the hosts need here, each with the argv that proves it is installed. */
const NEEDS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ["ip", ["netns", "list"]],
  ["parallel", ["--version"]],
  ["/usr/sbin/sshd", ["-V"]],
  ["nc", ["-h"]],
  ["unshare", ["--version"]],
];

/** Two network-namespace hosts with their own sshd. */
export class NetnsHosts {
  /** The hosts' names (namespaces and sshlogins). */
  readonly names: [string, string];
  /** The lab folder (keys, sshd and ssh configs, the hosts file, each host's home); "" before `up()`. */
  dir = "";
  private readonly made: string[] = [];

  /** @param prefix a few letters; the names are `<prefix><pid>a` and `<prefix><pid>b` */
  constructor(prefix: string) {
    this.names = [`${prefix}${process.pid}a`, `${prefix}${process.pid}b`];
  }

  /** The sshlogin file for `--hosts`. */
  get hostsFile(): string {
    return join(this.dir, "hosts");
  }

  /** The environment GNU parallel needs to reach the hosts. */
  get env(): { PARALLEL_SSH: string } {
    return { PARALLEL_SSH: `ssh -F ${join(this.dir, "ssh_config")}` };
  }

  /** A host's home folder (where the worker's folders appear). */
  home(name: string): string {
    return join(this.dir, `home-${name}`);
  }

  /**
   * Make the namespaces, keys and configs, start both sshds and wait until each answers.
   * @returns null when both hosts answer, else why not (one line); call `remove()` either way
   */
  async up(): Promise<string | null> {
    if (process.getuid?.() !== 0) return "not root: cannot make network namespaces";
    for (const [cmd, args] of NEEDS) {
      if (spawnSync(cmd, [...args], { stdio: "ignore" }).error)
        return `${cmd} is not installed (apt-get install parallel openssh-server rsync netcat-openbsd)`;
    }
    this.dir = mkdtempSync(join(tmpdir(), "forge-hosts-"));
    for (const n of this.names) {
      const r = spawnSync("ip", ["netns", "add", n], { encoding: "utf8" });
      if (r.status !== 0) return `ip netns add failed: ${r.stderr.trim()}`;
      this.made.push(n);
      spawnSync("ip", ["-n", n, "link", "set", "lo", "up"]);
    }
    const d = this.dir;
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(d, "id")]);
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(d, "hostkey")]);
    writeFileSync(join(d, "authorized_keys"), readFileSync(join(d, "id.pub")));
    chmodSync(join(d, "authorized_keys"), 0o600);
    writeFileSync(
      join(d, "sshd_config"),
      [
        "ListenAddress 127.0.0.1",
        "Port 22",
        `HostKey ${join(d, "hostkey")}`,
        `AuthorizedKeysFile ${join(d, "authorized_keys")}`,
        "StrictModes no",
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        "UsePAM no",
        "PermitRootLogin prohibit-password",
        "PidFile none",
        "MaxStartups 100",
        "MaxSessions 100",
        "",
      ].join("\n")
    );
    writeFileSync(
      join(d, "ssh_config"),
      [
        `Host ${this.names.join(" ")}`,
        "  User root",
        `  IdentityFile ${join(d, "id")}`,
        "  IdentitiesOnly yes",
        "  StrictHostKeyChecking no",
        "  UserKnownHostsFile /dev/null",
        "  LogLevel ERROR",
        "  ProxyCommand ip netns exec %h nc 127.0.0.1 22",
        "",
      ].join("\n")
    );
    writeFileSync(this.hostsFile, `# two hosts\n1/${this.names[0]}\n1/${this.names[1]}\n`);
    mkdirSync("/run/sshd", { recursive: true });
    for (const n of this.names) this.startSshd(n);
    for (const n of this.names) if (!(await this.waitSsh(n))) return `sshd in ${n} did not answer`;
    return null;
  }

  /** Start (or, after `killHost`, restart) a host's sshd, in its namespace, over its own home. */
  startSshd(name: string): void {
    const home = this.home(name);
    mkdirSync(home, { recursive: true });
    const config = join(this.dir, "sshd_config");
    const script = `mount --bind ${home} ${rootHome()} && exec /usr/sbin/sshd -D -e -f ${config}`;
    const child = spawn(
      "ip",
      ["netns", "exec", name, "unshare", "-m", "--propagation", "private", "sh", "-c", script],
      {
        stdio: "ignore",
      }
    );
    child.on("error", () => undefined);
    child.unref();
  }

  /** Wait (up to ~30 s) until `ssh <name> true` succeeds. */
  async waitSsh(name: string): Promise<boolean> {
    for (let i = 0; i < 60; i++) {
      const r = spawnSync("ssh", ["-F", join(this.dir, "ssh_config"), name, "true"], {
        stdio: "ignore",
        timeout: 20_000,
      });
      if (r.status === 0) return true;
      await new Promise((res) => setTimeout(res, 500));
    }
    return false;
  }

  /** Every process in a host's namespace, killed with SIGKILL (a host lost). */
  killHost(name: string): void {
    const r = spawnSync("ip", ["netns", "pids", name], { encoding: "utf8" });
    if (r.status !== 0) return;
    for (const p of r.stdout.split("\n").filter(Boolean)) spawnSync("kill", ["-9", p]);
  }

  /** Kill the hosts' processes, delete the namespaces and the lab folder. Synchronous; safe to call again. */
  remove(): void {
    for (const n of this.made.splice(0)) {
      this.killHost(n);
      spawnSync("ip", ["netns", "del", n]);
    }
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = "";
  }
}

/** Root's home as sshd sees it (each host bind-mounts its own folder there). */
function rootHome(): string {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith("root:"));
  return line?.split(":")[5] || "/root";
}
