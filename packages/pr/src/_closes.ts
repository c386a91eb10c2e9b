/**
 * gh's closing keywords: `Fixes #12`, `closes #3`, `Resolves: #7` in a PR's
 * body link the PR to those issues (GitHub's list: close, closes, closed,
 * fix, fixes, fixed, resolve, resolves, resolved; any case).
 */

const KEYWORD = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?):?[ \t]+#([1-9][0-9]{0,8})\b/gi;

/**
 * The issue numbers a body closes, in order of first mention.
 * @example closingNumbers("Fixes #12 and closes #3; see #4") // [12, 3]
 */
export function closingNumbers(body: string): number[] {
  const out: number[] = [];
  for (const m of body.matchAll(KEYWORD)) {
    const n = Number(m[1]);
    if (!out.includes(n)) out.push(n);
  }
  return out;
}
