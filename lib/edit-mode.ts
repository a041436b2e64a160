import { Editor, type Input, type TUI } from "@earendil-works/pi-tui";
import { isRestore, KEY, type KeyMatcher, keyNames } from "./keys.ts";
import { EDIT_LABELS, EMPTY_COMMAND_WARNING, editHints, type Paint, renderHints } from "./presenter.ts";
import { fromVisible, toVisible } from "./visible.ts";
import { VisibleTyping } from "./visible-typing.ts";

export type EditSignal = { kind: "submit"; text: string } | { kind: "back" } | { kind: "external"; field: Field };
export type Field = "command" | "note";

/**
 * Edit mode of the prompt: the command in pi-tui's multiline Editor above a one-line, dim note.
 * It works on the visible form of the command; the prompt maps it back to real characters.
 */
export class EditMode {
  readonly editor: Editor;
  focus: Field = "command";
  /** Whether the prompt holding this mode has the terminal's focus. */
  focused = false;
  private stash: string | undefined;
  private warning: { text: string; tone: "error" | "warning" } | undefined;
  private readonly typing = new VisibleTyping();
  private readonly toEditor = (part: string) => this.editor.handleInput(part);
  private readonly toNote = (part: string) => this.note.handleInput(part);
  // Drawn on every key, changing only with the theme.
  private noteLabel = "";
  private hints: string[] = [];

  constructor(
    tui: TUI,
    private readonly paint: Paint,
    private readonly keys: KeyMatcher,
    private readonly original: string,
    readonly note: Input,
  ) {
    this.editor = new Editor(tui, {
      borderColor: (text) => paint.fg("border", text),
      selectList: {
        selectedPrefix: (text) => text,
        selectedText: (text) => text,
        description: (text) => text,
        scrollInfo: (text) => text,
        noMatch: (text) => text,
      },
    });
    this.editor.setText(original);
    this.invalidate();
  }

  invalidate(): void {
    this.noteLabel = this.paint.fg("dim", EDIT_LABELS.note);
    this.hints = editHints(keyNames(this.keys)).map((row) => renderHints(row, this.paint));
    this.editor.invalidate();
  }

  get text(): string {
    return this.editor.getExpandedText();
  }

  setText(text: string): void {
    this.editor.setText(text);
    this.stash = undefined;
  }

  say(text: string, tone: "error" | "warning"): void {
    this.warning = { text, tone };
  }

  handleInput(data: string): EditSignal | undefined {
    this.warning = undefined;
    if (this.keys.matches(data, KEY.cancel)) return { kind: "back" };
    if (this.keys.matches(data, KEY.tab)) {
      this.focus = this.focus === "command" ? "note" : "command";
      return undefined;
    }
    // Some keys (ctrl+j, a bare \n) match both newline and submit; newline wins, as in pi's editor.
    if (!this.keys.matches(data, KEY.newLine) && this.keys.matches(data, KEY.submit)) {
      if (fromVisible(this.text).trim() !== "") return { kind: "submit", text: this.text };
      this.say(EMPTY_COMMAND_WARNING, "error");
      return undefined;
    }
    if (this.keys.matches(data, KEY.external)) return { kind: "external", field: this.focus };
    if (isRestore(data)) {
      this.toggleOriginal();
      return undefined;
    }
    if (this.focus === "note") {
      this.typing.rewrite(data, this.toNote);
      return undefined;
    }
    // Only a stash needs the before/after comparison; joining a long command twice per key lags.
    const before = this.stash === undefined ? undefined : this.editor.getText();
    this.typing.rewrite(data, this.toEditor);
    if (before !== undefined && this.editor.getText() !== before) this.stash = undefined;
    return undefined;
  }

  /** ctrl+r: show the agent's original, keeping the edits in a single-slot stash; again to restore them. */
  private toggleOriginal(): void {
    if (this.stash !== undefined) {
      const edits = this.stash;
      this.stash = undefined;
      this.editor.setText(edits);
    } else if (this.text !== this.original) {
      this.stash = this.text;
      this.editor.setText(this.original);
    }
  }

  /** The lines of edit mode; `editorRows` says which are the Editor's, each exactly `width` wide. */
  render(width: number): { lines: string[]; editorRows: { from: number; to: number } } {
    const { paint } = this;
    this.editor.focused = this.focused && this.focus === "command";
    this.note.focused = this.focused && this.focus === "note";
    const lines = [EDIT_LABELS.command, ...this.editor.render(width)];
    const editorRows = { from: 1, to: lines.length };
    if (this.warning) lines.push(paint.fg(this.warning.tone, this.warning.text));
    lines.push("", this.noteLabel, this.noteLine(width), "", ...this.hints);
    return { lines, editorRows };
  }

  private noteLine(width: number): string {
    if (this.focus === "note") return this.paint.fg("dim", this.note.render(width)[0] ?? "");
    return this.paint.fg("dim", toVisible(this.note.getValue()));
  }
}
