import { ForgeError } from "./errors.js";
import { git } from "./git.js";

/**
 * The author identity, and what `@me` means: `FORGE_AUTHOR`, else the login
 * set with `git config forge.login`, else git's `user.name`. gh uses the
 * authenticated login; forge has no account, so a login is configured
 * (`git config --global forge.login octocat`), and `user.name` (often a full
 * name with a space) is the last resort.
 * @param env the environment
 * @param cwd where to ask git
 * @throws ForgeError when none is set, or forge.login is not a login
 */
export async function currentAuthor(env: Record<string, string | undefined>, cwd: string): Promise<string> {
  const a = env.FORGE_AUTHOR?.trim();
  if (a) return a;
  // One git for both keys: `forge.login` wins over `user.name` whatever order git lists them in.
  const r = await git(["config", "--get-regexp", "^(forge\\.login|user\\.name)$"], { cwd }).catch(() => undefined);
  const values = new Map<string, string>();
  for (const line of r?.code === 0 ? r.stdout.split("\n") : []) {
    const sp = line.indexOf(" ");
    if (sp > 0) values.set(line.slice(0, sp).toLowerCase(), line.slice(sp + 1).trim());
  }
  const login = values.get("forge.login");
  if (login) {
    if (!LOGIN.test(login))
      throw new ForgeError(
        "git config forge.login: not a login (letters, digits, '-', '_', '.', '@' and no spaces)",
        "E_NO_AUTHOR",
        1
      );
    return login;
  }
  const name = values.get("user.name");
  if (name) return name;
  throw new ForgeError("no author: set FORGE_AUTHOR, git config forge.login, or git's user.name", "E_NO_AUTHOR", 1);
}

/** A login as forge.login must spell it: one word (GitHub's logins are letters, digits and '-'). */
const LOGIN = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,99}$/;

/**
 * Replace `@me` with the author identity.
 * @example expandMe(["@me", "bob"], "alice") // ["alice", "bob"]
 */
export function expandMe(names: string[], me: string): string[] {
  return names.map((n) => (n === "@me" ? me : n));
}

/**
 * A list edit as gh's `--add-x` / `--remove-x` make it: the removed ones
 * dropped, the added ones appended once each, the order otherwise kept.
 * @example editList(["a", "b"], ["c", "a"], ["b"]) // ["a", "c"]
 */
export function editList(list: readonly string[], add: readonly string[], remove: readonly string[]): string[] {
  const out = list.filter((x) => !remove.includes(x));
  for (const a of add) if (!out.includes(a)) out.push(a);
  return out;
}
