import { describe, expect, test } from "bun:test";
import {
  ATTENTION_CHANNEL,
  Attention,
  type AttentionEvent,
  chooseSignals,
  insideTmux,
  restoreSequence,
  type Signal,
  signalSequence,
} from "../lib/attention.ts";
import { ATTENTION_TITLE, attentionMessage } from "../lib/presenter.ts";
import { manualTimers } from "./support/manual-timers.ts";

describe("which signal", () => {
  test("auto: a desktop notification where the terminal is known to show one, else the bell", () => {
    const cases: [Record<string, string>, Signal[]][] = [
      [{ TERM_PROGRAM: "iTerm.app" }, ["osc9"]],
      [{ TERM_PROGRAM: "tmux", LC_TERMINAL: "iTerm2" }, ["osc9"]],
      [{ TERM_PROGRAM: "ghostty" }, ["osc9"]],
      [{ TERM_PROGRAM: "WezTerm" }, ["osc9"]],
      [{ TERM: "rxvt-unicode-256color" }, ["osc777"]],
      [{ TERM: "foot" }, ["osc777"]],
      [{ TERM_PROGRAM: "Apple_Terminal" }, ["bell"]],
      [{ TERM_PROGRAM: "vscode", TERM: "xterm-256color" }, ["bell"]],
      [{}, ["bell"]],
    ];
    for (const [env, signals] of cases) expect(chooseSignals("auto", env)).toEqual(signals);
  });

  test("as set: one signal, several, or none", () => {
    expect(chooseSignals("osc777", { TERM_PROGRAM: "iTerm.app" })).toEqual(["osc777"]);
    expect(chooseSignals(["bell", "title", "bell"], {})).toEqual(["bell", "title"]);
    expect(chooseSignals("off", { TERM_PROGRAM: "iTerm.app" })).toEqual([]);
  });

  test("inside tmux", () => {
    expect(insideTmux({ TMUX: "/tmp/tmux-1000/default,123,0" })).toBe(true);
    expect(insideTmux({ TMUX: "" })).toBe(false);
    expect(insideTmux({})).toBe(false);
  });
});

describe("the sequences written", () => {
  const message = attentionMessage("Git", "bash");

  test("bell, OSC 9, OSC 777, the title (pushed, then popped)", () => {
    expect(signalSequence("bell", message, false)).toBe("\x07");
    expect(signalSequence("osc9", message, false)).toBe(`\x1b]9;${message}\x07`);
    expect(signalSequence("osc777", message, false)).toBe(`\x1b]777;notify;${ATTENTION_TITLE};${message}\x07`);
    expect(signalSequence("title", message, false)).toBe(`\x1b[22;0t\x1b]0;${ATTENTION_TITLE}\x07`);
    expect(restoreSequence(["bell", "title"])).toBe("\x1b[23;0t");
    expect(restoreSequence(["bell", "osc9"])).toBe("");
  });

  test("inside tmux, notifications go through tmux's passthrough with every ESC doubled; bell and title are tmux's own", () => {
    expect(signalSequence("osc9", message, true)).toBe(`\x1bPtmux;\x1b\x1b]9;${message}\x07\x1b\\`);
    expect(signalSequence("osc777", message, true)).toBe(`\x1bPtmux;\x1b\x1b]777;notify;${ATTENTION_TITLE};${message}\x07\x1b\\`);
    expect(signalSequence("bell", message, true)).toBe("\x07");
    expect(signalSequence("title", message, true)).toBe(signalSequence("title", message, false));
  });

  test("a hook name can't end the sequence or start another", () => {
    const hostile = attentionMessage("x\x07\x1b]0;owned\x1b\\", "bash");
    expect(signalSequence("osc9", hostile, false)).toBe(
      `\x1b]9;${attentionMessage("x⟨U+0007⟩⟨ESC⟩]0;owned⟨ESC⟩\\", "bash")}\x07`,
    );
  });
});

describe("watching a prompt", () => {
  const request = { nameOfHook: "Git", toolName: "bash", detail: "git commit" };

  function watched(signals: Signal[], tmux = false) {
    const clock = manualTimers();
    const events: [string, AttentionEvent][] = [];
    const written: string[] = [];
    const attention = new Attention({
      signals,
      repeatMs: 60_000,
      tmux,
      emit: (channel, data) => events.push([channel, data]),
      timers: clock.timers,
    });
    return { clock, events, written, attention, write: (data: string) => written.push(data) };
  }

  test("nothing for a prompt answered within the first second", () => {
    const { clock, events, written, attention, write } = watched(["bell"]);
    const answered = attention.watch(request, write);
    clock.advance(999);
    answered();
    clock.advance(120_000);
    expect(events).toEqual([]);
    expect(written).toEqual([]);
  });

  test("after a second, the signal and the event; again once per interval while it waits; never after the answer", () => {
    const { clock, events, written, attention, write } = watched(["osc9"]);
    const answered = attention.watch(request, write);
    clock.advance(1_000);
    const osc9 = signalSequence("osc9", attentionMessage("Git", "bash"), false);
    expect(written).toEqual([osc9]);
    expect(events).toEqual([[ATTENTION_CHANNEL, { hookName: "Git", toolName: "bash", detail: "git commit", waitedMs: 1_000 }]]);
    clock.advance(59_999);
    expect(written).toHaveLength(1);
    clock.advance(1);
    expect(written).toEqual([osc9, osc9]);
    expect(events.map(([, event]) => event.waitedMs)).toEqual([1_000, 61_000]);
    answered();
    clock.advance(600_000);
    expect(written).toHaveLength(2);
  });

  test("the title is set once and restored at the answer", () => {
    const { clock, written, attention, write } = watched(["bell", "title"]);
    const answered = attention.watch(request, write);
    clock.advance(61_000);
    answered();
    const title = signalSequence("title", "", false);
    expect(written).toEqual([`\x07${title}`, "\x07", restoreSequence(["title"])]);
  });

  test("without a terminal (RPC) and with signals off, the event still goes out", () => {
    for (const [signals, write] of [
      [["bell"], undefined],
      [[], (data: string) => void data],
    ] as const) {
      const { clock, events, attention } = watched([...signals]);
      attention.watch(request, write);
      clock.advance(1_000);
      expect(events).toHaveLength(1);
    }
  });
});
