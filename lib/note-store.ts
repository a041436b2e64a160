// Notes waiting for their tool call's result. Keyed by tool call id, consumed once, and dropped
// wholesale at turn end and on session changes so nothing reaches another call.
//
// A call another call made (pi 1.x: a codemode script's `tools.bash(…)`) returns its result to
// that call, not to the agent. Its note rides its own result as usual, and is also relayed to the
// agent's own call at the root of the chain, whose result the agent reads.
import { getOrAdd } from "./values.ts";

export type PendingNote =
  | { kind: "authorize"; nameOfHook: string; note: string }
  | { kind: "edit"; nameOfHook: string; command: string; note?: string }
  | { kind: "abort"; nameOfHook: string; note?: string };

/** A note about a call another call made, and that call: its tool and the arguments it was made with. */
export interface RelayedNote {
  toolName: string;
  args: string;
  note: PendingNote;
}

export interface NotesForResult {
  /** The call's own note. */
  note?: PendingNote;
  /** Notes about calls it made, at any depth, in the order they were relayed. */
  relayed: RelayedNote[];
}

export class NoteStore {
  readonly #notes = new Map<string, PendingNote>();
  /** A call's parent, for every call another call made. */
  readonly #parents = new Map<string, string>();
  /** Notes waiting for the result of the agent's call that made their calls. */
  readonly #relayed = new Map<string, RelayedNote[]>();
  /** The agent's calls that made calls and whose result has not come yet. */
  readonly #running = new Set<string>();

  remember(toolCallId: string, note: PendingNote): void {
    this.#notes.set(toolCallId, note);
  }

  /** `toolCallId` was made by the call `parentId`, not by the agent. */
  madeBy(toolCallId: string, parentId: string): void {
    this.#parents.set(toolCallId, parentId);
    this.#running.add(this.rootOf(parentId));
  }

  /** The agent's own call at the root of `toolCallId`'s chain of parents; itself for the agent's calls. */
  rootOf(toolCallId: string): string {
    let id = toolCallId;
    for (let parent = this.#parents.get(id); parent !== undefined; parent = this.#parents.get(id)) id = parent;
    return id;
  }

  /** Keeps a note about `toolCallId`, a call another call made, for the result of the agent's call at its root. */
  relay(toolCallId: string, note: RelayedNote): void {
    getOrAdd(this.#relayed, this.rootOf(toolCallId), () => []).push(note);
  }

  /**
   * Whether the agent's call at the root of `toolCallId`, a call another call made, is still
   * running: its result, which notes about the call must ride, has not come, nor has the turn ended.
   */
  rootRunning(toolCallId: string): boolean {
    return this.#running.has(this.rootOf(toolCallId));
  }

  /** What goes before `toolCallId`'s result; undefined when nothing does. Each note goes once. */
  consume(toolCallId: string): NotesForResult | undefined {
    const note = this.#notes.get(toolCallId);
    this.#notes.delete(toolCallId);
    const relayed = this.#relayed.get(toolCallId) ?? [];
    this.#relayed.delete(toolCallId);
    this.#running.delete(toolCallId);
    if (!note && !relayed.length) return undefined;
    return { note, relayed };
  }

  discardAll(): void {
    this.#notes.clear();
    this.#parents.clear();
    this.#relayed.clear();
    this.#running.clear();
  }
}
