import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Enablement } from "./lib/enablement.ts";
import { describeError } from "./lib/failure.ts";
import { Gatekeeper } from "./lib/gatekeeper.ts";
import { guard, report } from "./lib/guard.ts";
import { registerPermissionControls } from "./lib/permissions.ts";
import { agentInternalError, DURING, notifyInternalError } from "./lib/presenter.ts";

export type * from "./lib/api.ts";

/** pi-permission-hooks: gates the agent's tool calls through the user's permission hooks. */
export default function permissionHooks(pi: ExtensionAPI): void {
  const enablement = new Enablement(pi);
  const gatekeeper = new Gatekeeper(enablement);
  registerPermissionControls(pi, gatekeeper, enablement);

  pi.on("session_start", (_event, ctx) =>
    guard(ctx, DURING.load, () => {
      enablement.restore(ctx);
      gatekeeper.load(ctx);
    }),
  );
  pi.on("session_tree", (_event, ctx) =>
    guard(ctx, DURING.tree, () => {
      gatekeeper.onTree();
      enablement.restore(ctx);
    }),
  );
  pi.on("session_shutdown", (_event, ctx) => guard(ctx, DURING.shutdown, () => gatekeeper.close()));
  pi.on("turn_end", (_event, ctx) => guard(ctx, DURING.turnEnd, () => gatekeeper.onTurnEnd(ctx)));
  pi.on("tool_result", (event, ctx) => guard(ctx, DURING.note, () => gatekeeper.onToolResult(event)));
  pi.on("tool_call", async (event, ctx) => {
    try {
      return await gatekeeper.onToolCall(event, ctx);
    } catch (error) {
      const message = describeError(error);
      report(ctx, notifyInternalError(DURING.toolCall, message));
      return { block: true, reason: agentInternalError(message) };
    }
  });
}
