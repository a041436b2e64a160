import { afterEach, describe, expect, jest, test } from "bun:test";
import type { ExtensionContext, Theme } from "@earendil-works/pi-coding-agent";
import type { Component, TUI } from "@earendil-works/pi-tui";
import type { Attention } from "../lib/attention.ts";
import { notifyPromptWaiting, notifyTimedOut } from "../lib/presenter.ts";
import { PermissionPrompt, type PromptOutcome } from "../lib/prompt-overlay.ts";
import { type OpenPrompt, showPrompt } from "../lib/show-prompt.ts";
import { manualTimers } from "./support/manual-timers.ts";
import { fakeTui, gitCommitRequest, keybindings } from "./support/prompt-harness.ts";

afterEach(() => jest.useRealTimers());

async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

/**
 * pi's UI as showPrompt uses it: a TUI that may have someone else's overlay open, `custom` that
 * mounts a component and resolves with what it is done with, and notices.
 */
function fakeUi() {
  const { tui } = fakeTui();
  const state = {
    otherOverlay: false,
    notices: [] as string[],
    mounted: undefined as Component | undefined,
    options: undefined as unknown,
  };
  Object.assign(tui, { hasOverlay: () => state.otherOverlay });
  const theme = { fg: (_tone: string, text: string) => text, bold: (text: string) => text } as unknown as Theme;
  const controller = new AbortController();
  const ctx = {
    signal: controller.signal,
    ui: {
      notify: (message: string) => state.notices.push(message),
      setWidget: (_key: string, factory?: (tui: TUI) => unknown) => factory?.(tui),
      custom: (factory: (...args: unknown[]) => Component, options: unknown) =>
        new Promise<PromptOutcome>((resolve) => {
          state.options = options;
          state.mounted = factory(tui, theme, keybindings(), (outcome: PromptOutcome) => {
            state.mounted = undefined;
            resolve(outcome);
          });
        }),
    },
  } as unknown as ExtensionContext;
  return { ctx, state, interrupt: () => controller.abort() };
}

function tracker() {
  const events: [OpenPrompt, boolean][] = [];
  return { events, track: (prompt: OpenPrompt, open: boolean) => events.push([prompt, open]) };
}

describe("opening", () => {
  test("with no other overlay it opens at once, centred, as an overlay; track sees it open and close", async () => {
    const { ctx, state } = fakeUi();
    const { events, track } = tracker();
    const outcome = showPrompt(ctx, gitCommitRequest(), track);
    await flush();
    expect(state.mounted).toBeInstanceOf(PermissionPrompt);
    expect(state.options).toEqual({
      overlay: true,
      overlayOptions: { anchor: "center", width: "80%", minWidth: 40, maxHeight: "100%" },
    });
    expect(events).toEqual([[state.mounted as PermissionPrompt, true]]);
    const prompt = state.mounted as PermissionPrompt;
    prompt.cancel();
    expect(await outcome).toEqual({ kind: "abort" });
    expect(events).toEqual([
      [prompt, true],
      [prompt, false],
    ]);
  });

  test("an interrupted turn closes the open prompt as an Abort", async () => {
    const { ctx, state, interrupt } = fakeUi();
    const outcome = showPrompt(ctx, gitCommitRequest(), tracker().track);
    await flush();
    expect(state.mounted).toBeDefined();
    interrupt();
    expect(await outcome).toEqual({ kind: "abort" });
    expect(state.mounted).toBeUndefined();
  });
});

describe("another overlay is open", () => {
  test("it waits for that to close, and says why after 2 s, once", async () => {
    jest.useFakeTimers();
    const { ctx, state } = fakeUi();
    state.otherOverlay = true;
    const outcome = showPrompt(ctx, gitCommitRequest(), tracker().track);
    jest.advanceTimersByTime(1_950);
    await flush();
    expect(state.notices).toEqual([]);
    jest.advanceTimersByTime(50);
    await flush();
    expect(state.notices).toEqual([notifyPromptWaiting("Git interference")]);
    jest.advanceTimersByTime(10_000);
    await flush();
    expect(state.notices).toHaveLength(1);
    expect(state.mounted).toBeUndefined();

    state.otherOverlay = false;
    jest.advanceTimersByTime(50);
    await flush();
    expect(state.mounted).toBeInstanceOf(PermissionPrompt);
    (state.mounted as PermissionPrompt).cancel();
    expect(await outcome).toEqual({ kind: "abort" });
  });

  test("an interrupted turn while waiting: it never opens", async () => {
    jest.useFakeTimers();
    const { ctx, state, interrupt } = fakeUi();
    state.otherOverlay = true;
    const outcome = showPrompt(ctx, gitCommitRequest(), tracker().track);
    jest.advanceTimersByTime(100);
    interrupt();
    jest.advanceTimersByTime(50);
    expect(await outcome).toBe("interrupted");
    state.otherOverlay = false;
    expect(state.mounted).toBeUndefined();
  });
});

