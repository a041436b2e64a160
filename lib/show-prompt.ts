import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { TUI } from "@earendil-works/pi-tui";
import { externalEditorFor } from "./external-editor.ts";
import { paintOf } from "./frame.ts";
import * as present from "./presenter.ts";
import { PermissionPrompt, type PromptOutcome, type PromptRequest } from "./prompt-overlay.ts";

const OVERLAY = { anchor: "center", width: "80%", minWidth: 40, maxHeight: "100%" } as const;
const OVERLAY_POLL_MS = 50;
/** Waiting this long behind another overlay, the Approver is told why nothing appears. */
const WAITING_NOTICE_MS = 2_000;

/** A prompt on screen, as far as its caller is concerned: it can be closed as an Abort. */
export interface OpenPrompt {
  cancel(): void;
}
export type ShowPrompt = (
  ctx: ExtensionContext,
  request: PromptRequest,
  track: (prompt: OpenPrompt, open: boolean) => void,
) => Promise<PromptOutcome | "interrupted" | undefined>;

/**
 * Shows one prompt as an overlay and resolves with the Approver's outcome, or "interrupted" when
 * the turn is interrupted first. It never opens on top of another overlay (someone else's
 * dialog): it waits for that to close. `track` learns of the prompt while it is open.
 */
export async function showPrompt(
  ctx: ExtensionContext,
  request: PromptRequest,
  track: (prompt: OpenPrompt, open: boolean) => void,
): Promise<PromptOutcome | "interrupted"> {
  if (!(await otherOverlaysClosed(ctx, request.hookName))) return "interrupted";
  const signal = ctx.signal;
  return ctx.ui.custom<PromptOutcome>(
    (tui, theme, keybindings, done) => {
      const cancel = () => prompt.cancel();
      const prompt: PermissionPrompt = new PermissionPrompt(request, {
        tui,
        paint: paintOf(theme),
        keys: keybindings,
        externalEditor: externalEditorFor(tui),
        done: (outcome) => {
          signal?.removeEventListener("abort", cancel);
          track(prompt, false);
          done(outcome);
        },
      });
      signal?.addEventListener("abort", cancel, { once: true });
      track(prompt, true);
      if (signal?.aborted) queueMicrotask(cancel);
      return prompt;
    },
    { overlay: true, overlayOptions: OVERLAY },
  );
}

/**
 * Resolves true once no overlay is open, false if the turn is interrupted meanwhile. An overlay
 * can't simply wait hidden on top: pi 0.80 closes the topmost overlay when any custom UI closes.
 */
async function otherOverlaysClosed(ctx: ExtensionContext, hookName: string): Promise<boolean> {
  const tui = tuiOf(ctx);
  for (let waited = 0; tui?.hasOverlay(); waited += OVERLAY_POLL_MS) {
    if (ctx.signal?.aborted) return false;
    if (waited === WAITING_NOTICE_MS) ctx.ui.notify(present.notifyPromptWaiting(hookName), "info");
    await new Promise((resolve) => setTimeout(resolve, OVERLAY_POLL_MS));
  }
  return !ctx.signal?.aborted;
}

/** pi hands its TUI only to UI factories; a widget factory that renders nothing is the lightest. */
function tuiOf(ctx: ExtensionContext): TUI | undefined {
  let tui: TUI | undefined;
  const key = "pi-permission-hooks:tui";
  ctx.ui.setWidget(key, (given) => {
    tui = given;
    return { render: () => [], invalidate() {} };
  });
  ctx.ui.setWidget(key, undefined);
  return tui;
}
