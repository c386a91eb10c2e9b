/**
 * @module
 * Pages for people (spec/html.md): the evidence as one self-contained HTML
 * page and a static kanban board. Pure functions of data to one string: no
 * I/O, no clock, no script in the page, no external URL; every piece of
 * stored text is escaped (`esc`) on its way in.
 */
export { cssColor, esc } from "./escape.js";
export { outcomeStrip, rateBar } from "./svg.js";
export { page, table, verdict } from "./page.js";
export {
  type LoopPart,
  type PageDetail,
  renderReportPage,
  type ReportPageInput,
  type TraceRow,
} from "./report_page.js";
export { type BoardCard, type BoardInput, renderBoard } from "./board.js";
