// Every string a human or the agent reads. Pure functions; styling enters as a `Paint` at the edge.
import { visibleWidth } from "@earendil-works/pi-tui";
import type { PendingNote } from "./note-store.ts";

export type Tone = "accent" | "border" | "dim" | "muted" | "text" | "warning" | "error" | "success";
export interface Paint {
  fg(tone: Tone, text: string): string;
  bold(text: string): string;
}
export const plain: Paint = { fg: (_tone, text) => text, bold: (text) => text };

export const DEFAULT_LABELS = { approve: "Authorize", edit: "Edit", reject: "Abort", dontAsk: "don't ask again" } as const;
export const EMPTY_COMMAND_WARNING = "An empty command achieves nothing";

// ── Agent-facing ───────────────────────────────────────────────────────────────────────────

export function agentNote(note: PendingNote): string {
  return note.kind === "edit"
    ? agentEditNote(note.hookName, note.command, note.note)
    : agentApprovalNote(note.hookName, note.note);
}

export function agentEditNote(hookName: string, command: string, note?: string): string {
  const head = `Edited by user via permission hook ${hookName}\n\nThe user edited this command before execution. The command that actually ran:\n${command}`;
  return note ? `${head}\n\nThe user also provided context for how to proceed:\n${note}` : head;
}

export function agentApprovalNote(hookName: string, note: string): string {
  return `Approved by user via permission hook ${hookName}\n\nThe user provided context for how to proceed:\n${note}`;
}

export function agentRejection(hookName: string, note?: string): string {
  const head = `Blocked by user via permission hook ${hookName}.`;
  return note
    ? `${head}\n\nThe user provided context for how to proceed:\n${note}`
    : `${head} The user stopped this turn; wait for their next message.`;
}

export function agentHookBlock(hookName: string, reason: string): string {
  return `Blocked by permission hook ${hookName}: ${reason}`;
}

export function agentNoUi(hookName: string): string {
  return `Blocked by permission hook ${hookName}: it asks the user to approve this call, and no UI is available to ask.`;
}

export function agentHookFailure(hookName: string, error: string): string {
  return `Blocked because permission hook ${hookName} failed (${error}) and no UI is available to ask the user.`;
}

/** The tool result text the agent reads: the note, a blank line, then the tool's own output. */
export function withNote(note: string, output: string): string {
  return output === "" ? note : `${note}\n\n${output}`;
}

// ── Human-facing notifications ─────────────────────────────────────────────────────────────

export function notifyApprovedWithNote(hookName: string): string {
  return `Authorized (${hookName}); your note goes to the agent with the result.`;
}

export function notifyEdited(hookName: string): string {
  return `Ran your edited command (${hookName}); the agent is told what really ran.`;
}

export function notifyRejected(hookName: string, withNote: boolean): string {
  return withNote ? `Aborted (${hookName}); your note goes to the agent.` : `Aborted (${hookName}); the turn stops.`;
}

export function notifyLoadError(file: string, error: string): string {
  return `Permission module ${file} failed to load: ${error}`;
}

export function notifyInternalError(where: string, error: string): string {
  return `pi-permission-hooks: ${where} failed: ${error}`;
}

// ── The prompt ─────────────────────────────────────────────────────────────────────────────

export function promptTitle(hookName: string): string {
  return `! Authorization required: ${hookName}`;
}

export function hookFailureGuidance(error: string): string {
  return `This hook failed while deciding (${error}), so you are asked instead.`;
}

export function choiceLine(index: number, label: string, selected: boolean): string {
  return `${selected ? "→" : " "} ${index + 1}. ${label}`;
}

export const ARMING_HINT = "keys wake up in a moment…";
export const NOTE_PREFIX = "     note: ";
export const EDIT_LABELS = { command: "Command", note: "Note to agent" } as const;

export interface KeyNames {
  up: string;
  down: string;
  confirm: string;
  tab: string;
  cancel: string;
  external: string;
  dontAsk: string;
}

/** Key hints: each is [key, action]; the key is dim, the action plain, two spaces between hints. */
export type Hint = readonly [key: string, action: string];

export function selectHints(keys: KeyNames, dontAskLabel: string): Hint[] {
  return [
    [arrows(keys.up, keys.down), "select"],
    [keys.confirm, "confirm"],
    [keys.tab, "add note"],
    ["shift+tab", "close"],
    [keys.cancel, "abort"],
    [keys.dontAsk, dontAskLabel],
  ];
}

function arrows(up: string, down: string): string {
  return up === "↑" && down === "↓" ? "↑↓" : `${up}/${down}`;
}

export function editHints(keys: KeyNames): Hint[][] {
  return [
    [
      [keys.confirm, "run"],
      ["shift+enter", "newline"],
      [keys.tab, "switch field"],
    ],
    [
      [keys.external, "external editor"],
      ["ctrl+r", "restore command"],
      [keys.cancel, "back"],
    ],
  ];
}

export function renderHints(hints: readonly Hint[], paint: Paint): string {
  return hints.map(([key, action]) => `${paint.fg("dim", key)} ${action}`).join("  ");
}

/** Hints rendered on as few lines as fit `width`, in order; a hint wider than a line gets its own. */
export function renderHintRows(hints: readonly Hint[], width: number, paint: Paint): string[] {
  const rows: Hint[][] = [];
  let used = 0;
  for (const hint of hints) {
    const size = visibleWidth(`${hint[0]} ${hint[1]}`);
    const row = rows.at(-1);
    if (row && used + 2 + size <= width) {
      row.push(hint);
      used += 2 + size;
    } else {
      rows.push([hint]);
      used = size;
    }
  }
  return rows.map((row) => renderHints(row, paint));
}

export function scrollMarker(direction: "up" | "down", count: number): string {
  return `${direction === "up" ? "↑" : "↓"} ${count} more ${count === 1 ? "line" : "lines"}`;
}

export function externalEditorFailure(reason: string): string {
  return `External editor failed: ${reason}; nothing changed.`;
}

/** Key ids as pi spells them, the way a hint shows them. */
export function keyName(id: string | undefined, fallback: string): string {
  if (!id) return fallback;
  return id.replace(/^escape$/, "esc").replace(/^up$/, "↑").replace(/^down$/, "↓");
}
