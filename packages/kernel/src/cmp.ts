/**
 * Plain string order (UTF-16 code units), never the locale: every machine agrees.
 * @example ["b", "B", "a"].sort(cmp) // ["B", "a", "b"]
 */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
