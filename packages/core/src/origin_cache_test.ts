import test from "ava";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { flushCacheWrites } from "./store/cache_file.js";
import { originUrl } from "./origin_cache.js";

// The tests change HOME (the global config git reads): serially, and back after.
const home = process.env.HOME;
test.after.always(() => {
  process.env.HOME = home;
});

/** A repository with its own HOME and cache folder; its config files past the racy-clean window. */
async function repo(): Promise<{ dir: string; cache: string }> {
  const base = mkdtempSync(join(tmpdir(), "forge-origin-"));
  const dir = join(base, "repo");
  mkdirSync(join(base, "home"));
  process.env.HOME = join(base, "home");
  execFileSync("git", ["init", "-q", dir]);
  await still();
  return { dir, cache: join(dir, ".forge", ".cache") };
}

const still = (): Promise<void> => new Promise((r) => setTimeout(r, 80));
const gitIn = (dir: string, ...args: string[]): string => execFileSync("git", args, { cwd: dir, encoding: "utf8" });

/** originUrl's answer (its cache writes made). */
async function ask(dir: string, cache: string): Promise<{ stdout: string; code: number }> {
  const r = await originUrl(dir, cache);
  flushCacheWrites();
  return { stdout: r.stdout, code: r.code };
}

/** originUrl's answer with no git on PATH: only the cache can give it ("asked git" when it did not). */
async function cachedOnly(dir: string, cache: string): Promise<string> {
  const path = process.env.PATH;
  process.env.PATH = join(dir, "no-such-bin");
  try {
    return (await originUrl(dir, cache)).stdout;
  } catch {
    return "asked git";
  } finally {
    process.env.PATH = path;
  }
}

test.serial("originUrl() keeps git's answer and follows every config change", async (t) => {
  const { dir, cache } = await repo();
  // No origin: git's exit code kept too.
  t.is(await cachedOnly(dir, cache), "asked git");
  t.like(await ask(dir, cache), { stdout: "", code: 2 });
  t.like(await ask(dir, cache), { stdout: "", code: 2 });
  t.is(await cachedOnly(dir, cache), "");
  gitIn(dir, "remote", "add", "origin", "https://example.com/a/b.git");
  await still();
  t.is(await cachedOnly(dir, cache), "asked git");
  t.like(await ask(dir, cache), { stdout: "https://example.com/a/b.git\n", code: 0 });
  // Kept: answered with no git at all.
  t.is(await cachedOnly(dir, cache), "https://example.com/a/b.git\n");
  // A rewrite in the global config (not the repository's) moves the answer.
  writeFileSync(
    join(process.env.HOME!, ".gitconfig"),
    '[url "https://mirror.test/"]\n\tinsteadOf = https://example.com/\n'
  );
  await still();
  t.is((await ask(dir, cache)).stdout, "https://mirror.test/a/b.git\n");
  t.is((await ask(dir, cache)).stdout, gitIn(dir, "remote", "get-url", "origin"));
  // The same size, in place: the stamp (mtime, ctime) still moves it.
  writeFileSync(
    join(process.env.HOME!, ".gitconfig"),
    '[url "https://mirror.tst/"]\n\tinsteadOf = https://example.com/\n'
  );
  await still();
  t.is((await ask(dir, cache)).stdout, "https://mirror.tst/a/b.git\n");
  // A global config that is a symlink (dotfiles): a change to what it points at moves the answer.
  const dotfiles = join(dir, "..", "dotfiles");
  writeFileSync(dotfiles, "");
  rmSync(join(process.env.HOME!, ".gitconfig"));
  symlinkSync(dotfiles, join(process.env.HOME!, ".gitconfig"));
  await still();
  t.is((await ask(dir, cache)).stdout, "https://example.com/a/b.git\n");
  t.is((await ask(dir, cache)).stdout, "https://example.com/a/b.git\n");
  writeFileSync(dotfiles, '[url "https://mirror.test/"]\n\tinsteadOf = https://example.com/\n');
  await still();
  t.is((await ask(dir, cache)).stdout, "https://mirror.test/a/b.git\n");
  // Another HOME: another global config.
  process.env.HOME = join(dir, "..");
  t.is((await ask(dir, cache)).stdout, "https://example.com/a/b.git\n");
});

test.serial("originUrl() asks git each time where the stamps cannot vouch", async (t) => {
  const { dir, cache } = await repo();
  gitIn(dir, "remote", "add", "origin", "https://example.com/a/b.git");
  // An include: what it names can change without the stamped files changing.
  writeFileSync(join(process.env.HOME!, ".gitconfig"), `[include]\n\tpath = ${join(dir, "..", "extra")}\n`);
  await still();
  t.is((await ask(dir, cache)).stdout, "https://example.com/a/b.git\n");
  t.is(await cachedOnly(dir, cache), "asked git");
  writeFileSync(join(dir, "..", "extra"), '[url "https://mirror.test/"]\n\tinsteadOf = https://example.com/\n');
  t.is((await ask(dir, cache)).stdout, "https://mirror.test/a/b.git\n");
  // A change within the racy-clean window: answered, not kept.
  writeFileSync(join(process.env.HOME!, ".gitconfig"), "");
  t.is((await ask(dir, cache)).stdout, "https://example.com/a/b.git\n");
  t.is(await cachedOnly(dir, cache), "asked git");
  await still();
  t.is((await ask(dir, cache)).stdout, "https://example.com/a/b.git\n");
  t.is(await cachedOnly(dir, cache), "https://example.com/a/b.git\n");
  // A GIT_ variable can point git anywhere: the cache is not read.
  process.env.GIT_DIR = join(dir, "nowhere");
  try {
    t.is((await ask(dir, cache)).code, 128);
  } finally {
    delete process.env.GIT_DIR;
  }
});

test.serial("originUrl() does not answer for another folder, or a torn cache", async (t) => {
  const { dir, cache } = await repo();
  gitIn(dir, "remote", "add", "origin", "https://example.com/a/b.git");
  await still();
  t.is((await ask(dir, cache)).stdout, "https://example.com/a/b.git\n");
  // A nested repository: git finds it, not the outer one.
  const inner = join(dir, "inner");
  execFileSync("git", ["init", "-q", inner]);
  gitIn(inner, "remote", "add", "origin", "https://example.com/c/d.git");
  await still();
  t.is((await ask(inner, cache)).stdout, "https://example.com/c/d.git\n");
  t.is((await ask(dir, cache)).stdout, "https://example.com/a/b.git\n");
  t.is(await cachedOnly(dir, cache), "https://example.com/a/b.git\n");
  // Torn or edited (the check no longer holds): never an answer.
  const kept = readFileSync(join(cache, "origin"), "utf8");
  writeFileSync(join(cache, "origin"), kept.replace("a/b.git", "x/y.git"));
  t.is(await cachedOnly(dir, cache), "asked git");
  writeFileSync(join(cache, "origin"), kept.slice(0, -5));
  t.is(await cachedOnly(dir, cache), "asked git");
  writeFileSync(join(cache, "origin"), kept);
  t.is(await cachedOnly(dir, cache), "https://example.com/a/b.git\n");
});
