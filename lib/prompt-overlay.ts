import { type Component, type Focusable, Input, type TUI } from "@earendil-works/pi-tui";
import type { HighlightSpan } from "./api.ts";
import { EditMode, type Field } from "./edit-mode.ts";
import type { ExternalEditor } from "./external-editor.ts";
import { describeError } from "./failure.ts";
import { Frame, wrap } from "./frame.ts";
import { isDontAskAgain, isShiftTab, KEY, type KeyMatcher, keyNames } from "./keys.ts";
import {
  ARMING_HINT,
  choiceLine,
  externalEditorFailure,
  NOTE_PREFIX,
  type Paint,
  promptTitle,
  renderHintRows,
  scrollMarker,
  selectHints,
} from "./presenter.ts";
import { fromVisible, toVisible } from "./visible.ts";
import { VisibleTyping } from "./visible-typing.ts";

export interface PromptRequest {
  hookName: string;
  description?: string;
  /** Where the call comes from when another call made it (a codemode script's). */
  origin?: string;
  guidance?: string;
  toolName: string;
  /** The tool detail exactly as the agent gave it. */
  detail: string;
  highlights: HighlightSpan[];
  labels: { authorize: string; edit: string; abort: string; dontAsk: string };
  /** Command tools offer Edit. */
  editable: boolean;
}

export type PromptOutcome =
  /** Don't ask again: the deciding hook is switched off for the rest of the branch. */
  | { kind: "authorize"; note?: string; dontAskAgain?: true }
  | { kind: "abort"; note?: string }
  | { kind: "edit"; command: string; note?: string };

type Choice = "authorize" | "edit" | "abort";

export interface PromptEnvironment {
  tui: TUI;
  paint: Paint;
  keys: KeyMatcher;
  done: (outcome: PromptOutcome) => void;
  externalEditor?: ExternalEditor;
  /** Milliseconds; injectable so tests control the arming interval. */
  now?: () => number;
}

/** Keys typed ahead of a prompt must not answer it: input is ignored this long after it appears. */
export const ARMING_MS = 300;

/**
 * The permission prompt: one bordered overlay with two modes. Select mode offers the choices;
 * edit mode replaces its content in place, so drafts live as long as the prompt does.
 */
export class PermissionPrompt implements Component, Focusable {
  focused = false;
  private mode: "select" | "edit" = "select";
  private readonly choices: Choice[];
  private selected = 0;
  private drafting: Choice | undefined;
  private tabUsed = false;
  private detailScroll = 0;
  private readonly drafts: Record<Choice, Input>;
  private edit: EditMode | undefined;
  private finished = false;
  private readonly typing = new VisibleTyping();
  private readonly border: Frame;
  /** The agent's command as shown and edited: every character visible. */
  private readonly visibleOriginal: string;
  private readonly tui: TUI;
  private readonly paint: Paint;
  private readonly keys: KeyMatcher;
  private readonly now: () => number;
  private readonly armedAt: number;
  private readonly armingTimer: ReturnType<typeof setTimeout>;

  constructor(
    private readonly request: PromptRequest,
    private readonly env: PromptEnvironment,
  ) {
    ({ tui: this.tui, paint: this.paint, keys: this.keys } = env);
    this.border = new Frame(env.paint);
    this.visibleOriginal = toVisible(request.detail);
    this.now = env.now ?? Date.now;
    this.armedAt = this.now() + ARMING_MS;
    this.armingTimer = setTimeout(() => this.tui.requestRender(), ARMING_MS);
    this.choices = request.editable ? ["authorize", "edit", "abort"] : ["authorize", "abort"];
    this.drafts = { authorize: new Input(), edit: new Input(), abort: new Input() };
  }

  /** Closes the prompt from outside (an interrupted turn, a session change) as an Abort. */
  cancel(): void {
    this.finish({ kind: "abort" });
  }

  dispose(): void {
    clearTimeout(this.armingTimer);
  }

  private get arming(): boolean {
    return this.now() < this.armedAt;
  }

  handleInput(data: string): void {
    if (this.finished || this.arming) return;
    if (this.mode === "edit") this.handleEditInput(data);
    else this.handleSelectInput(data);
    this.tui.requestRender();
  }

