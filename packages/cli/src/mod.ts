/**
 * @module
 * The shared CLI kit on citty: `main()` with strict flags and exit codes,
 * compact usage within the budgets, `--json [fields]` / `--jq` output,
 * refs from JSON lines on stdin, aligned tables, the stderr logger.
 */
export { aliases, bindPositionals, listArg, parseArgv, type FlagDef, type FlagsDef, type Parsed } from "./args.js";
export { batchMessage, eachRef, emitBatch, recordName, REF_ARG, type Batch } from "./batch.js";
export { exitWith, type Io, processIo, useColor } from "./io.js";
export { createLogger } from "./logger.js";
export { type Command, type Ctx, main, mainCommand, oneLine, reportError } from "./main.js";
export {
  emit,
  isFieldList,
  jsonFlags,
  jsonMode,
  jsonRequestOf,
  type JsonRequest,
  Out,
  parseJsonFields,
  type RenderOptions,
} from "./output.js";
export { commentLines, formatFields, formatTable, paint } from "./table.js";
export { renderRootUsage, renderUsage, type UsageInfo } from "./usage.js";
export { distance, nearest } from "./suggest.js";
export { COMMON_ENV, renderHelp, withDefault, type HelpCommandMeta, type HelpInfo, type HelpMeta } from "./help.js";
export { defineCommand, defineNoun, nounFlags, REPO_FLAG, type ForgeCommand } from "./define.js";
export { BODY_FLAGS, parseCommentOptions, readBody, readTextFlag } from "./body.js";
export { fractionFlag } from "./fraction_flag.js";
export { removeTemps, tempCtx } from "./test_io.js";
export {
  changeStateEach,
  confirmWrite,
  NounStore,
  passesFilters,
  writeEach,
  writtenRenderOf,
  type ListFilters,
  type StateChange,
} from "./noun.js";
