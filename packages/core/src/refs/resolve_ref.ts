import { AmbiguousRefError, ForgeError, NotFoundError, UsageError } from "../errors.js";
import type { EntityRef } from "../store/entities_dir.js";
import type { OrderEntry, Unranked } from "../entities/order.js";

/** A ranked list: an array of entries, or an `Order`. */
export interface Ranked {
  readonly length: number;
  at(i: number): OrderEntry | undefined;
}

/** A resolved ref: the entity and its derived number. */
export interface Resolved {
  readonly ref: EntityRef;
  readonly number: number;
}

const NUMBER = /^#?([1-9][0-9]{0,8})$/;
const PREFIX = /^[0-9a-f][0-9a-f-]{3,35}$/;
/** An item's URL as forge prints it (`<web>/issues/12`, `<web>/pull/12`), as gh takes one for an argument. */
const URL_REF = /^(?:https?|file):\/\/\S*\/(issues|pull)\/([1-9][0-9]{0,8})\/?$/;
/** The URL segment of each noun that has one. */
const URL_SEGMENT: Record<string, string> = { issue: "issues", "pull request": "pull" };

/**
 * Resolve a user's ref against a ranked kind: a number (`12` or `#12`), the
 * item's URL (`…/issues/12`, `…/pull/12`, as forge prints `url`), a full id,
 * or a unique id prefix of at least 4 hex characters. (`-`, for
 * JSON lines on stdin, is handled by the caller.)
 * @param entries the kind's order (number = index + 1)
 * @param input the ref as typed
 * @param noun for messages, e.g. `issue`
 * @param unranked entities left out of the order (unreadable files): an id
 *   or prefix that matches only one of them throws that file's error, so the
 *   message names the file instead of saying nothing matches
 * @returns the entity and its number
 * @throws UsageError for a malformed ref; NotFoundError; AmbiguousRefError; the unranked entity's error
 * @example resolveRef(entries, "#2", "issue") // {ref: entries[1].ref, number: 2}
 */
export function resolveRef(entries: Ranked, input: string, noun: string, unranked: readonly Unranked[] = []): Resolved {
  const url = URL_REF.exec(input);
  if (url && URL_SEGMENT[noun] !== undefined) {
    if (url[1] !== URL_SEGMENT[noun]) {
      throw new UsageError(`'${input.slice(0, 60)}' is no ${noun} URL (…/${URL_SEGMENT[noun]}/<number>)`);
    }
    input = url[2]!;
  }
  const n = NUMBER.exec(input);
  if (n) {
    const num = Number(n[1]);
    // An unreadable file could rank anywhere: a number might name the wrong entity.
    const u = unranked[0];
    if (u)
      throw new ForgeError(
        `cannot resolve #${num} while numbers are uncertain (use an id): ${u.error.message}`,
        "E_UNCERTAIN_NUMBERS",
        1
      );
    const e = entries.at(num - 1);
    if (!e) throw new NotFoundError(`no ${noun} #${num}`);
    return { ref: e.ref, number: num };
  }
  const p = input.toLowerCase();
  if (!PREFIX.test(p)) {
    throw new UsageError(
      `invalid ${noun} ref '${input.slice(0, 40)}' (a number, an id, or an id prefix of 4+ hex digits)`
    );
  }
  let found = -1;
  for (let i = 0; i < entries.length; i++) {
    if (!entries.at(i)!.ref.id.startsWith(p)) continue;
    if (found >= 0) throw new AmbiguousRefError(`${noun} ref '${input}' matches more than one ${noun}`);
    found = i;
  }
  if (found < 0) {
    const bad = unranked.find((u) => u.ref.id.startsWith(p));
    throw bad ? bad.error : new NotFoundError(`no ${noun} matches '${input.slice(0, 40)}'`);
  }
  return { ref: entries.at(found)!.ref, number: found + 1 };
}
