/**
 * Headless Chromium (Debian's `chromium`) driven over its DevTools pipe
 * (`--remote-debugging-pipe`: no port, no npm package): a page opened with
 * JavaScript disabled (`Emulation.setScriptExecutionDisabled`; the
 * `--blink-settings=scriptEnabled=false` switch also stops `--screenshot`
 * and `--dump-dom`, which run script of their own), its screenshot, its DOM
 * as Chromium parsed it, and every request it made.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";

/** The browser's path, or null when none is installed (the test then says so and skips). */
export function chromiumPath(): string | null {
  for (const name of ["chromium", "chromium-browser"]) {
    const r = spawnSync("sh", ["-c", 'command -v "$1"', "sh", name], { encoding: "utf8" });
    if (r.status === 0 && r.stdout.trim()) return r.stdout.trim();
  }
  return null;
}

/** What a page gave. */
export interface Rendered {
  /** The PNG screenshot of the whole page. */
  png: Buffer;
  /** The document as Chromium parsed it (`outerHTML` of the root). */
  dom: string;
  /** Every URL the page requested, the page's own included. */
  requests: string[];
}

/** The flags the brief asks for, and a fresh profile. */
function flags(profile: string): string[] {
  return [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    `--user-data-dir=${profile}`,
    "--remote-debugging-pipe",
    "about:blank",
  ];
}

/**
 * Open `url` with JavaScript disabled; screenshot it and read its DOM.
 * @param width the viewport's width in CSS pixels
 */
export async function render(browser: string, url: string, width = 1400): Promise<Rendered> {
  const profile = mkdtempSync(join(tmpdir(), "forge-chromium-"));
  const child = spawn(browser, flags(profile), { stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"] });
  const input = child.stdio[3] as Writable;
  const output = child.stdio[4] as Readable;
  let next = 0;
  const waiting = new Map<number, { ok: (v: any) => void; fail: (e: Error) => void }>();
  const events: Array<{ method: string; params: any; sessionId?: string }> = [];
  const listeners: Array<() => void> = [];
  let buf = "";
  output.setEncoding("utf8");
  output.on("data", (d: string) => {
    buf += d;
    let i: number;
    while ((i = buf.indexOf("\0")) >= 0) {
      const msg = JSON.parse(buf.slice(0, i));
      buf = buf.slice(i + 1);
      if (msg.id !== undefined) {
        const w = waiting.get(msg.id);
        waiting.delete(msg.id);
        if (msg.error) w?.fail(new Error(`${msg.error.message}`));
        else w?.ok(msg.result);
      } else {
        events.push(msg);
        for (const l of listeners) l();
      }
    }
  });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const send = (method: string, params: object = {}, sessionId?: string): Promise<any> =>
    new Promise((ok, fail) => {
      const id = ++next;
      waiting.set(id, { ok, fail });
      input.write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + "\0");
    });
  const event = (method: string, timeoutMs = 30_000): Promise<void> =>
    new Promise((ok, fail) => {
      const t = setTimeout(() => fail(new Error(`chromium: no ${method} in ${timeoutMs} ms`)), timeoutMs);
      const check = (): void => {
        if (events.some((e) => e.method === method)) {
          clearTimeout(t);
          ok();
        }
      };
      listeners.push(check);
      check();
    });
  try {
    const { targetInfos } = await send("Target.getTargets");
    const page = (targetInfos as Array<{ type: string; targetId: string }>).find((x) => x.type === "page");
    const targetId = page ? page.targetId : (await send("Target.createTarget", { url: "about:blank" })).targetId;
    const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
    await send("Page.enable", {}, sessionId);
    await send("Network.enable", {}, sessionId);
    await send("Emulation.setScriptExecutionDisabled", { value: true }, sessionId);
    await send(
      "Emulation.setDeviceMetricsOverride",
      { width, height: 900, deviceScaleFactor: 1, mobile: false },
      sessionId
    );
    events.length = 0;
    await send("Page.navigate", { url }, sessionId);
    await event("Page.loadEventFired");
    const shot = await send("Page.captureScreenshot", { format: "png", captureBeyondViewport: true }, sessionId);
    const { root } = await send("DOM.getDocument", { depth: -1 }, sessionId);
    const { outerHTML } = await send("DOM.getOuterHTML", { nodeId: root.nodeId }, sessionId);
    const requests = events
      .filter((e) => e.method === "Network.requestWillBeSent")
      .map((e) => String(e.params.request.url));
    await send("Browser.close").catch(() => undefined);
    return { png: Buffer.from(shot.data, "base64"), dom: outerHTML, requests };
  } finally {
    const t = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(t);
    rmSync(profile, { recursive: true, force: true });
  }
}
