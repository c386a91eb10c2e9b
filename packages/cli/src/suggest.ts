/**
 * git's "did you mean": the known name nearest to a mistyped one, by edit
 * distance (a swap of two neighbours counts once), or one it begins.
 */

/**
 * The nearest of `known` to `word`: the smallest edit distance, at most 2
 * and less than the word's length, else the only name `word` is the
 * beginning of (2 letters or more); ties go to the first in code-unit order.
 * @returns undefined when nothing is near
 * @example nearest("isue", ["issue", "pr"]) // "issue"
 * @example nearest("xyz", ["issue", "pr"]) // undefined
 */
export function nearest(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of [...known].sort()) {
    const d = distance(word, k);
    if (d < bestD) {
      best = k;
      bestD = d;
    }
  }
  if (best !== undefined && bestD <= 2 && bestD < word.length) return best;
  const starts = known.filter((k) => word.length >= 2 && k.startsWith(word));
  return starts.length === 1 ? starts[0] : undefined;
}

/** Optimal string alignment distance (Damerau–Levenshtein without repeated edits of a substring). */
export function distance(a: string, b: string): number {
  if (a.length > 64 || b.length > 64) return Infinity;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