describe("RPC mode", () => {
  function rpcUi(select: (options: string[], signal?: AbortSignal) => Promise<string | undefined>) {
    const controller = new AbortController();
    const notices: string[] = [];
    const ctx = {
      mode: "rpc",
      hasUI: true,
      signal: controller.signal,
      ui: {
        notify: (message: string) => notices.push(message),
        select: (_title: string, options: string[], opts?: { signal?: AbortSignal }) => select(options, opts?.signal),
        custom: () => {
          throw new Error("no custom UI in RPC mode");
        },
      },
    } as unknown as ExtensionContext;
    return { ctx, notices, interrupt: () => controller.abort() };
  }

  test("the select's title says where the call comes from, under the title", async () => {
    let title: string | undefined;
    const { ctx } = rpcUi((options) => Promise.resolve(options[0]));
    const select = ctx.ui.select;
    ctx.ui.select = (given, options, opts) => {
      title = given;
      return select(given, options, opts);
    };
    const request = gitCommitRequest({ origin: "Made by a codemode script\x1b[2J the agent wrote.", detail: "git commit" });
    await showPrompt(ctx, request, tracker().track);
    expect(title).toBe(
      "! Authorization required: Git interference\nMade by a codemode script⟨ESC⟩[2J the agent wrote.\n\nGit staging is reserved for the Approver.\n\nbash: git commit",
    );
  });

  test("the request goes to pi's dialogs; track sees the prompt open and close", async () => {
    const { ctx } = rpcUi((options) => Promise.resolve(options[0]));
    const { events, track } = tracker();
    expect(await showPrompt(ctx, gitCommitRequest(), track)).toEqual({ kind: "authorize" });
    expect(events.map(([, open]) => open)).toEqual([true, false]);
  });

  test("closing the prompt from outside dismisses the dialog: an Abort", async () => {
    const { ctx } = rpcUi(
      (_options, signal) => new Promise((resolve) => signal?.addEventListener("abort", () => resolve(undefined))),
    );
    const { events, track } = tracker();
    const outcome = showPrompt(ctx, gitCommitRequest(), track);
    await flush();
    events[0]?.[0].cancel();
    expect(await outcome).toEqual({ kind: "abort" });
  });

  test("an interrupted turn: the open dialog closes as an Abort; a turn interrupted before asks nothing", async () => {
    const open = rpcUi(
      (_options, signal) => new Promise((resolve) => signal?.addEventListener("abort", () => resolve(undefined))),
    );
    const outcome = showPrompt(open.ctx, gitCommitRequest(), tracker().track);
    await flush();
    open.interrupt();
    expect(await outcome).toEqual({ kind: "abort" });

    let asked = false;
    const before = rpcUi(() => {
      asked = true;
      return Promise.resolve(undefined);
    });
    before.interrupt();
    expect(await showPrompt(before.ctx, gitCommitRequest(), tracker().track)).toBe("interrupted");
    expect(asked).toBe(false);
  });

  test("the timeout: the dialog's countdown is the time left; unanswered, the prompt is timed out and the client told", async () => {
    const clock = manualTimers();
    let countdown: number | undefined;
    const { ctx, notices } = rpcUi(
      (_options, signal) => new Promise((resolve) => signal?.addEventListener("abort", () => resolve(undefined))),
    );
    const select = ctx.ui.select;
    ctx.ui.select = (title, options, opts) => {
      countdown = opts?.timeout;
      return select(title, options, opts);
    };
    const outcome = showPrompt(ctx, gitCommitRequest(), tracker().track, { timeoutSeconds: 30, timers: clock.timers });
    await flush();
    expect(countdown).toBe(30_000);
    clock.advance(29_999);
    await flush();
    expect(notices).toEqual([]);
    clock.advance(1);
    expect(await outcome).toBe("timed out");
    expect(notices).toEqual([notifyTimedOut("Git interference", 30)]);
  });
});

