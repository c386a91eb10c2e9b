/**
 * The contract for agents, printed by `forge --skill` (≤ 30 lines, ≤ 1000
 * bytes; a test counts).
 */
export const SKILL = `forge: gh's issues/PRs/CI as files in .forge/ of this repo. Schema v1.
tree: .forge/issues/<id>/issue.md (+comments/<id>.md) prs/<id>/ tasks/<id>/
  labels.md milestones.md ci/ wiki/ releases/ merges/ loops/ archive/
files: markdown + YAML frontmatter, by hand or CLI
git: forge sync commits .forge/ on main; PR patches leave it out
ids: uuid v4, fixed; numbers: rank by (createdAt,id), merges may renumber
refs: 12 | #12 | id | id prefix (4+ hex) | - (JSON lines or array)
run: forge <noun> <verb> = forge-<noun> <verb>; -h short, --help full
gh-literal: same verbs, flags, --json fields (state OPEN, labels[].name)
--json [f,..]: JSON lines; --jq EXPR: jq on gh's array
pipe: forge-issue list -l bug --json | forge-issue close -
ship: forge-ci run <pr|->; forge pr merge <pr>
evidence: forge-ci list --json | forge-export
loop: forge-pilot run (observe>plan>act>export); rounds: forge-loop
exit: 0 ok, 1 runtime, 2 usage; errors: 1 stderr line
nothing is deleted: close or archive; history is git
`;
