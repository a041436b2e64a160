import { type Component, type Focusable, Input, matchesKey, type TUI } from "@earendil-works/pi-tui";
import type { HighlightSpan } from "./api.ts";
import { EditMode, type Field } from "./edit-mode.ts";
import type { ExternalEditor } from "./external-editor.ts";
import { describeError } from "./failure.ts";
import { Frame, innerWidth, wrap } from "./frame.ts";
import { markHighlights } from "./highlight.ts";
import { FIXED_KEY, KEY, type KeyMatcher, keyNames } from "./keys.ts";
import {
  COMFORTABLE_LINES,
  clip,
  cycle,
  Drawn,
  fitRows,
  hintRows,
  maxScroll,
  pageSize,
  paintSample,
  type Step,
  scrollWindow,
  terminalRows,
} from "./layout.ts";
import {
  ARMING_HINT,
  choiceLine,
  countdownLine,
  externalEditorFailure,
  GRANT_HEADING,
  GRANT_SCOPE_WORDS,
  type GrantScopeName,
  grantHint,
  grantHints,
  type Hint,
  keyName,
  NOTE_PREFIX,
  type Paint,
  promptTitle,
  SCRIPT_LABEL,
  scriptHint,
  selectHints,
  type Tone,
} from "./presenter.ts";
import { systemTimers, type Timers } from "./timers.ts";
import { clamp } from "./values.ts";
import { fromVisible, toVisible } from "./visible.ts";
import { VisibleTyping } from "./visible-typing.ts";

export interface PromptRequest {
  nameOfHook: string;
  description?: string;
  /** Where the call comes from when another call made it (a codemode script's). */
  origin?: string;
  /** The script of the call that made this one (a codemode call's `code`), shown on demand. */
  script?: string;
  guidance?: string;
  toolName: string;
  /** The tool detail exactly as the agent gave it. */
  detail: string;
  highlights: HighlightSpan[];
  labels: { authorize: string; edit: string; abort: string; dontAsk: string };
  /** Command tools offer Edit. */
  editable: boolean;
  /** The exact rule a grant for this request would save (lib/grants.ts); undefined: no grant is offered. */
  grantRule?: string;
  /** Where a grant may be kept, in the order the grant step offers them; given with `grantRule`. */
  grantScopes?: readonly GrantScopeName[];
}

export type PromptOutcome =
  /**
   * Don't ask again: the deciding hook is switched off for the rest of the branch. `grant`: don't
   * ask again for this exact rule only, where `scope` says (lib/grants.ts saves it).
   */
  | { kind: "authorize"; note?: string; dontAskAgain?: true; grant?: { rule: string; scope: GrantScopeName } }
  | { kind: "abort"; note?: string }
  | { kind: "edit"; command: string; note?: string };

type Choice = "authorize" | "edit" | "abort";

/** Whether the input being handled is a key bound to the action `id`. */
type Pressed = (id: string) => boolean;

export interface PromptEnvironment {
  tui: TUI;
  paint: Paint;
  keys: KeyMatcher;
  done: (outcome: PromptOutcome) => void;
  externalEditor?: ExternalEditor;
  /** The clock and timers of the arming interval and the countdown; tests move them by hand. */
  timers?: Timers;
  /** When the fail-safe timeout closes the prompt, on the `timers` clock: the prompt counts down to it. */
  endsAt?: number;
}

/** Keys typed ahead of a prompt must not answer it: input is ignored this long after it appears. */
export const ARMING_MS = 300;

/** pi's "toggle tool output" action: in the prompt it shows the script that made the call, and back. */
const SCRIPT_KEY = "app.tools.expand";

type SelectPart =
  | "title"
  | "origin"
  | "description"
  | "guidance"
  | "detail"
  | "heading"
  | "choices"
  | "notes"
  | "countdown"
  | "hints";

/**
 * What gives way when select mode (or its grant step) doesn't fit the terminal, first to last: the
 * command's (or the script's) window down to COMFORTABLE_LINES; the blank rows (the window takes
 * their room back); the window down to one line and its "more lines" marker; the description; the
 * guidance; the hints; the origin; the title down to one row; the countdown; the grant step's
 * heading; the notes kept on other choices; the command; the title. The choices and the note being
 * typed always show; in the grant step, the rule and its scopes are the choices.
 */
