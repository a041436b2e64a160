import { Editor, type Input, matchesKey, type TUI } from "@earendil-works/pi-tui";
import { FIXED_KEY, KEY, type KeyMatcher, keyNames } from "./keys.ts";
import { COMFORTABLE_LINES, clip, Drawn, fitRows, hintRows, type Step, terminalRows } from "./layout.ts";
import { EDIT_LABELS, EMPTY_COMMAND_WARNING, editHints, type Paint, scrollMarker } from "./presenter.ts";
import { clamp, getOrAdd } from "./values.ts";
import { fromVisible, toVisible } from "./visible.ts";
import { VisibleTyping } from "./visible-typing.ts";

export type EditSignal = { kind: "submit"; text: string } | { kind: "back" } | { kind: "external"; field: Field };
export type Field = "command" | "note";

type Part = "title" | "commandLabel" | "rules" | "text" | "warning" | "noteLabel" | "note" | "countdown" | "hints";

/**
 * What gives way when edit mode doesn't fit the terminal, first to last: the command's window down
 * to COMFORTABLE_LINES, the blank rows (the window takes their room back), the window down to the
 * cursor's line, the "Command" label, the hints, the title down to one row, the "Note to agent"
 * label, the countdown, the title, the Editor's rules (the bottom one first). The cursor's line,
 * the note and a warning always show.
 */
const LADDER: readonly Step<Part>[] = [
  ["text", COMFORTABLE_LINES],
  "gaps",
  ["text", 1],
  "commandLabel",
  "hints",
  ["title", 1],
  "noteLabel",
  "countdown",
  "title",
  ["rules", 1],
  "rules",
];
const GAPS = 3;
/**
 * How pi-tui's Editor marks its cursor's row: reverse video (0.80), its fake-cursor marker (1.x), or
 * the hardware-cursor marker (when focused). The command never holds an escape (it shows as notation).
 */
