/**
 * `forge-issue list --html`: the issues as a static kanban board
 * (spec/html.md): columns open, blocked (open issues with an open blocker
 * or a blocked ancestor: the links of spec/schema.md "Dependencies", as
 * `--ready` reads them) and closed, newest first in each, labels in their
 * colours.
 */
import type { IssueJson } from "@forge/core";
import { type BoardCard, renderBoard } from "@forge/html";

/**
 * The issues (as `list` yields them) as a page.
 * @param blockers an issue's open blockers by number (those of the nearest blocked issue up its parent chain),
 *   empty when it is not blocked
 */
export function issueBoardHtml(records: readonly IssueJson[], blockers: (id: string) => readonly number[]): string {
  const by = new Map<string, readonly number[]>();
  for (const r of records) if (r.state === "OPEN") by.set(r.id, blockers(r.id));
  const blocked = (r: IssueJson): boolean => (by.get(r.id)?.length ?? 0) > 0;
  const card = (r: IssueJson): BoardCard => ({
    number: r.number,
    title: r.title,
    labels: r.labels.map((l) => ({ name: l.name, color: l.color })),
    assignees: r.assignees.map((a) => a.login),
    blocked: blocked(r),
    meta: [
      blocked(r)
        ? `blocked by ${by
            .get(r.id)!
            .map((n) => `#${n}`)
            .join(", ")}`
        : "",
      r.milestone ? `milestone ${r.milestone.title}` : "",
      r.stateReason === "NOT_PLANNED" ? "not planned" : "",
    ]
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
