import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { describeError } from "./failure.ts";
import { notifyInternalError } from "./presenter.ts";

/** No exception from this extension reaches pi; a guard that fires says so. */
export async function guard<T>(ctx: ExtensionContext, where: string, run: () => T | Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    report(ctx, notifyInternalError(where, describeError(error)));
    return undefined;
  }
}

/** Tells the human; never throws, even with a context pi has retired after a session change. */
export function report(ctx: ExtensionContext, message: string, level: "error" | "warning" = "error"): void {
  try {
    if (ctx.hasUI) {
      notify(ctx, message, level);
      return;
    }
  } catch {
    // A retired context throws: the message goes where it would without a UI.
  }
  process.stderr.write(`${message}\n`);
}

/** A notice to the Approver: most notices say what was done. */
export const notify = (ctx: ExtensionContext, text: string, level: "info" | "warning" | "error" = "info"): void =>
  ctx.ui.notify(text, level);