describe("the fail-safe timeout in the TUI", () => {
  test("unanswered, the prompt closes as timed out and the Approver is told why", async () => {
    const clock = manualTimers();
    const { ctx, state } = fakeUi();
    const { events, track } = tracker();
    const outcome = showPrompt(ctx, gitCommitRequest(), track, { timeoutSeconds: 60, timers: clock.timers });
    await flush();
    clock.advance(59_999);
    expect(state.mounted).toBeInstanceOf(PermissionPrompt);
    clock.advance(1);
    expect(await outcome).toBe("timed out");
    expect(state.mounted).toBeUndefined();
    expect(state.notices).toEqual([notifyTimedOut("Git interference", 60)]);
    expect(events.map(([, open]) => open)).toEqual([true, false]);
  });

  test("the prompt counts down to the deadline on the watch's clock", async () => {
    const clock = manualTimers();
    const { ctx, state } = fakeUi();
    const outcome = showPrompt(ctx, gitCommitRequest(), tracker().track, { timeoutSeconds: 60, timers: clock.timers });
    await flush();
    const prompt = state.mounted as PermissionPrompt;
    const countdown = () => prompt.render(80).find((line) => line.includes("Aborts in"));
    expect(countdown()).toContain("Aborts in 60 s if nobody answers");
    clock.advance(1_000);
    expect(countdown()).toContain("Aborts in 59 s if nobody answers");
    prompt.cancel();
    expect(await outcome).toEqual({ kind: "abort" });
  });

  test("without the timeout the prompt shows no countdown", async () => {
    const clock = manualTimers();
    const { ctx, state } = fakeUi();
    const outcome = showPrompt(ctx, gitCommitRequest(), tracker().track, { timers: clock.timers });
    await flush();
    const prompt = state.mounted as PermissionPrompt;
    expect(prompt.render(80).join("\n")).not.toContain("Aborts in");
    prompt.cancel();
    await outcome;
  });

  test("answered in time: the Approver's outcome, and the timer is gone", async () => {
    const clock = manualTimers();
    const { ctx, state } = fakeUi();
    const outcome = showPrompt(ctx, gitCommitRequest(), tracker().track, { timeoutSeconds: 60, timers: clock.timers });
    await flush();
    (state.mounted as PermissionPrompt).cancel();
    expect(await outcome).toEqual({ kind: "abort" });
    expect(clock.pending()).toBe(0);
    expect(state.notices).toEqual([]);
  });
});

describe("attention", () => {
  test("watches the prompt while it is open, writing to pi's terminal; stops when it is answered", async () => {
    const { ctx, state, written } = fakeUiWithTerminal();
    const watched: string[] = [];
    const attention = {
      watch(request: { nameOfHook: string }, write?: (data: string) => void) {
        watched.push(`open ${request.nameOfHook}`);
        write?.("\x07");
        return () => watched.push("answered");
      },
    } as unknown as Attention;
    const outcome = showPrompt(ctx, gitCommitRequest(), tracker().track, { attention });
    await flush();
    expect(watched).toEqual(["open Git interference"]);
    expect(written).toEqual(["\x07"]);
    (state.mounted as PermissionPrompt).cancel();
    await outcome;
    expect(watched).toEqual(["open Git interference", "answered"]);
  });
});

function fakeUiWithTerminal() {
  const ui = fakeUi();
  const written: string[] = [];
  const custom = ui.ctx.ui.custom;
  ui.ctx.ui.custom = ((factory: (...args: unknown[]) => Component, options: unknown) =>
    custom(
      ((tui: TUI, ...rest: unknown[]) => {
        Object.assign(tui.terminal ?? {}, { write: (data: string) => written.push(data) });
        return factory(tui, ...rest);
      }) as never,
      options as never,
    )) as typeof custom;
  return { ...ui, written };
}
