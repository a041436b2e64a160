import { afterEach, describe, expect, jest, test } from "bun:test";
import type { ExtensionContext, Theme } from "@earendil-works/pi-coding-agent";
import type { Component, TUI } from "@earendil-works/pi-tui";
import { notifyPromptWaiting } from "../lib/presenter.ts";
import { PermissionPrompt, type PromptOutcome } from "../lib/prompt-overlay.ts";
import { type OpenPrompt, showPrompt } from "../lib/show-prompt.ts";
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
