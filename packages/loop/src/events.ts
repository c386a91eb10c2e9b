/** `events.jsonl`'s timeline: the contract's loop files (shared with `forge fsck`). */
export { chainEvents, eventHash, type LoopEvent, type ParsedEvents, parseEvents } from "@forge/contract/loop";
