/**
 * Text into HTML, inert: every character that means something to HTML
 * (`& < > " '`) becomes its entity, so a title like `</svg><script>` is
 * shown, never parsed; and every character that reorders or hides what is
 * shown (bidi overrides and isolates, other C0/C1 controls) is shown as its
 * code point, `[U+202E]`, so a title cannot make the words around it read
 * backwards. The same function serves text and attribute values (quoted with
 * `"`): one escape, everywhere.
 */

const ENTITY: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

// Markup, then the controls: C0 (but tab and newline), DEL and C1, the ALM, LRM/RLM, embeddings and overrides
// (U+202A..E), isolates (U+2066..9), and the line/paragraph separators.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[&<>"']|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/**
 * Escape text for HTML text or a `"`-quoted attribute value.
 * @example esc("a<b>\u202e") // "a&lt;b&gt;[U+202E]"
 */
export function esc(text: string): string {
  return text.replace(UNSAFE, (c) => ENTITY[c] ?? `[U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}]`);
}

/**
 * A CSS colour from stored data, or the fallback: only `#` and 3 or 6 hex digits pass (a label's colour is
 * user input and ends up in a `style` attribute).
 * @example cssColor("d73a4a") // "#d73a4a"
 */
export function cssColor(value: string | null | undefined, fallback = "#ededed"): string {
  const m = /^#?([0-9a-fA-F]{6}|[0-9a-fA-F]{3})$/.exec(value ?? "");
  return m ? `#${m[1]!.toLowerCase()}` : fallback;
}
