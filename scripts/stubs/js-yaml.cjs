// gray-matter requires js-yaml 3 for its default YAML engine. forge always
// passes its own engines (the `yaml` package, limited), so js-yaml is dead
// code: this stub keeps 42 KB out of every executable and makes sure the
// default engine can never run.
"use strict";
function refuse() {
  throw new Error("js-yaml is not bundled: forge parses YAML with the yaml package");
}
module.exports = { safeLoad: refuse, safeDump: refuse, load: refuse, dump: refuse };
