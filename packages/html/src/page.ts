/**
 * The page around the content: one HTML document with its style inline, no
 * script, no external URL (no font, no image, no link out), readable with
 * JavaScript off and printable. Its content is escaped by the callers (esc).
 */
import { esc } from "./escape.js";

const CSS = `
:root{color-scheme:light;font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1f2328;background:#fff}
body{margin:16px 24px;max-width:1400px}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 6px;border-bottom:1px solid #d0d7de}
h3{font-size:14px;margin:14px 0 4px}
table{border-collapse:collapse;margin:4px 0}th,td{padding:2px 8px;text-align:left;vertical-align:middle;
border-bottom:1px solid #eaeef2}th{font-weight:600;background:#f6f8fa}
td.n{text-align:right;font-variant-numeric:tabular-nums}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px}
.v{font-weight:600;padding:0 6px;border-radius:8px;white-space:nowrap}
.v-passing,.v-verified,.v-fixed,.v-still_passing{background:#dafbe1;color:#116329}
.v-failing,.v-contradicted,.v-regressed,.v-still_failing{background:#ffebe9;color:#a40e26}
.v-flaky,.v-flaky_baseline,.v-flaky_patched{background:#fff8c5;color:#7d4e00}
.v-unknown,.v-unverified,.v-unavailable,.v-inconclusive,.v-error,.v-skipped{background:#eaeef2;color:#57606a}
.open{color:#9a6700;font-weight:600}
svg.bar{width:160px;height:14px;vertical-align:middle}svg.bar .ax{stroke:#8c959f;stroke-width:.6;fill:none}
svg.bar .iv{fill:#54aeff;opacity:.7}svg.bar .r{stroke:#0a3069;stroke-width:1.5}
svg.strip{width:260px;height:10px;vertical-align:middle}svg.strip .p{fill:#4ac26b}
svg.strip .f{stroke:#cf222e;stroke-width:8;fill:none}svg.strip .e{stroke:#6e7781;stroke-width:8;fill:none}
.none{color:#6e7781}ul.plain{margin:4px 0;padding-left:18px}
.board{display:flex;gap:12px;align-items:flex-start}.col{flex:1 1 0;min-width:180px;background:#f6f8fa;
border-radius:6px;padding:6px}.col h2{margin:0 0 6px;border:0}.card{background:#fff;border:1px solid #d0d7de;
border-radius:6px;padding:6px;margin:0 0 6px}.card.blocked{border-left:4px solid #cf222e}
.lbl{display:inline-block;padding:0 6px;border-radius:8px;font-size:12px;margin:2px 2px 0 0;border:1px solid #d0d7de}
.meta{color:#57606a;font-size:12px}.blk{color:#cf222e;font-weight:600;font-size:12px}
@media print{svg.strip{width:200px}}
`;

/**
 * A whole page.
 * @param title plain text (escaped here)
 * @param body HTML, already escaped
 */
export function page(title: string, body: string): string {
  return (
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">` +
    `<title>${esc(title)}</title><style>${CSS.trim()}</style></head>\n<body>\n${body}</body></html>\n`
  );
}

/** A table: a header row and body rows of cells (HTML, already escaped). */
export function table(head: readonly string[], rows: readonly (readonly string[])[], cls = ""): string {
  const th = head.map((h) => `<th>${h}</th>`).join("");
  const tr = rows.map((r) => `<tr>${r.map((c) => (c.startsWith("<td") ? c : `<td>${c}</td>`)).join("")}</tr>\n`);
  return `<table${cls ? ` class="${cls}"` : ""}><thead><tr>${th}</tr></thead><tbody>\n${tr.join("")}</tbody></table>\n`;
}

/** A verdict word, styled by what it is (the word is the text; the colour only repeats it). */
export function verdict(word: string): string {
  const w = esc(word);
  return `<span class="v v-${/^[a-z_]+$/.test(word) ? word : "unknown"}">${w}</span>`;
}
