/**
 * The contract for agents, printed by `forge --skill` (≤ 30 lines, ≤ 1000
 * bytes; a test counts).
 */
export const SKILL = `forge: gh's issues/PRs/CI as files in .forge/ of this git repo. Schema v1.
tree: .forge/issues/<id>/issue.md (+comments/<id>.md)  prs/<id>/  tasks/<id>/
  labels.md milestones.md ci/ wiki/ releases/ merges/ archive/<kind>/<id>/
files: markdown + YAML frontmatter; edit by hand or via the CLI; git syncs.
ids: uuid v4, never change. numbers: rank by (createdAt,id); a merge may renumber
refs: 12 | #12 | full id | id prefix (4+ hex) | - (JSON lines on stdin)
run: forge <noun> <verb> = forge-<noun> <verb>; forge-<noun> -h for verbs
gh-literal: same verbs, flags, --json fields (state OPEN, labels[].name)
--json [f,..]: one JSON object per line; --jq EXPR: jq over gh's array
pipe: forge-issue list -l bug --json | forge-issue close -
ship: forge-ci run <pr|->; forge-merge <pr>
evidence: forge-ci list --json | forge-export
loop: forge-observe --json | forge-plan --json; forge-loop -h
exit: 0 ok, 1 runtime error, 2 usage; errors: one line on stderr
nothing is deleted: close or archive; history is git
`;
