import test from "ava";
import { chainEvents, parseEvents } from "./events.js";

function timeline(n = 3): string {
  const evs = [
    { type: "loop_started", at: "2026-01-01T00:00:00Z" },
    ...Array.from({ length: n - 1 }, (_, i) => ({ type: "round_opened", at: "2026-01-01T00:00:00Z", round: i + 1 })),
  ];
  return chainEvents({ sequence: 0, hash: "" }, evs).text;
}

test("parseEvents() reads a chained timeline back in event_sequence order", (t) => {
  const r = parseEvents(timeline(4));
  t.is(r.error, undefined);
  t.deepEqual(
    r.events!.map((e) => e.event_sequence),
    [1, 2, 3, 4]
  );
});

test("chainEvents() continues a timeline from its head", (t) => {
  const first = chainEvents({ sequence: 0, hash: "" }, [{ type: "loop_started", at: "x" }]);
  const more = chainEvents({ sequence: first.sequence, hash: first.hash }, [{ type: "paused", at: "y" }]);
  t.is(more.sequence, 2);
  t.deepEqual(
    parseEvents(first.text + more.text).events!.map((e) => e.type),
    ["loop_started", "paused"]
  );
});

const damage: Array<[string, (s: string) => string, RegExp]> = [
  ["a truncated last line", (s) => s.slice(0, -10), /line 3: (?:truncated|not JSON)/],
  ["a missing final newline", (s) => s.slice(0, -1), /line 3: truncated/],
  [
    "a gap",
    (s) => {
      const l = s.split("\n");
      l.splice(1, 1);
      return l.join("\n");
    },
    /line 2: event_sequence 3 where 2 was expected \(gap\)/,
  ],
  [
    "a duplicate",
    (s) => {
      const l = s.split("\n");
      l.splice(2, 0, l[1]!);
      return l.join("\n");
    },
    /line 3: event_sequence 2 where 3 was expected \(duplicate/,
  ],
  ["an edited field", (s) => s.replace('"round":1', '"round":7'), /line 2: hash does not match \(edited\)/],
  ["an unparsable line", (s) => s.replace(/^\{/m, "{{"), /line 1: not JSON/],
  ["a non-object line", (s) => "[1]\n" + s, /line 1: not a JSON object/],
  ["an empty file", () => "", /empty/],
];
for (const [name, fn, re] of damage) {
  test(`parseEvents() names the line of ${name} and never repairs it`, (t) => {
    const r = parseEvents(fn(timeline(3)));
    t.is(r.events, undefined);
    t.regex(r.error!, re);
  });
}