  render(width: number): string[] {
    const inner = Math.max(1, width - 4);
    if (this.mode === "select" || !this.edit) return this.border.draw(this.renderSelect(inner), width);
    this.edit.focused = this.focused;
    const title = this.title(inner);
    const { lines, editorRows } = this.edit.render(inner);
    const offset = title.length + 1;
    return this.border.draw([...title, "", ...lines], width, { from: editorRows.from + offset, to: editorRows.to + offset });
  }

  /** pi calls this when the theme changes: nothing drawn with the old colours may be reused. */
  invalidate(): void {
    this.titleCache = undefined;
    this.detailCache = undefined;
    this.border.invalidate();
    this.edit?.invalidate();
  }

  // ── Select mode ──────────────────────────────────────────────────────────────────────────

  private handleSelectInput(data: string): void {
    const { keys } = this;
    if (keys.matches(data, KEY.cancel)) return this.finish({ kind: "abort" });
    if (keys.matches(data, KEY.confirm)) return this.confirm(this.choices[this.selected]);
    if (isDontAskAgain(data)) return this.finish({ kind: "authorize", note: this.noteOf("authorize"), dontAskAgain: true });
    if (isShiftTab(data)) {
      this.drafting = undefined;
      return;
    }
    if (keys.matches(data, KEY.tab)) {
      this.drafting = this.choices[this.selected];
      this.tabUsed = true;
      return;
    }
    if (keys.matches(data, KEY.up)) return this.move(-1);
    if (keys.matches(data, KEY.down)) return this.move(1);
    if (keys.matches(data, KEY.pageUp)) return this.scrollDetail(-1);
    if (keys.matches(data, KEY.pageDown)) return this.scrollDetail(1);
    if (this.drafting) {
      const draft = this.drafts[this.drafting];
      this.typing.rewrite(data, (part) => draft.handleInput(part));
      return;
    }
    if (data === "k") return this.move(-1);
    if (data === "j") return this.move(1);
    const digit = /^[1-9]$/.test(data) ? Number(data) - 1 : -1;
    if (digit >= 0 && digit < this.choices.length) {
      this.selected = digit;
      if (!this.tabUsed) this.confirm(this.choices[digit]);
    }
  }

  private move(step: number): void {
    const count = this.choices.length;
    this.selected = (this.selected + step + count) % count;
    if (this.drafting) this.drafting = this.choices[this.selected];
  }

  private scrollDetail(direction: number): void {
    this.detailScroll = Math.max(0, this.detailScroll + direction * Math.max(1, this.detailPage - 1));
  }

  private confirm(choice: Choice | undefined): void {
    switch (choice) {
      case "authorize":
        return this.finish({ kind: "authorize", note: this.noteOf("authorize") });
      case "abort":
        return this.finish({ kind: "abort", note: this.noteOf("abort") });
      case "edit":
        return this.enterEditMode();
      case undefined:
        return;
      default:
        choice satisfies never;
        return this.finish({ kind: "abort" });
    }
  }

  private renderSelect(inner: number): string[] {
    const { paint, request } = this;
    const lines = this.header(inner);
    const tail: string[] = [""];
    this.choices.forEach((choice, index) => {
      const selected = index === this.selected;
      const line = choiceLine(index, toVisible(request.labels[choice]), selected);
      tail.push(selected ? paint.fg("accent", line) : line);
      const draft = this.drafts[choice];
      if (this.drafting === choice) {
        draft.focused = this.focused;
        tail.push(NOTE_PREFIX + (draft.render(Math.max(1, inner - NOTE_PREFIX.length))[0] ?? ""));
      } else if (draft.getValue().trim() !== "") {
        tail.push(paint.fg("dim", NOTE_PREFIX + toVisible(draft.getValue())));
      }
    });
    const hints = renderHintRows(selectHints(keyNames(this.keys), request.labels.dontAsk), inner, paint);
    // While arming, the hint rows keep their height, so the prompt doesn't jump when keys wake up.
    tail.push("", ...(this.arming ? hints.map((_, row) => (row === 0 ? paint.fg("dim", ARMING_HINT) : "")) : hints));
    const room = this.rows() - lines.length - tail.length - 2;
    return [...lines, ...this.detailWindow(inner, room), ...tail];
  }

  private header(inner: number): string[] {
    const { request } = this;
    const lines = [...this.title(inner)];
    for (const text of [request.description, request.guidance]) {
      if (text && text.trim() !== "") lines.push("", ...wrap(toVisible(text), inner));
    }
    lines.push("");
    return lines;
  }

