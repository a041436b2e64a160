// Notes waiting for their tool call's result. Keyed by tool call id, consumed once, and dropped
// wholesale at turn end and on session changes so nothing reaches another call.

export type PendingNote =
  | { kind: "authorize"; hookName: string; note: string }
  | { kind: "edit"; hookName: string; command: string; note?: string };

export class NoteStore {
  private readonly notes = new Map<string, PendingNote>();

  remember(toolCallId: string, note: PendingNote): void {
    this.notes.set(toolCallId, note);
  }

  consume(toolCallId: string): PendingNote | undefined {
    const note = this.notes.get(toolCallId);
    this.notes.delete(toolCallId);
    return note;
  }

  discardAll(): void {
    this.notes.clear();
  }
}
