/**
 * `forge-task list --html`: the board as one static page (spec/html.md),
 * a column per status in board order, the blocked column's cards marked.
 */
import type { TaskJson, TaskStatus } from "@forge/core";
import { renderBoard } from "@forge/html";
import { issueText } from "./_shared.js";

/**
 * The tasks as a page.
 * @param statuses the columns, in board order (empty ones included)
 */
export function taskBoardHtml(records: readonly TaskJson[], statuses: readonly TaskStatus[]): string {
  return renderBoard({
    title: "forge-task board",
    columns: statuses.map((s) => ({
      name: s,
      cards: records
        .filter((r) => r.status === s)
        .map((r) => ({
          number: r.number,
          title: r.title,
          labels: [],
          assignees: r.assignees.map((a) => a.login),
          blocked: r.status === "blocked",
          meta: r.issue ? `issue ${issueText(r)}` : "",
        })),
    })),
  });
}
