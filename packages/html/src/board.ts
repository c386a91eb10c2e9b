/**
 * A static kanban board (`forge-task list --html`, `forge-issue list
 * --html`): one column per status, a card per item with its number, title,
 * labels (in their colours), assignees, and a mark on a blocked card. No
 * server, no script: the page is the board as it was when written.
 */
import { cssColor, esc } from "./escape.js";
import { page } from "./page.js";

/** One card. */
export interface BoardCard {
  number: number;
  title: string;
  labels: ReadonlyArray<{ name: string; color?: string | null }>;
  assignees: readonly string[];
  blocked: boolean;
  /** One more line of plain text (the linked issue, the milestone), or empty. */
  meta: string;
}

/** The board: its columns in order. */
export interface BoardInput {
  title: string;
  columns: ReadonlyArray<{ name: string; cards: readonly BoardCard[] }>;
}

/**
 * Render the board.
 * @example renderBoard({ title: "tasks", columns: [{ name: "todo", cards: [] }] })
 */
export function renderBoard(b: BoardInput): string {
  const total = b.columns.reduce((k, c) => k + c.cards.length, 0);
  const cols = b.columns.map((c) => {
    const cards = c.cards.map(card).join("");
    return `<section class="col"><h2>${esc(c.name)} (${c.cards.length})</h2>\n${cards}</section>\n`;
  });
  return page(
    b.title,
    `<h1>${esc(b.title)}</h1>\n<p>${total} cards</p>\n<div class="board">\n${cols.join("")}</div>\n`
  );
}

// --- internal ---

function card(c: BoardCard): string {
  const labels = c.labels
    .map((l) => `<span class="lbl" style="background:${cssColor(l.color)}33">${esc(l.name)}</span>`)
    .join("");
  const who = c.assignees.length ? `<div class="meta">@${c.assignees.map(esc).join(" @")}</div>` : "";
  const meta = c.meta ? `<div class="meta">${esc(c.meta)}</div>` : "";
  return (
    `<div class="card${c.blocked ? " blocked" : ""}" id="card-${c.number}">` +
    `${c.blocked ? `<span class="blk">blocked</span> ` : ""}<b>#${c.number}</b> ${esc(c.title)}` +
    `${labels ? `<div>${labels}</div>` : ""}${who}${meta}</div>\n`
  );
}
