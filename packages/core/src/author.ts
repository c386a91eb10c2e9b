import { ForgeError } from "./errors.js";
import { git } from "./git.js";

/**
 * The author identity: `FORGE_AUTHOR`, else git's `user.name`.
 * @param env the environment
 * @param cwd where to ask git
 * @throws ForgeError when neither is set
 */
export async function currentAuthor(env: Record<string, string | undefined>, cwd: string): Promise<string> {
  const a = env.FORGE_AUTHOR?.trim();
  if (a) return a;
  const r = await git(["config", "user.name"], { cwd }).catch(() => undefined);
  const name = r?.code === 0 ? r.stdout.trim() : "";
  if (name) return name;
  throw new ForgeError("no author: set FORGE_AUTHOR or git's user.name", "E_NO_AUTHOR", 1);
}

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