const EDITOR_CURSOR = /\x1b\[7m|\x1b_pi:f?c\x07/;

/**
 * Edit mode of the prompt: the command in pi-tui's multiline Editor above a one-line, dim note.
 * It works on the visible form of the command; the prompt maps it back to real characters.
 */
type EditAction = "cancel" | "tab" | "submit" | "external" | "restore";
/** Longer input is a paste or a burst of keys, seen once: not worth remembering. */
const ACTION_CACHE_MAX_INPUT = 16;

export class EditMode {
  readonly #editor: Editor;
  #field: Field = "command";
  #hasFocus = false;
  #stash: string | undefined;
  #warning: { text: string; tone: "error" | "warning" } | undefined;
  readonly #typing = new VisibleTyping();
  readonly #actions = new Map<string, EditAction | null>();
  readonly #toEditor = (part: string) => this.#editor.handleInput(part);
  readonly #toNote = (part: string) => this.#note.handleInput(part);
  /** The terminal the Editor is told of: it shows 30% of its rows (at least 5), so they bound its window. */
  readonly #editorTerminal: { rows: number };
  // Drawn on every key, changing only with the width and the theme.
  readonly #hints = new Drawn<string[]>();
  readonly #tui: TUI;
  readonly #paint: Paint;
  readonly #keys: KeyMatcher;
  readonly #original: string;
  readonly #note: Input;

  constructor(tui: TUI, paint: Paint, keys: KeyMatcher, original: string, note: Input) {
    this.#tui = tui;
    this.#paint = paint;
    this.#keys = keys;
    this.#original = original;
    this.#note = note;
    this.#editorTerminal = { rows: terminalRows(tui) };
    const editorTui = { terminal: this.#editorTerminal, requestRender: (force?: boolean) => tui.requestRender(force) };
    this.#editor = new Editor(editorTui as unknown as TUI, {
      borderColor: (text) => paint.fg("border", text),
      selectList: { selectedPrefix: plain, selectedText: plain, description: plain, scrollInfo: plain, noMatch: plain },
    });
    this.#editor.setText(original);
  }

  /** Told whether the prompt holding this mode has the terminal's focus; the focused field gets it. */
  set focused(focused: boolean) {
    this.#hasFocus = focused;
    this.#editor.focused = focused && this.#field === "command";
    this.#note.focused = focused && this.#field === "note";
  }

  invalidate(): void {
    this.#hints.forget();
    this.#editor.invalidate();
  }

  get text(): string {
    return this.#editor.getExpandedText();
  }

  setText(text: string): void {
    this.#editor.setText(text);
    this.#stash = undefined;
  }

  say(text: string, tone: "error" | "warning"): void {
    this.#warning = { text, tone };
  }

  handleInput(data: string): EditSignal | undefined {
    this.#warning = undefined;
    switch (this.#actionOf(data)) {
      case "cancel":
        return { kind: "back" };
      case "tab":
        this.#field = this.#field === "command" ? "note" : "command";
        this.focused = this.#hasFocus;
        return undefined;
      case "submit":
        if (fromVisible(this.text).trim()) return { kind: "submit", text: this.text };
        this.say(EMPTY_COMMAND_WARNING, "error");
        return undefined;
      case "external":
        return { kind: "external", field: this.#field };
      case "restore":
        this.#toggleOriginal();
        return undefined;
    }
    if (this.#field === "note") {
      this.#typing.rewrite(data, this.#toNote);
      return undefined;
    }
    // Only a stash needs the before/after comparison; joining a long command twice per key lags.
    const before = this.#stash === undefined ? undefined : this.#editor.getText();
    this.#typing.rewrite(data, this.#toEditor);
    if (before !== undefined && this.#editor.getText() !== before) this.#stash = undefined;
    return undefined;
  }

  /**
   * Which of edit mode's own keys `data` is, if any. Matching a key against pi's keybindings parses
   * every binding again, so short inputs (keys, not pastes) are looked up once per prompt.
   */
  #actionOf(data: string): EditAction | undefined {
    if (data.length > ACTION_CACHE_MAX_INPUT) return this.#matchAction(data);
    return getOrAdd(this.#actions, data, () => this.#matchAction(data) ?? null) ?? undefined;
  }

  #matchAction(data: string): EditAction | undefined {
    const pressed = (id: string) => this.#keys.matches(data, id);
    if (pressed(KEY.cancel)) return "cancel";
    if (pressed(KEY.tab)) return "tab";
    // Some keys (ctrl+j, a bare \n) match both newline and submit; newline wins, as in pi's editor.
    if (!pressed(KEY.newLine) && pressed(KEY.submit)) return "submit";
    if (pressed(KEY.external)) return "external";
    if (matchesKey(data, FIXED_KEY.restore)) return "restore";
    return undefined;
  }

  /** ctrl+r: show the agent's original, keeping the edits in a single-slot stash; again to restore them. */
  #toggleOriginal(): void {
    if (this.#stash !== undefined) this.setText(this.#stash);
    else if (this.text !== this.#original) {
      this.#stash = this.text;
      this.#editor.setText(this.#original);
    }
  }

  /**
   * Edit mode under `title`, with the prompt's `countdown` (if any) above the hints, in at most
   * `rows` rows (see LADDER), each line exactly `width` wide; `editorRows` says which lines are the
   * Editor's. Drawing cached for an other `sample` of the paint is redrawn.
   */
  render(
    width: number,
    rows: number,
    title: readonly string[],
    sample: string,
    countdown: readonly string[],
  ): { lines: string[]; editorRows: { from: number; to: number } } {
    const paint = this.#paint;
    const warning = this.#warning;
    const hints = this.#hintsAt(width, sample);
    // A row per line of the command; lines that wrap take more, so the Editor also gets the spare rows.
    const wanted = {
      title: title.length,
      commandLabel: 1,
      rules: 2,
      text: this.#editor.getLines().length,
      warning: warning ? 1 : 0,
      noteLabel: 1,
      note: 1,
      countdown: countdown.length,
      hints: hints.length,
    };
    const { rows: fitted, gaps, spare } = fitRows(rows, wanted, GAPS, LADDER);
    const lines = [...clip(title, fitted.title, width, paint)];
    if (gaps) lines.push("");
    if (fitted.commandLabel > 0) lines.push(EDIT_LABELS.command);
    const from = lines.length;
    lines.push(...this.#editorLines(width, fitted.text + spare, fitted.rules));
    const editorRows = { from, to: lines.length };
    if (warning) lines.push(paint.fg(warning.tone, warning.text));
    if (gaps) lines.push("");
    if (fitted.noteLabel > 0) lines.push(paint.fg("dim", EDIT_LABELS.note));
    lines.push(this.#noteLine(width));
    if (gaps) lines.push("");
    lines.push(...clip(countdown, fitted.countdown, width, paint), ...hints.slice(0, fitted.hints));
    return { lines, editorRows };
  }

  #hintsAt(width: number, sample: string): string[] {
    return this.#hints.get(width, sample, () =>
      editHints(keyNames(this.#keys)).flatMap((group) => hintRows(group, width, this.#paint)),
    );
  }

  /**
   * The Editor with at most `textRows` rows of text and `rules` of its two rules (the bottom one
   * goes first). pi-tui's Editor shows at least 5 rows; fewer are cut around its cursor, and the
   * rules then count what is cut too.
   */
  #editorLines(width: number, textRows: number, rules: number): string[] {
    this.#editorTerminal.rows = terminalRowsShowing(textRows, terminalRows(this.#tui));
    const drawn = this.#editor.render(width);
    if (drawn.length - 2 <= textRows && rules === 2) return drawn;
    const text = drawn.slice(1, -1);
    let top = drawn[0] ?? "";
    let bottom = drawn.at(-1) ?? "";
    let shown = text;
    if (text.length > textRows) {
      const cursor = Math.max(
        0,
        text.findIndex((line) => EDITOR_CURSOR.test(line)),
      );
      const first = clamp(cursor - Math.floor(textRows / 2), text.length - textRows);
      shown = text.slice(first, first + textRows);
      top = this.#rule(width, "up", countIn(top) + first);
      bottom = this.#rule(width, "down", countIn(bottom) + text.length - first - textRows);
    }
    return [...(rules >= 1 ? [top] : []), ...shown, ...(rules >= 2 ? [bottom] : [])];
  }

  /** A rule like the Editor's own, saying how many lines are cut above or below. */
  #rule(width: number, direction: "up" | "down", count: number): string {
    const head = count > 0 ? `─── ${scrollMarker(direction, count)} ` : "";
    return this.#paint.fg("border", (head + "─".repeat(Math.max(0, width - head.length))).slice(0, width));
  }

  /** The note, dim: the Input while it is typed in, else its text. */
  #noteLine(width: number): string {
    const line = this.#field === "note" ? (this.#note.render(width)[0] ?? "") : toVisible(this.#note.getValue());
    return this.#paint.fg("dim", line);
  }
}

const plain = (text: string): string => text;

/** The "N more" an Editor rule shows, 0 if none. */
const countIn = (rule: string): number => Number(/[↑↓] (\d+) more/.exec(rule)?.[1] ?? 0);

/**
 * The terminal height at which pi-tui's Editor shows at most `lines` rows of text (it shows 30% of
 * the height, at least 5), never more than the real one.
 */
function terminalRowsShowing(lines: number, realRows: number): number {
  let rows = Math.min(realRows, Math.ceil((lines + 1) / 0.3));
  while (rows > 0 && Math.floor(rows * 0.3) > lines) rows--;
  return rows;
}
