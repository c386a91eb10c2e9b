/**
 * The one sanitizer for text quoted in a one-line message (an error, a
 * note): a name from argv, a file, a foreign store or git's stderr may
 * hold anything, and a control character must not reach a terminal.
 */

/**
 * `text` safe to quote on one line: cut to at most `cap` characters, then
 * each control character (U+0000–U+001F, U+007F) shown as `?`. No
 * ellipsis: the bytes of the messages that quote it are part of their
 * contract. The caps callers use: 60 for a name in a usage error, 80 for a
 * path or an entry name, 200 for an id or a line of git's stderr.
 * @param cap the most characters kept (default: no cap)
 * @example printable("a\nb", 60) // "a?b"
 */
export function printable(text: string, cap = Infinity): string {
  // eslint-disable-next-line no-control-regex
  return (text.length > cap ? text.slice(0, cap) : text).replace(/[\x00-\x1f\x7f]/g, "?");
}
