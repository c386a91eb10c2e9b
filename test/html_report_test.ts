/**
 * The pictures end to end (spec/html.md): the demo (scripts/demo.mjs) on the
 * sample repository writes report.html beside report.txt and says where;
 * the page and a board of hostile issues open in headless Chromium with
 * JavaScript disabled, are screenshotted, fetch nothing but themselves, hold
 * no live markup, and show the sample's flaky check, fix PR and regressing PR
 * with their verdicts; two builds from one store are the same bytes. Without
 * Chromium installed the browser part is skipped with a message (`.ci/run`
 * installs it).
 */
import test, { type ExecutionContext } from "ava";
import { existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { liveMarkup } from "@forge/html/fixture";
import { chromiumPath, render } from "./lib/chromium.js";
import { baseEnv, ROOT, run, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const HOSTILE = `</svg></div><script>document.title="ran"</script><img src=x onerror=alert(1)> \u202Egnp.exe`;

/** The browser, or null after saying why the browser part is skipped. */
function browser(t: ExecutionContext): string | null {
  const b = chromiumPath();
  if (!b) t.log("chromium is not installed: the browser part of this test is skipped (.ci/run installs it with apt)");
  return b;
}

/** Open a page in Chromium with script off; keep its screenshot beside it; check what it fetched. */
async function open(t: ExecutionContext, b: string, file: string): Promise<string> {
  const url = pathToFileURL(file).href;
  const r = await render(b, url);
  t.true(r.png.subarray(0, 8).equals(PNG) && r.png.length > 10_000, "a screenshot");
  writeFileSync(file.replace(/\.html$/, ".png"), r.png);
  t.log(`screenshot: ${file.replace(/\.html$/, ".png")}`);
  t.deepEqual(r.requests, [url], "the page fetched nothing but itself");
  t.deepEqual(liveMarkup(r.dom), [], "no live markup in the DOM Chromium built");
  return r.dom;
}

let demo: { out: string; html: string; text: string; sample: string; info: any } | undefined;
/** The demo, run once (asynchronously: a blocked worker looks dead to ava's timeout). */
async function runDemo(): Promise<NonNullable<typeof demo>> {
  if (demo) return demo;
  const env = {
    ...(baseEnv() as NodeJS.ProcessEnv),
    TMPDIR: scratch(realpathSync(mkdtempSync(join(tmpdir(), "forge-html-")))),
  };
  const r = await run(process.execPath, [join(ROOT, "scripts", "demo.mjs")], { cwd: ROOT, env });
  const out = r.stdout;
  if (r.code !== 0) throw new Error(`demo: exit ${r.code}: ${out.slice(-2000)} ${r.stderr.slice(-2000)}`);
  const m = /^the report: (\S+) \(text\), (\S+) \(HTML\)$/m.exec(out);
  if (!m) throw new Error(`demo: no 'the report:' line in ${out.slice(-2000)}`);
  const info = JSON.parse(out.split("\n").find((l) => l.startsWith('{"dir"')) ?? "{}");
  demo = { out, text: m[1]!, html: m[2]!, sample: info.dir, info };
  return demo;
}

test.serial("the demo writes report.html beside report.txt; the page shows the sample's verdicts", async (t) => {
  t.timeout(1_200_000);
  const d = await runDemo();
  t.true(existsSync(d.text) && existsSync(d.html));
  t.is(join(d.text, ".."), join(d.html, ".."), "side by side");
  const html = readFileSync(d.html, "utf8");
  t.deepEqual(liveMarkup(html), []);
  t.false(/https?:|\/\/[a-z]/i.test(html.replace(/<style>[^<]*<\/style>/, "")), "no URL");
  const net = d.info.steps.net as string;
  // The flaky check at the base: its row, its verdict word, its interval and its trials in order.
  const row = new RegExp(`<td id="check-[^"]+" data-verdict="flaky">${net}</td><td>[0-9a-f]{12}</td>`);
  t.regex(html, row);
  t.regex(html, new RegExp(`<h3 id="pr-${d.info.prs.fix.number}" data-verdict="fixes">`));
  t.regex(html, new RegExp(`<h3 id="pr-${d.info.prs.regress.number}" data-verdict="regresses">`));
  t.regex(html, /FAIL_TO_PASS: 20-integration; PASS_TO_PASS: 10-unit/);
  t.regex(html, /<p id="halt">halted: <b>[a-z_]+<\/b>/);
  t.regex(html, /<h2 id="loop">/);
  // The text report's unresolved words, as they are.
  for (const l of readFileSync(d.text, "utf8")
    .split("\n")
    .filter((x) => x.includes("— unresolved"))) {
    const said = l.trim().replace(/&/g, "&amp;").replace(/'/g, "&#39;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    t.true(html.includes(`<li>${said}</li>`), said);
  }
  const b = browser(t);
  if (b) {
    const dom = await open(t, b, d.html);
    t.regex(dom, new RegExp(`data-verdict="flaky">${net}<`));
    t.regex(dom, /id="pr-\d+" data-verdict="fixes"/);
    t.regex(dom, /id="pr-\d+" data-verdict="regresses"/);
  }
});

test.serial("two builds from one store are the same bytes (forge-pilot report, forge-observe)", async (t) => {
  t.timeout(1_200_000);
  const d = await runDemo();
  const env = baseEnv();
  const again = join(d.html, "..", "again.html");
  const one = await run("forge-pilot", ["report", "--html", "-o", again], { cwd: d.sample, env });
  t.is(one.code, 0, one.stderr);
  t.is(one.stderr, `forge-pilot: wrote ${again}\n`);
  t.true(readFileSync(again).equals(readFileSync(d.html)), "the demo's page, built again");
  const two = await run("forge-pilot", ["report", "--html"], { cwd: d.sample, env });
  t.is(two.stdout, readFileSync(d.html, "utf8"));
  const o1 = await run("forge-observe", ["--html"], { cwd: d.sample, env });
  const o2 = await run("forge-observe", ["--html"], { cwd: d.sample, env });
  t.is(o1.code, 0, o1.stderr);
  t.is(o1.stdout, o2.stdout);
  t.deepEqual(liveMarkup(o1.stdout), []);
  // The text report again, as the run printed it.
  const text = await run("forge-pilot", ["report"], { cwd: d.sample, env });
  t.is(text.stdout, readFileSync(d.text, "utf8"));
  const json = await run("forge-pilot", ["report", "--json"], { cwd: d.sample, env });
  t.is(JSON.parse(json.stdout).kind, "report");
  t.is(json.stdout.split("\n").length, 2, "one line");
});

test.serial("boards: hostile titles, labels and assignees are text in Chromium; blocked cards marked", async (t) => {
  t.timeout(600_000);
  const dir = tempRepo();
  const env = baseEnv();
  const ok = async (cmd: string, args: string[]): Promise<void> => {
    const r = await run(cmd, args, { cwd: dir, env });
    t.is(r.code, 0, `${cmd} ${args.join(" ")}: ${r.stderr}`);
  };
  await ok("forge-label", ["create", "blocked", "--color", "b60205"]);
  await ok("forge-label", ["create", HOSTILE.slice(0, 40).replace(/,/g, ";"), "--color", "0e8a16"]);
  // A `blocked` label does not block (the links do): issue 1 has one and is open; 2 is blocked by 1.
  await ok("forge-issue", ["create", "-t", HOSTILE, "-b", HOSTILE, "-l", "blocked"]);
  await ok("forge-issue", ["create", "-t", "waits on the importer", "-b", "x", "-a", "alice"]);
  await ok("forge-issue", ["edit", "2", "--add-blocked-by", "1"]);
  await ok("forge-issue", ["create", "-t", "done one", "-b", "x", "-l", HOSTILE.slice(0, 40).replace(/,/g, ";")]);
  await ok("forge-issue", ["close", "3"]);
  await ok("forge-task", ["create", "-t", HOSTILE]);
  const issues = await run("forge-issue", ["list", "-s", "all", "--html"], { cwd: dir, env });
  t.is(issues.code, 0, issues.stderr);
  const tasks = await run("forge-task", ["list", "--html"], { cwd: dir, env });
  t.is(tasks.code, 0, tasks.stderr);
  for (const html of [issues.stdout, tasks.stdout]) {
    t.deepEqual(liveMarkup(html), []);
    t.false(html.includes("\u202E"));
    t.true(html.includes("&lt;script&gt;document.title=&quot;ran&quot;&lt;/script&gt;"));
  }
  t.regex(issues.stdout, /<h2>open \(1\)<\/h2>\n<div class="card" id="card-1">/);
  t.regex(issues.stdout, /<h2>blocked \(1\)<\/h2>\n<div class="card blocked" id="card-2"><span class="blk">blocked/);
  t.regex(issues.stdout, /id="card-2">[^\n]*<div class="meta">blocked by #1<\/div><\/div>\n/);
  t.regex(issues.stdout, /<h2>closed \(1\)<\/h2>\n<div class="card" id="card-3">/);
  t.regex(tasks.stdout, /<h2>todo \(1\)<\/h2>/);
  const usage = await run("forge-issue", ["list", "--html", "--json"], { cwd: dir, env });
  t.is(usage.code, 2);
  const b = browser(t);
  if (!b) return;
  const out = scratch(realpathSync(mkdtempSync(join(tmpdir(), "forge-board-"))));
  const file = join(out, "board.html");
  writeFileSync(file, issues.stdout);
  const dom = await open(t, b, file);
  t.regex(dom, /<title>forge-issue board<\/title>/, "the planted script did not run (the title is the page's)");
  t.true(dom.includes('&lt;script&gt;document.title="ran"&lt;/script&gt;'), "the title shown as text");
  // Chromium runs script when it is on: a probe page proves it was off.
  const probe = join(out, "probe.html");
  writeFileSync(probe, `<!DOCTYPE html><title>off</title><script>document.title="on"</script>`);
  t.regex((await render(b, pathToFileURL(probe).href)).dom, /<title>off<\/title>/);
});
