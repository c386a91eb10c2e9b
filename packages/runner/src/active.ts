/**
 * The runs this process is executing, and how a cancel reaches them.
 * `forge-ci cancel <run>` (another process) writes the run's `cancel` file
 * and sends SIGUSR2 to the runner: each active run whose file exists stops.
 * SIGINT and SIGTERM (Ctrl-C, a kill) stop every active run, so the steps'
 * process groups are killed and the records finished before the exit.
 */
import { existsSync } from "node:fs";

const active = new Map<string, { cancelFile: string; cancel: () => void }>();
const SIGNALS = ["SIGUSR2", "SIGINT", "SIGTERM"] as const;

function onSignal(sig: NodeJS.Signals): void {
  for (const r of active.values()) if (sig !== "SIGUSR2" || existsSync(r.cancelFile)) r.cancel();
}

/**
 * Register a running run until the returned function is called.
 * @param id the run's id
 * @param cancelFile the file whose existence asks this run to stop
 * @param cancel stops the run
 */
export function registerRun(id: string, cancelFile: string, cancel: () => void): () => void {
  if (active.size === 0) for (const s of SIGNALS) process.on(s, onSignal);
  active.set(id, { cancelFile, cancel });
  return () => {
    active.delete(id);
    if (active.size === 0) for (const s of SIGNALS) process.off(s, onSignal);
  };
}
