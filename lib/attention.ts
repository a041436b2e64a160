// Attention: telling the Approver that a prompt waits. Which signal suits the terminal is a pure
// choice from the environment and the setting; the sequences are pure too. Attention itself
// writes them (TUI only: in RPC mode stdout is the protocol) and emits an event on pi's bus.
import * as present from "./presenter.ts";
import type { Timers } from "./timers.ts";
import { isString } from "./values.ts";
import { toVisible } from "./visible.ts";

export const SIGNALS = ["bell", "osc9", "osc777", "title"] as const;
export type Signal = (typeof SIGNALS)[number];
/** "auto" picks a signal from the terminal; "off" writes none (the event is still emitted). */
export type AttentionSetting = "auto" | "off" | Signal | readonly Signal[];

/** The channel on `pi.events` other extensions listen to; its data is an AttentionEvent. */
export const ATTENTION_CHANNEL = "permission-hooks:attention";
export interface AttentionEvent {
  hookName: string;
  toolName: string;
  /** The tool detail exactly as the agent gave it. */
  detail: string;
  /** How long the prompt has waited. */
  waitedMs: number;
}

/** A prompt answered sooner than this needs nobody's attention. */
export const FIRST_SIGNAL_MS = 1_000;

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The signals for this terminal. Auto picks a desktop notification only where the terminal is
 * known to show one (others might print it), else the bell, which every terminal handles.
 */
export function chooseSignals(setting: AttentionSetting, env: Env): Signal[] {
  if (setting === "off") return [];
  if (setting !== "auto") return isString(setting) ? [setting] : [...new Set(setting)];
  const program = env.TERM_PROGRAM;
  if (program === "iTerm.app" || env.LC_TERMINAL === "iTerm2" || program === "ghostty" || program === "WezTerm") return ["osc9"];
  if (/^(rxvt-unicode|foot)/.test(env.TERM ?? "")) return ["osc777"];
  return ["bell"];
}

export function insideTmux(env: Env): boolean {
  return Boolean(env.TMUX);
}

/**
 * What to write for a signal. Inside tmux a desktop notification is wrapped in tmux's passthrough
 * (which needs `allow-passthrough on`); the bell and the title are tmux's own to forward. The
 * title is pushed on the terminal's title stack, and `restoreSequence` pops it.
 */
export function signalSequence(signal: Signal, message: string, tmux: boolean): string {
  const text = oscText(message);
  switch (signal) {
    case "bell":
      return "\x07";
    case "osc9":
      return passthrough(`\x1b]9;${text}\x07`, tmux);
    case "osc777":
      return passthrough(`\x1b]777;notify;${oscText(present.ATTENTION_TITLE).replaceAll(";", ",")};${text}\x07`, tmux);
    case "title":
      return `\x1b[22;0t\x1b]0;${oscText(present.ATTENTION_TITLE)}\x07`;
    default:
      signal satisfies never;
      return "";
  }
}

/** Undoes what the signals left behind once the prompt is answered: the title. */
export function restoreSequence(signals: readonly Signal[]): string {
  return signals.includes("title") ? "\x1b[23;0t" : "";
}

function passthrough(sequence: string, tmux: boolean): string {
  return tmux ? `\x1bPtmux;${sequence.replaceAll("\x1b", "\x1b\x1b")}\x1b\\` : sequence;
}

/** Text inside an OSC string: visible notation for anything that could end or escape it. */
function oscText(text: string): string {
  return toVisible(text).replace(/[\x00-\x1f\x7f-\x9f]/g, " ");
}

export interface AttentionOptions {
  signals: readonly Signal[];
  /** Again while the prompt still waits, this often. */
  repeatMs: number;
  tmux: boolean;
  emit: (channel: string, data: AttentionEvent) => void;
  timers: Timers;
}

/** Signals the Approver about one prompt at a time; `watch` returns what to call once it is answered. */
export class Attention {
  readonly #options: AttentionOptions;

  constructor(options: AttentionOptions) {
    this.#options = options;
  }

  /** `write` reaches the terminal (absent for RPC clients, who get the event only). */
  watch(request: { nameOfHook: string; toolName: string; detail: string }, write?: (data: string) => void): () => void {
    const { signals, repeatMs, tmux, emit, timers } = this.#options;
    const opened = timers.now();
    let signalled = false;
    let handle: unknown;
    const signal = () => {
      const { nameOfHook: hookName, toolName, detail } = request;
      // Other extensions read `hookName`; inside, the field is `nameOfHook`, which the build renames.
      emit(ATTENTION_CHANNEL, { hookName, toolName, detail, waitedMs: timers.now() - opened });
      // The title is set once: each setting pushes the one before it.
      const due = signalled ? signals.filter((each) => each !== "title") : signals;
      if (write && due.length) {
        const message = present.attentionMessage(hookName, toolName);
        write(due.map((each) => signalSequence(each, message, tmux)).join(""));
      }
      signalled = true;
      handle = timers.setTimeout(signal, repeatMs);
    };
    handle = timers.setTimeout(signal, FIRST_SIGNAL_MS);
    return () => {
      timers.clearTimeout(handle);
      const restore = restoreSequence(signals);
      if (signalled && write && restore) write(restore);
    };
  }
}
