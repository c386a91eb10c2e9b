import test from "ava";
import { defaults, parseArgv, reportedConfig } from "./flags.js";

test("parseArgv: every LoopConfig field is a flag, as --flag value or --flag=value", (t) => {
  const { verb, config } = parseArgv(
    ["run", "--max-iterations", "4", "--halt-threshold=0.5", "--scope", "s:1", "--json", "--refine-with", "r x"],
    "/r"
  );
  t.is(verb, "run");
  t.is(config.maxIterations, 4);
  t.is(config.haltThreshold, 0.5);
  t.is(config.scope, "s:1");
  t.true(config.json);
  t.is(config.refineWith, "r x");
  t.is(config.workspace, "/r");
});

test("parseArgv: usage errors in the pilot's own words", (t) => {
  const bad: Array<[string[], string]> = [
    [[], "a verb is needed (run, observe, plan, explain, report)"],
    [["go"], "unknown verb 'go'"],
    [["run", "x"], "unexpected argument 'x'"],
    [["run", "--constructor"], "unknown flag '--constructor'"],
    [["run", "--json=1"], "--json takes no value"],
    [["run", "--scope"], "--scope needs a value"],
    [["run", "--scope="], "--scope needs a value"],
    [["run", "--halt-threshold", "2"], "invalid halt-threshold '2' (a number in [0, 1])"],
    [["run", "--cooldown", "1.5"], "invalid cooldown '1.5' (a whole number)"],
    [["run", "--max-iterations", "0"], "invalid max-iterations '0' (at least 1)"],
    [["plan", "--scope", "a b"], "invalid scope 'a b' (letters, digits, . _ : -)"],
    [["run", "--html"], "--html and -o are report's flags"],
    [["report", "--html", "--json"], "--json and --html: choose one"],
    [["report", "-o"], "--output needs a value"],
    [["run", "--hosts"], "--hosts needs a value"],
    [["plan", "--hosts", "h"], "--hosts is run's flag (the acts run over the hosts)"],
  ];
  for (const [argv, message] of bad) {
    t.throws(() => parseArgv(argv, "/r"), { code: "E_USAGE", message }, argv.join(" "));
  }
});

test("parseArgv: report --html -o FILE", (t) => {
  const { verb, config } = parseArgv(["report", "--html", "-o", "r.html"], "/r");
  t.is(verb, "report");
  t.true(config.html);
  t.is(config.output, "r.html");
});

test("parseArgv: run --hosts FILE, relative to the working directory (not the workspace)", (t) => {
  t.is(parseArgv(["run", "--hosts", "h/slf"], "/r").config.hosts, "/r/h/slf");
  t.is(parseArgv(["run", "--workspace", "/w", "--hosts", "slf"], "/r").config.hosts, "/r/slf");
  t.is(parseArgv(["run", "--hosts=/etc/slf"], "/r").config.hosts, "/etc/slf");
  t.is(parseArgv(["run"], "/r").config.hosts, null);
});

test("reportedConfig: keyed by flag, in the report's order, without json and workspace", (t) => {
  const c = { ...defaults("/r"), json: true, history: "h.jsonl" };
  t.is(
    JSON.stringify(reportedConfig(c)),
    JSON.stringify({
      "max-iterations": 32,
      "time-budget": 1200,
      cooldown: 0,
      "halt-threshold": 0.25,
      "max-retries": 3,
      scope: "default",
      "oracle-max-iterations": 4,
      "minimal-perturbation-budget": 2,
      "allow-advisory-only": false,
      "include-hyperedges": false,
      "refine-with": null,
      history: "h.jsonl",
      hosts: null,
    })
  );
});