const SELECT_LADDER: readonly Step<SelectPart>[] = [
  ["detail", COMFORTABLE_LINES],
  "gaps",
  ["detail", 2],
  "description",
  "guidance",
  "hints",
  "origin",
  ["title", 1],
  "countdown",
  "heading",
  "notes",
  "detail",
  "title",
];

/** A row of the choices: a choice, or a note, which may give way when it is `kept` (not being typed). */
type ChoiceRow = { line: string; kept?: true };

/** What the detail's window shows: the call's command, or the script that made the call. */
type View = "command" | "script";

/** The tones of the prompt's cached drawing: it is redrawn when the theme paints them differently. */
const CACHED_TONES: readonly Tone[] = ["accent", "warning", "dim"];

/**
 * The permission prompt: one bordered overlay with two modes. Select mode offers the choices, and
 * in its grant step the scopes of a grant in their place; edit mode replaces its content in place,
 * so drafts live as long as the prompt does.
 */
export class PermissionPrompt implements Component, Focusable {
  #hasFocus = false;
  #mode: "select" | "grant" | "edit" = "select";
  readonly #choices: Choice[];
  #selected = 0;
  /** Where a grant may be kept; none when the request offers no grant. */
  readonly #scopes: readonly GrantScopeName[];
  #scope = 0;
  /** The rule a grant would save, every character visible. */
  readonly #visibleRule: string;
  #drafting: Choice | undefined;
  #tabUsed = false;
  #view: View = "command";
  /** The first line shown of each view; a window shorter than this asks for shows its end. */
  readonly #scroll: Record<View, number> = { command: 0, script: 0 };
  /** As pi-tui's Editor does, keys that depend on the layout use the width it was last drawn at. */
  #drawnWidth: number;
  readonly #drafts: Record<Choice, Input> = { authorize: new Input(), edit: new Input(), abort: new Input() };
  #edit: EditMode | undefined;
  #finished = false;
  readonly #typing = new VisibleTyping();
  readonly #border: Frame;
  /** The agent's command as shown and edited: every character visible. */
  readonly #visibleOriginal: string;
  readonly #tui: TUI;
  readonly #paint: Paint;
  readonly #keys: KeyMatcher;
  readonly #timers: Timers;
  readonly #armedAt: number;
  readonly #armingTimer: unknown;
  #countdownTimer: unknown;
  readonly #request: PromptRequest;
  readonly #env: PromptEnvironment;

  constructor(request: PromptRequest, env: PromptEnvironment) {
    this.#request = request;
    this.#env = env;
    ({ tui: this.#tui, paint: this.#paint, keys: this.#keys } = env);
    this.#border = new Frame(env.paint);
    this.#visibleOriginal = toVisible(request.detail);
    this.#timers = env.timers ?? systemTimers;
    this.#armedAt = this.#timers.now() + ARMING_MS;
    this.#armingTimer = this.#timers.setTimeout(() => this.#tui.requestRender(), ARMING_MS);
    this.#countDown();
    this.#choices = request.editable ? ["authorize", "edit", "abort"] : ["authorize", "abort"];
    this.#scopes = request.grantRule === undefined ? [] : (request.grantScopes ?? []);
    this.#visibleRule = toVisible(request.grantRule ?? "");
    this.#drawnWidth = this.#tui.terminal?.columns ?? 80;
  }

  get focused(): boolean {
    return this.#hasFocus;
  }

  /** The field being typed in gets the focus: a note draft in select mode, the Editor or the note in edit mode. */
  set focused(focused: boolean) {
    this.#hasFocus = focused;
    this.#passFocus();
  }

  #passFocus(): void {
    if (this.#edit) this.#edit.focused = this.#hasFocus && this.#mode === "edit";
    if (this.#mode === "edit") return;
    for (const choice of this.#choices)
      this.#drafts[choice].focused = this.#hasFocus && this.#mode === "select" && this.#drafting === choice;
  }

  /** Closes the prompt from outside (an interrupted turn, a session change) as an Abort. */
  cancel(): void {
    this.#finish({ kind: "abort" });
  }

  dispose(): void {
    this.#timers.clearTimeout(this.#armingTimer);
    this.#timers.clearTimeout(this.#countdownTimer);
  }

  get #arming(): boolean {
    return this.#timers.now() < this.#armedAt;
  }

  /** Milliseconds until the fail-safe timeout closes the prompt; undefined without one. */
  get #timeLeft(): number | undefined {
    const deadline = this.#env.endsAt;
    return deadline === undefined ? undefined : deadline - this.#timers.now();
  }

  /** Redraws whenever the whole seconds left change, until none are left. */
  #countDown(): void {
    const left = this.#timeLeft;
    if (left === undefined || left <= 0) return;
    this.#countdownTimer = this.#timers.setTimeout(
      () => {
        this.#tui.requestRender();
        this.#countDown();
      },
      ((left - 1) % 1000) + 1,
    );
  }

