import { KeybindingsManager, type TUI, TUI_KEYBINDINGS } from "@earendil-works/pi-tui";
import type { ExternalEditor } from "../../lib/external-editor.ts";
import { type Paint, plain } from "../../lib/presenter.ts";
import { ARMING_MS, PermissionPrompt, type PromptOutcome, type PromptRequest } from "../../lib/prompt-overlay.ts";
import { manualTimers } from "./manual-timers.ts";

export const KEYS = {
  up: "\x1b[A",
  down: "\x1b[B",
  enter: "\r",
  esc: "\x1b",
  tab: "\t",
  shiftTab: "\x1b[Z",
  ctrlR: "\x12",
  ctrlG: "\x07",
  ctrlC: "\x03",
  ctrlS: "\x13",
  ctrlO: "\x0f",
  ctrlT: "\x14",
  newline: "\n",
  backspace: "\x7f",
  pageDown: "\x1b[6~",
  pageUp: "\x1b[5~",
  home: "\x01",
  end: "\x05",
  killLine: "\x0b",
} as const;

/** Shows styling as tags, so a test can see which tone a text got. */
export const tagged: Paint = { fg: (tone, text) => `<${tone}>${text}</${tone}>`, bold: (text) => `<b>${text}</b>` };

export function keybindings(overrides: Record<string, string | string[]> = {}): KeybindingsManager {
  return new KeybindingsManager(
    {
      ...TUI_KEYBINDINGS,
      "app.editor.external": { defaultKeys: "ctrl+g", description: "external editor" },
      "app.tools.expand": { defaultKeys: "ctrl+o", description: "toggle tool output" },
    },
    overrides as never,
  );
}

export function fakeTui(rows = 40, columns = 100) {
  const calls: string[] = [];
  const tui = {
    /** Mutable: a test resizes the terminal by setting `rows`. */
    terminal: { rows, columns },
    requestRender: (force?: boolean) => calls.push(force ? "render!" : "render"),
    stop: () => calls.push("stop"),
    start: () => calls.push("start"),
  };
  return { tui: tui as unknown as TUI, calls };
}

export function gitCommitRequest(overrides: Partial<PromptRequest> = {}): PromptRequest {
  return {
    nameOfHook: "Git interference",
    description: "Git staging is reserved for the Approver.",
    toolName: "bash",
    detail: `git commit -m "$(cat <<'EOF'\nfix wordign in readme\nEOF\n)"`,
    highlights: [{ start: 0, end: 10 }],
    labels: { authorize: "Authorize", edit: "Edit", abort: "Abort", dontAsk: "don't ask again" },
    editable: true,
    ...overrides,
  };
}

/** A prompt driven key by key, as pi's TUI would drive it. */
export function openPrompt(
  request: PromptRequest = gitCommitRequest(),
  options: {
    rows?: number;
    keys?: KeybindingsManager;
    externalEditor?: ExternalEditor;
    width?: number;
    paint?: Paint;
    /** Leave the prompt in its arming interval; `advance` moves the clock. */
    arming?: boolean;
    /** The fail-safe timeout closes the prompt this long after it opens. */
    timeoutMs?: number;
  } = {},
) {
  const { tui, calls } = fakeTui(options.rows ?? 40);
  const outcomes: PromptOutcome[] = [];
  const clock = manualTimers();
  const prompt = new PermissionPrompt(request, {
    tui,
    paint: options.paint ?? plain,
    keys: options.keys ?? keybindings(),
    done: (outcome) => outcomes.push(outcome),
    externalEditor: options.externalEditor,
    timers: clock.timers,
    endsAt: options.timeoutMs === undefined ? undefined : clock.timers.now() + options.timeoutMs,
  });
  if (!options.arming) clock.advance(ARMING_MS);
  prompt.focused = true;
  const width = options.width ?? 80;
  return {
    prompt,
    calls,
    outcomes,
    get outcome() {
      return outcomes[0];
    },
    /** Moves the clock on, running the prompt's timers that fall due. */
    advance(ms: number) {
      clock.advance(ms);
    },
    /** Timers the prompt has set and not cleared. */
    pendingTimers: () => clock.pending(),
    /** The prompt's clock: 0 when it opened. */
    now: () => clock.timers.now(),
    press(...keys: string[]) {
      for (const key of keys) prompt.handleInput(key);
    },
    type(text: string) {
      for (const char of text) prompt.handleInput(char);
    },
    lines(w = width) {
      return prompt.render(w);
    },
    /** The terminal's height changes, as when the Approver resizes the window. */
    resize(rows: number) {
      (tui.terminal as { rows: number }).rows = rows;
    },
    /** Rendered lines without the border and without trailing spaces. */
    body(w = width) {
      return prompt
        .render(w)
        .slice(1, -1)
        .map((line) =>
          line
            .slice(2, -2)
            .replace(/\x1b_pi:c\x07/g, "")
            .replace(/\x1b\[7m(.*?)\x1b\[(?:0|27)m/g, "$1")
            .trimEnd(),
        );
    },
  };
}
