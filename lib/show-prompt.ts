import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { TUI } from "@earendil-works/pi-tui";
import type { Attention } from "./attention.ts";
import { externalEditorFor } from "./external-editor.ts";
import { nothingDrawn, OVERLAY, paintOf } from "./frame.ts";
import { notify } from "./guard.ts";
import * as present from "./presenter.ts";
import { PermissionPrompt, type PromptOutcome, type PromptRequest } from "./prompt-overlay.ts";
import { askThroughDialogs, whenAborted } from "./rpc-prompt.ts";
import { systemTimers, type Timers } from "./timers.ts";

const OVERLAY_POLL_MS = 50;
/** Waiting this long behind another overlay, the Approver is told why nothing appears. */
const WAITING_NOTICE_MS = 2_000;
/** The widget set, and at once removed, to reach pi's TUI. */
const TUI_WIDGET = "pi-permission-hooks:tui";

/** A prompt on screen, as far as its caller is concerned: it can be closed as an Abort. */
export interface OpenPrompt {
  cancel(): void;
}
export type ShowPrompt = (
  ctx: ExtensionContext,
  request: PromptRequest,
  track: (prompt: OpenPrompt, open: boolean) => void,
) => Promise<PromptOutcome | "interrupted" | "timed out" | undefined>;

/** What runs beside an open prompt: signals to the Approver, and the fail-safe timeout. */
export interface PromptWatch {
  attention?: Attention;
  /** Unanswered this long, the prompt closes as "timed out". */
  timeoutSeconds?: number;
  timers?: Timers;
}

/**
 * Puts one request to the Approver and resolves with their outcome: in the TUI as the overlay,
 * for an RPC client through pi's dialogs (rpc-prompt.ts); "interrupted" when the turn is
 * interrupted before it opens, "timed out" when nobody answered within the timeout (the
 * Approver is told). `track` learns of the prompt while it is open.
 */
export async function showPrompt(
  ctx: ExtensionContext,
  request: PromptRequest,
  track: (prompt: OpenPrompt, open: boolean) => void,
  watch: PromptWatch = {},
): Promise<PromptOutcome | "interrupted" | "timed out"> {
  const timers = watch.timers ?? systemTimers;
  const { timeoutSeconds } = watch;
  let deadline: number | undefined;
  let expired = false;
  const start: Start = () => {
    if (timeoutSeconds !== undefined) deadline = timers.now() + timeoutSeconds * 1000;
    return deadline;
  };
  const opened: Opened = (prompt, write) => {
    track(prompt, true);
    const quiet = watch.attention?.watch(request, write);
    let timer: unknown;
    if (deadline !== undefined) {
      timer = timers.setTimeout(() => {
        expired = true;
        prompt.cancel();
      }, deadline - timers.now());
    }
    return () => {
      timers.clearTimeout(timer);
      quiet?.();
      track(prompt, false);
    };
  };
  const remainingMs = () => (deadline === undefined ? undefined : deadline - timers.now());
  const outcome =
    ctx.mode === "rpc"
      ? await askClient(ctx, request, opened, start, remainingMs)
      : await showOverlay(ctx, request, opened, start, timers);
  // pi's own dialog countdown may end an RPC select a moment before our timer does.
  const remaining = remainingMs();
  if (!expired && !(remaining !== undefined && remaining <= 0 && outcome !== "interrupted")) return outcome;
  notify(ctx, present.notifyTimedOut(request.nameOfHook, timeoutSeconds ?? 0), "warning");
  return "timed out";
}

/** The prompt is up: the watch starts. `write` reaches the terminal. Returns what ends the watch. */
type Opened = (prompt: OpenPrompt, write?: (data: string) => void) => () => void;

/** Fixes the fail-safe timeout's deadline as the prompt appears, and returns it. */
type Start = () => number | undefined;

/** The overlay. It never opens on top of another overlay (someone else's dialog): it waits for that to close. */
async function showOverlay(
  ctx: ExtensionContext,
  request: PromptRequest,
  opened: Opened,
  start: Start,
  timers: Timers,
): Promise<PromptOutcome | "interrupted"> {
  if (!(await otherOverlaysClosed(ctx, request.nameOfHook))) return "interrupted";
  const signal = ctx.signal;
  return ctx.ui.custom<PromptOutcome>((tui, theme, keybindings, done) => {
    const cancel = () => prompt.cancel();
    const unwatch = whenAborted(signal, cancel);
    let closed = () => {};
    const prompt: PermissionPrompt = new PermissionPrompt(request, {
      tui,
      paint: paintOf(theme),
      keys: keybindings,
      externalEditor: externalEditorFor(tui),
      timers,
      endsAt: start(),
      done: (outcome) => {
        unwatch();
        closed();
        done(outcome);
      },
    });
    closed = opened(prompt, (data) => tui.terminal.write(data));
    if (signal?.aborted) queueMicrotask(cancel);
    return prompt;
  }, OVERLAY);
}

/** pi's dialogs, which it sends to the RPC client; an interrupted turn or a cancel closes them as an Abort. */
async function askClient(
  ctx: ExtensionContext,
  request: PromptRequest,
  opened: Opened,
  start: Start,
  remainingMs: () => number | undefined,
): Promise<PromptOutcome | "interrupted"> {
  if (ctx.signal?.aborted) return "interrupted";
  const controller = new AbortController();
  const cancel = () => controller.abort();
  const unwatch = whenAborted(ctx.signal, cancel);
  start();
  const closed = opened({ cancel });
  try {
    return (await askThroughDialogs(ctx.ui, request, controller.signal, remainingMs)) ?? { kind: "abort" };
  } finally {
    unwatch();
    closed();
  }
}

/**
 * Resolves true once no overlay is open, false if the turn is interrupted meanwhile. An overlay
 * can't simply wait hidden on top: pi 0.80 closes the topmost overlay when any custom UI closes.
 */
async function otherOverlaysClosed(ctx: ExtensionContext, hookName: string): Promise<boolean> {
  const tui = tuiOf(ctx);
  for (let waited = 0; tui?.hasOverlay(); waited += OVERLAY_POLL_MS) {
    if (ctx.signal?.aborted) return false;
    if (waited === WAITING_NOTICE_MS) notify(ctx, present.notifyPromptWaiting(hookName));
    await new Promise((resolve) => setTimeout(resolve, OVERLAY_POLL_MS));
  }
  return !ctx.signal?.aborted;
}

/** pi hands its TUI only to UI factories; a widget factory that renders nothing is the lightest. */
function tuiOf(ctx: ExtensionContext): TUI | undefined {
  let tui: TUI | undefined;
  ctx.ui.setWidget(TUI_WIDGET, (given) => {
    tui = given;
    return nothingDrawn();
  });
  ctx.ui.setWidget(TUI_WIDGET, undefined);
  return tui;
}
