/**
 * `<verb> --help` is the full page (git's split; `-h` stays within its
 * budget): for every verb of every executable built from packages/, each
 * flag of its table is on the page with a one-line description and its
 * default, each argument described, two or three examples; the page
 * matches its golden (test/golden/help/full/). The flag tables are read
 * from the built packages themselves, so a flag added without a
 * description fails here.
 */
import test from "ava";
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { golden } from "./lib/golden.js";
import { run } from "./lib/run.js";

const PACKAGES = fileURLToPath(new URL("../../packages/", import.meta.url));

interface Flag {
  type?: string;
  description?: string;
  valueHint?: string;
  alias?: string | string[];
}
interface Verb {
  meta?: { name?: string; description?: string };
  args?: Record<string, Flag>;
}

/** Every executable built from a package, with its verbs' flag tables (a verbless one is its own verb ""). */
async function executables(): Promise<Array<{ bin: string; verbs: Array<[string, Verb]> }>> {
  const out: Array<{ bin: string; verbs: Array<[string, Verb]> }> = [];
  for (const dir of readdirSync(PACKAGES).sort()) {
    let pkg: { forge?: { bin?: string } };
    try {
      pkg = JSON.parse(readFileSync(join(PACKAGES, dir, "package.json"), "utf8")) as typeof pkg;
    } catch {
      continue;
    }
    const bin = pkg.forge?.bin;
    // forge's and forge-pilot's help are their own (goldens: budget_test, loop_help_test), not a verb's page.
    if (!bin || bin === "forge" || bin === "forge-pilot") continue;
    // bin.ts imports the root command (or the one command) from a sibling module.
    const entry = /import (?:\w+)(?:, \{[^}]*\})? from "\.\/([\w_]+)\.js"/.exec(
      readFileSync(join(PACKAGES, dir, "src", "bin.ts"), "utf8")
    )?.[1];
    if (!entry) throw new Error(`${dir}/src/bin.ts: no root import`);
    const root = (
      (await import(join(PACKAGES, dir, "dist", `${entry}.js`))) as {
        default: { subCommands?: Record<string, () => Promise<Verb>> } & Verb;
      }
    ).default;
    const verbs: Array<[string, Verb]> = [];
    if (root.subCommands) for (const [name, lazy] of Object.entries(root.subCommands)) verbs.push([name, await lazy()]);
    else verbs.push(["", root]);
    out.push({ bin, verbs });
  }
  return out;
}

const ALL = await executables();

/** A command line's words, as sh splits them (quotes, no expansions); a redirection's target stays glued to it. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  const re = /\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([^\s"']+))/gy;
  let cur: string | undefined;
  let last = 0;
  for (let m; (m = re.exec(line)) !== null && m[0] !== "";) {
    const piece = m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (m[2] ?? m[3] ?? "");
    const glued = m.index === last && !/^\s/.test(m[0]) && cur !== undefined;
    if (glued) cur += piece;
    else {
      if (cur !== undefined) words.push(cur);
      cur = piece;
    }
    last = re.lastIndex;
  }
  if (cur !== undefined) words.push(cur);
  // "> file": drop the redirection and its target.
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    if (/^[0-9]?>>?$/.test(words[i]!)) i++;
    else out.push(words[i]!);
  }
  return out;
}

/** The page's lines under `heading:` up to the next blank line. */
function section(page: string, heading: string): string[] {
  const lines = page.split("\n");
  const at = lines.indexOf(`${heading}:`);
  if (at < 0) return [];
  const end = lines.indexOf("", at);
  return lines.slice(at + 1, end < 0 ? undefined : end);
}

for (const { bin, verbs } of ALL) {
  for (const [verb, def] of verbs) {
    const argv = verb ? [verb] : [];
    const name = [bin, verb].filter(Boolean).join(" ");
    test(
      `${name} --help: every flag and argument described ` + `with its default, examples, golden; -h within budget`,
      async (t) => {
        const full = await run(bin, [...argv, "--help"], { cwd: tmpdir() });
        t.is(full.code, 0, full.stderr);
        t.is(full.stderr, "");
        const page = full.stdout;
        const flags = section(page, "flags");
        for (const [flag, d] of Object.entries(def.args ?? {})) {
          if (d.type === "positional") {
            const hint = `<${d.valueHint ?? flag}>`;
            const line = section(page, "arguments").find((l) => l.trimStart().startsWith(hint + " "));
            t.truthy(line, `${name}: argument ${hint} not on the page`);
            t.regex(
              line ?? "",
              new RegExp(`${hint.replace(/[|]/g, "\\|")}\\s+\\S.{8,}`),
              `${name}: argument ${hint} has no description`
            );
            continue;
          }
          const line = flags.find((l) => new RegExp(`^  (-\\w, )?--${flag}\\b`).test(l));
          t.truthy(line, `${name}: --${flag} not on the page`);
          const text = (line ?? "").replace(/^  \S.*?\s{2,}/, "");
          t.regex(
            text,
            /\w.*\w.*\b(default|required)\b/,
            `${name}: --${flag} needs a one-line description and its default: '${text}'`
          );
          t.notRegex(text, /^\(default/, `${name}: --${flag} has only a default, no description`);
        }
        const examples = section(page, "examples").map((l) => l.trim());
        t.true(examples.length >= 2, `${name}: two or three examples`);
        // Every example's own command line parses: its flags exist and take what they are given (-h stops before it
        // runs).
        for (const ex of examples) {
          for (const seg of ex.split(" | ")) {
            const words = shellWords(seg);
            if (words[0] !== bin || (verb && words[1] !== verb && !(bin === "forge-merge" && verb === "pr"))) continue;
            const rest = words.slice(bin === "forge-merge" && verb === "pr" && words[1] !== "pr" ? 1 : verb ? 2 : 1);
            const r = await run(bin, [...argv, ...rest.filter((w) => !/^[0-9]?>/.test(w)), "-h"], { cwd: tmpdir() });
            t.is(r.code, 0, `${name} example '${seg}': ${r.stderr}`);
          }
        }
        golden(t, `help/full/${name.replace(/ /g, "-")}.txt`, page);
        const short = await run(bin, [...argv, "-h"], { cwd: tmpdir() });
        t.is(short.code, 0);
        t.true(
          short.stdout.split("\n").length - 1 <= 8,
          `${name} -h: ${short.stdout.split("\n").length - 1} lines > 8`
        );
        t.true(Buffer.byteLength(short.stdout) <= 250, `${name} -h: ${Buffer.byteLength(short.stdout)} bytes > 250`);
      }
    );
  }
}

test("forge help <noun> <verb> is that verb's full page", async (t) => {
  const a = await run("forge", ["help", "ci", "run"], { cwd: tmpdir() });
  const b = await run("forge-ci", ["run", "--help"], { cwd: tmpdir() });
  t.is(a.stdout, b.stdout);
  t.regex(a.stdout, /^reads:$/m);
});
