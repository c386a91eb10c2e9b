/**
 * `forge-issue list --html`: the issues as a static kanban board
 * (spec/html.md): columns open, blocked (open issues labelled `blocked`)
 * and closed, newest first in each, labels in their colours.
 */
import type { IssueJson } from "@forge/core";
import { type BoardCard, renderBoard } from "@forge/html";

/** The label that marks an issue blocked (case-insensitive). */
export const BLOCKED_LABEL = "blocked";

/** The issues (as `list` yields them) as a page. */
export function issueBoardHtml(records: readonly IssueJson[]): string {
  const blocked = (r: IssueJson): boolean => r.labels.some((l) => l.name.toLowerCase() === BLOCKED_LABEL);
  const card = (r: IssueJson): BoardCard => ({
    number: r.number,
    title: r.title,
    labels: r.labels.map((l) => ({ name: l.name, color: l.color })),
    assignees: r.assignees.map((a) => a.login),
    blocked: blocked(r),
    meta: [r.milestone ? `milestone ${r.milestone.title}` : "", r.stateReason === "NOT_PLANNED" ? "not planned" : ""]
      .filter(Boolean)
      .join(", "),
  });
  const open = records.filter((r) => r.state === "OPEN");
  return renderBoard({
    title: "forge-issue board",
    columns: [
      { name: "open", cards: open.filter((r) => !blocked(r)).map(card) },
      { name: "blocked", cards: open.filter(blocked).map(card) },
      { name: "closed", cards: records.filter((r) => r.state !== "OPEN").map(card) },
    ],
  });
}
