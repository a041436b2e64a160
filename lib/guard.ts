import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { report } from "./gatekeeper.ts";
import { notifyInternalError } from "./presenter.ts";

/** No exception from this extension reaches pi; a guard that fires says so. */
export async function guard<T>(ctx: ExtensionContext, where: string, run: () => T | Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    report(ctx, notifyInternalError(where, error instanceof Error ? error.message : String(error)));
    return undefined;
  }
}