  /** The detail previews what the highlighted choice would run: Edit shows the live edit, plain. */
  private detailWindow(inner: number, room: number): string[] {
    const all = this.detailLines(inner);
    const rows = Math.max(3, room);
    if (all.length <= rows) return all;
    const visible = rows - 2;
    this.detailPage = visible;
    const maxScroll = all.length - visible;
    this.detailScroll = Math.min(this.detailScroll, maxScroll);
    const above = this.detailScroll;
    const below = all.length - above - visible;
    return [
      this.paint.fg("dim", above > 0 ? scrollMarker("up", above) : ""),
      ...all.slice(above, above + visible),
      this.paint.fg("dim", below > 0 ? scrollMarker("down", below) : ""),
    ];
  }

  private detailCache: { key: string; lines: string[] } | undefined;
  /** Rows of the detail the last frame showed: a page for pgup/pgdn. */
  private detailPage = 1;

  private detailLines(inner: number): string[] {
    const editText = this.choices[this.selected] === "edit" ? this.edit?.text : undefined;
    const edited = editText !== undefined && editText !== this.visibleOriginal;
    const key = edited ? `${inner}\0edit\0${editText}` : `${inner}\0original`;
    if (this.detailCache?.key === key) return this.detailCache.lines;
    const styled = edited ? editText : this.highlightedDetail();
    const text = `${this.paint.fg("accent", `${toVisible(this.request.toolName)}:`)} ${styled}`;
    const lines = text.split("\n").flatMap((line) => wrap(line, inner));
    this.detailCache = { key, lines };
    return lines;
  }

  private highlightedDetail(): string {
    const { detail, highlights } = this.request;
    let out = "";
    let at = 0;
    for (const span of highlights) {
      out += toVisible(detail.slice(at, span.start));
      const marked = toVisible(detail.slice(span.start, span.end));
      out += marked
        .split("\n")
        .map((part) => this.paint.fg("warning", this.paint.bold(part)))
        .join("\n");
      at = span.end;
    }
    return out + toVisible(detail.slice(at));
  }

  // ── Edit mode ────────────────────────────────────────────────────────────────────────────

  private enterEditMode(): void {
    this.edit ??= new EditMode(this.tui, this.paint, this.keys, this.visibleOriginal, this.drafts.edit);
    this.mode = "edit";
    this.drafting = undefined;
  }

  private handleEditInput(data: string): void {
    const edit = this.edit;
    if (!edit) return;
    const signal = edit.handleInput(data);
    if (!signal) return;
    if (signal.kind === "back") {
      this.mode = "select";
      return;
    }
    if (signal.kind === "external") {
      this.openExternal(edit, signal.field).catch((error: unknown) => {
        edit.say(externalEditorFailure(describeError(error)), "warning");
        this.tui.requestRender(true);
      });
      return;
    }
    const note = this.noteOf("edit");
    if (signal.text === this.visibleOriginal) this.finish({ kind: "authorize", note });
    else this.finish({ kind: "edit", command: fromVisible(signal.text), note });
  }

  private async openExternal(edit: EditMode, field: Field): Promise<void> {
    if (!this.env.externalEditor) return;
    const command = field === "command";
    const current = fromVisible(command ? edit.text : edit.note.getValue());
    const result = await this.env.externalEditor(current, command ? ".sh" : ".txt");
    if (this.finished) return;
    if (!result.ok) edit.say(externalEditorFailure(result.reason), "warning");
    else if (command) edit.setText(toVisible(result.text.replace(/\n$/, "")));
    else edit.note.setValue(toVisible(result.text.replace(/\s+/g, " ").trim()));
    this.tui.requestRender(true);
  }

  private titleCache: { width: number; lines: string[] } | undefined;

  private title(inner: number): string[] {
    if (this.titleCache?.width !== inner) {
      const title = this.paint.fg("accent", this.paint.bold(promptTitle(toVisible(this.request.hookName))));
      this.titleCache = { width: inner, lines: wrap(title, inner) };
    }
    return this.titleCache.lines;
  }

  // ── Shared ───────────────────────────────────────────────────────────────────────────────

  private noteOf(choice: Choice): string | undefined {
    const note = fromVisible(this.drafts[choice].getValue()).trim();
    return note === "" ? undefined : note;
  }

  private rows(): number {
    return this.tui.terminal?.rows ?? 24;
  }

  private finish(outcome: PromptOutcome): void {
    if (this.finished) return;
    this.finished = true;
    this.dispose();
    this.env.done(outcome);
  }
}