  handleInput(data: string): void {
    if (this.#finished || this.#arming) return;
    if (this.#mode === "edit") this.#handleEditInput(data);
    else {
      const pressed = (id: string) => this.#keys.matches(data, id);
      if (this.#mode === "grant") this.#handleGrantInput(data, pressed);
      else this.#handleSelectInput(data, pressed);
    }
    this.#passFocus();
    this.#tui.requestRender();
  }

  /** Never taller than the terminal: what gives way first is in SELECT_LADDER and edit mode's LADDER. */
  render(width: number): string[] {
    this.#drawnWidth = width;
    const inner = innerWidth(width);
    const sample = this.#sample();
    // Only edit mode knows rows the frame needn't measure: the Editor's.
    const drawn: { lines: string[]; editorRows?: { from: number; to: number } } =
      this.#mode === "edit" && this.#edit
        ? this.#edit.render(inner, this.#budget(width), this.#title(inner, sample), sample, this.#countdown(inner))
        : { lines: this.#renderSelect(width) };
    return this.#border.draw(drawn.lines, width, drawn.editorRows).slice(0, Math.max(0, terminalRows(this.#tui)));
  }

  /** pi calls this when the theme changes: nothing drawn with the old colours may be reused. */
  invalidate(): void {
    this.#titleLines.forget();
    this.#detailLines.forget();
    this.#border.invalidate();
    this.#edit?.invalidate();
  }

  // ── Select mode ──────────────────────────────────────────────────────────────────────────

  #handleSelectInput(data: string, pressed: Pressed): void {
    if (pressed(KEY.cancel)) return this.cancel();
    if (pressed(KEY.confirm)) return this.#confirm(this.#choices[this.#selected]);
    if (matchesKey(data, FIXED_KEY.dontAsk))
      return this.#finish({ kind: "authorize", note: this.#noteOf("authorize"), dontAskAgain: true });
    if (this.#scopes.length && matchesKey(data, FIXED_KEY.grant)) {
      this.#mode = "grant";
      return;
    }
    if (matchesKey(data, FIXED_KEY.shiftTab)) {
      this.#drafting = undefined;
      return;
    }
    if (pressed(KEY.tab)) {
      this.#drafting = this.#choices[this.#selected];
      this.#tabUsed = true;
      return;
    }
    if (pressed(KEY.up)) return this.#move(-1);
    if (pressed(KEY.down)) return this.#move(1);
    if (this.#handleViewInput(pressed)) return;
    if (this.#drafting) {
      const draft = this.#drafts[this.#drafting];
      this.#typing.rewrite(data, (part) => draft.handleInput(part));
      return;
    }
    if (data === "k") return this.#move(-1);
    if (data === "j") return this.#move(1);
    const digit = digitIndex(data, this.#choices.length);
    if (digit !== undefined) {
      this.#selected = digit;
      if (!this.#tabUsed) this.#confirm(this.#choices[digit]);
    }
  }

  /** The page keys scroll the detail's window; the script key switches what it shows. */
  #handleViewInput(pressed: Pressed): boolean {
    if (pressed(KEY.pageUp)) this.#scrollDetail(-1);
    else if (pressed(KEY.pageDown)) this.#scrollDetail(1);
    else if (this.#request.script !== undefined && pressed(SCRIPT_KEY))
      this.#view = this.#view === "command" ? "script" : "command";
    else return false;
    return true;
  }

  /** The grant step: a scope is picked, enter saves it with an Authorize, esc goes back to the choices. */
  #handleGrantInput(data: string, pressed: Pressed): void {
    if (pressed(KEY.cancel)) {
      this.#mode = "select";
      return;
    }
    if (pressed(KEY.confirm)) {
      // Nothing is saved that the Approver couldn't read whole: in a terminal too small for the rule
      // and its scopes, enter waits until the step fits.
      const rule = this.#request.grantRule;
      const scope = this.#scopes[this.#scope];
      if (this.#grantStepFits() && rule !== undefined && scope)
        this.#finish({ kind: "authorize", note: this.#noteOf("authorize"), grant: { rule, scope } });
      return;
    }
    if (pressed(KEY.up) || data === "k") return this.#moveScope(-1);
    if (pressed(KEY.down) || data === "j") return this.#moveScope(1);
    if (this.#handleViewInput(pressed)) return;
    const digit = digitIndex(data, this.#scopes.length);
    if (digit !== undefined) this.#scope = digit;
  }

  #moveScope(step: number): void {
    this.#scope = cycle(this.#scope, step, this.#scopes.length);
  }

  /** Whether the grant step, drawn at the last width and the terminal's height now, shows every row. */
  #grantStepFits(): boolean {
    return this.#renderSelect(this.#drawnWidth).length <= this.#budget(this.#drawnWidth);
  }

  #move(step: number): void {
    this.#selected = cycle(this.#selected, step, this.#choices.length);
    if (this.#drafting) this.#drafting = this.#choices[this.#selected];
  }

  #scrollDetail(direction: number): void {
    const { parts, rows } = this.#selectLayout(this.#drawnWidth);
    const last = maxScroll(parts.detail.length, rows.detail);
    const top = Math.min(this.#scroll[this.#view], last);
    this.#scroll[this.#view] = clamp(top + direction * pageSize(rows.detail), last);
  }

  /** Authorize and Abort finish with their note; Edit opens edit mode. */
  #confirm(choice: Choice | undefined): void {
    if (choice === "edit") this.#enterEditMode();
    else if (choice) this.#finish({ kind: choice, note: this.#noteOf(choice) });
  }

  #renderSelect(width: number): string[] {
    const paint = this.#paint;
    const { inner, parts, choices, rows, gaps } = this.#selectLayout(width);
    const clipped = (name: keyof typeof parts) => clip(parts[name], rows[name], inner, paint);
    let kept = 0;
    const shown = [
      [...clipped("title"), ...clipped("origin")],
      clipped("description"),
      clipped("guidance"),
      scrollWindow(parts.detail, rows.detail, this.#scroll[this.#view], paint),
      [...clipped("heading"), ...choices.filter((row) => !row.kept || kept++ < rows.notes).map((row) => row.line)],
      [...clipped("countdown"), ...parts.hints.slice(0, rows.hints)],
    ].filter((part) => part.length);
    return gaps ? shown.flatMap((part, index) => (index === 0 ? part : ["", ...part])) : shown.flat();
  }

  /** Select mode at `width`: its parts at full height, and the rows each gets in the terminal's height (see SELECT_LADDER). */
  #selectLayout(width: number) {
    const inner = innerWidth(width);
    const sample = this.#sample();
    const paint = this.#paint;
    const request = this.#request;
    const text = (value: string | undefined) => (value?.trim() ? wrap(toVisible(value), inner) : []);
    const granting = this.#mode === "grant";
    const choices = granting ? this.#grantRows(inner) : this.#choiceRows(inner);
    const hints = hintRows(granting ? grantHints(keyNames(this.#keys)) : this.#hints(), inner, paint);
    const parts = {
      title: this.#title(inner, sample),
      origin: text(request.origin).map((line) => paint.fg("dim", line)),
      description: text(request.description),
      guidance: text(request.guidance),
      heading: granting ? wrap(GRANT_HEADING, inner) : [],
      // While arming, the hint rows keep their height, so the prompt doesn't jump when keys wake up.
      hints: this.#arming ? hints.map((_, row) => (row === 0 ? paint.fg("dim", ARMING_HINT) : "")) : hints,
      countdown: this.#countdown(inner),
      detail: this.#detail(inner, sample),
    };
    const notes = choices.filter((row) => row.kept).length;
    const wanted: Record<SelectPart, number> = {
      ...heights(parts),
      choices: choices.length - notes,
      notes,
    };
    const gaps = [parts.description, parts.guidance, parts.hints].filter((part) => part.length).length + 2;
    return { inner, parts, choices, ...fitRows(this.#budget(width), wanted, gaps, SELECT_LADDER) };
  }

  /** The choices, each followed by its note: the one being typed, or one kept (which may give way). */
  #choiceRows(inner: number): ChoiceRow[] {
    return this.#choices.flatMap((choice, index): ChoiceRow[] => {
      const row = { line: this.#choiceLine(index, toVisible(this.#request.labels[choice]), index === this.#selected) };
      const draft = this.#drafts[choice];
      if (this.#drafting === choice) {
        return [row, { line: NOTE_PREFIX + (draft.render(Math.max(1, inner - NOTE_PREFIX.length))[0] ?? "") }];
      }
      const note = draft.getValue();
      return note.trim() ? [row, { line: this.#paint.fg("dim", NOTE_PREFIX + toVisible(note)), kept: true }] : [row];
    });
  }

  /** The grant step's choices: the exact rule, then the scopes to keep it in. */
  #grantRows(inner: number): ChoiceRow[] {
    const paint = this.#paint;
    const rule = wrap(paint.bold(this.#visibleRule), inner).map((line) => ({ line }));
    const scopes = this.#scopes.map((scope, index) => ({
      line: this.#choiceLine(index, GRANT_SCOPE_WORDS[scope], index === this.#scope),
    }));
    return [...rule, ...scopes];
  }

  /** A numbered choice; the selected one accented. */
  #choiceLine(index: number, label: string, selected: boolean): string {
    const line = choiceLine(index, label, selected);
    return selected ? this.#paint.fg("accent", line) : line;
  }

  /** The detail's window as last drawn, in either view. */
  readonly #detailLines = new Drawn<string[]>();

  /**
   * The detail's window: the script that made the call when it is shown (every character visible,
   * nothing highlighted), else a preview of what the highlighted choice would run: Edit shows the
   * live edit, plain; a grant, the original.
   */
  #detail(inner: number, sample: string): string[] {
    if (this.#view === "script") {
      return this.#detailLines.get(inner, `${sample}\0script`, () =>
        this.#labelled(SCRIPT_LABEL, toVisible(this.#request.script ?? ""), inner),
      );
    }
    const editText = this.#mode === "select" && this.#choices[this.#selected] === "edit" ? this.#edit?.text : undefined;
    const edited = editText !== undefined && editText !== this.#visibleOriginal;
    const key = edited ? `${sample}\0edit\0${editText}` : `${sample}\0original`;
    return this.#detailLines.get(inner, key, () =>
      this.#labelled(`${toVisible(this.#request.toolName)}:`, edited ? editText : this.#highlightedDetail(), inner),
    );
  }

  /** The detail's window: the label, accented, then the text, wrapped. */
  #labelled(label: string, text: string, inner: number): string[] {
    return `${this.#paint.fg("accent", label)} ${text}`.split("\n").flatMap((line) => wrap(line, inner));
  }

  /** Select mode's hints; with a grant, the key that opens its step; with a script, the key that shows it. */
  #hints(): Hint[] {
    const hints = selectHints(keyNames(this.#keys), this.#request.labels.dontAsk);
    if (this.#scopes.length) hints.push(grantHint(FIXED_KEY.grant, this.#visibleRule));
    const key = this.#request.script === undefined ? undefined : this.#keys.getKeys(SCRIPT_KEY)[0];
    if (key !== undefined) hints.push(scriptHint(keyName(key, key), this.#view === "script"));
    return hints;
  }

  /** The time left, dim, when the fail-safe timeout is on. */
  #countdown(inner: number): string[] {
    const left = this.#timeLeft;
    if (left === undefined) return [];
    return wrap(this.#paint.fg("dim", countdownLine(Math.max(0, Math.ceil(left / 1000)))), inner);
  }

  #highlightedDetail(): string {
    const { detail, highlights } = this.#request;
    return markHighlights(detail, highlights, (part) => this.#paint.fg("warning", this.#paint.bold(part)));
  }

  // ── Edit mode ────────────────────────────────────────────────────────────────────────────

  #enterEditMode(): void {
    // The same Input is the Edit choice's draft and edit mode's note: they are one draft.
    this.#edit ??= new EditMode(this.#tui, this.#paint, this.#keys, this.#visibleOriginal, this.#drafts.edit);
    this.#mode = "edit";
    this.#drafting = undefined;
  }

  #handleEditInput(data: string): void {
    const edit = this.#edit;
    if (!edit) return;
    const signal = edit.handleInput(data);
    if (!signal) return;
    if (signal.kind === "back") {
      this.#mode = "select";
      return;
    }
    if (signal.kind === "external") {
      this.#openExternal(edit, signal.field).catch((error: unknown) => {
        edit.say(externalEditorFailure(describeError(error)), "warning");
        this.#tui.requestRender(true);
      });
      return;
    }
    const note = this.#noteOf("edit");
    this.#finish(
      signal.text === this.#visibleOriginal
        ? { kind: "authorize", note }
        : { kind: "edit", command: fromVisible(signal.text), note },
    );
  }

  async #openExternal(edit: EditMode, field: Field): Promise<void> {
    if (!this.#env.externalEditor) return;
    const command = field === "command";
    const note = this.#drafts.edit;
    const current = fromVisible(command ? edit.text : note.getValue());
    const result = await this.#env.externalEditor(current, command ? ".sh" : ".txt");
    if (this.#finished) return;
    if (!result.ok) edit.say(externalEditorFailure(result.reason), "warning");
    else if (command) edit.setText(toVisible(withoutAddedNewline(result.text, current)));
    else note.setValue(toVisible(result.text.replace(/\s+/g, " ").trim()));
    this.#tui.requestRender(true);
  }

  readonly #titleLines = new Drawn<string[]>();

  #title(inner: number, sample: string): string[] {
    return this.#titleLines.get(inner, sample, () =>
      wrap(this.#paint.fg("accent", this.#paint.bold(promptTitle(toVisible(this.#request.nameOfHook)))), inner),
    );
  }

  /** A sample of the paint's tones drawn here: cached drawing is redrawn when the theme paints them differently. */
  #sample(): string {
    return paintSample(this.#paint, CACHED_TONES);
  }

  // ── Shared ───────────────────────────────────────────────────────────────────────────────

  /** The note typed on `choice`, trimmed; none when it is blank. */
  #noteOf(choice: Choice): string | undefined {
    return fromVisible(this.#drafts[choice].getValue()).trim() || undefined;
  }

  /** Rows for the body: the terminal's, less the frame's top and bottom when there is a frame. */
  #budget(width: number): number {
    return terminalRows(this.#tui) - (width >= 4 ? 2 : 0);
  }

  #finish(outcome: PromptOutcome): void {
    if (this.#finished) return;
    this.#finished = true;
    this.dispose();
    this.#env.done(outcome);
  }
}

/** Each part's height: its lines. */
function heights<Part extends string>(parts: Record<Part, readonly string[]>): Record<Part, number> {
  const rows = {} as Record<Part, number>;
  for (const part in parts) rows[part] = parts[part].length;
  return rows;
}

/** The index a digit key 1–9 picks among `count` items; none for any other input. */
function digitIndex(data: string, count: number): number | undefined {
  const index = Number(data) - 1;
  return /^[1-9]$/.test(data) && index < count ? index : undefined;
}

/**
 * Editors such as vim end a file with a newline even when the text had none: that one is dropped,
 * any other is the Approver's. So a round trip that changes nothing leaves the command as it was,
 * byte for byte, whether or not it ended in a newline.
 */
const withoutAddedNewline = (text: string, before: string): string =>
  text.endsWith("\n") && !before.endsWith("\n") ? text.slice(0, -1) : text;
