import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { Attention, chooseSignals, insideTmux } from "./lib/attention.ts";
import { DecisionLog } from "./lib/decision-log.ts";
import { Enablement } from "./lib/enablement.ts";
import { describeError } from "./lib/failure.ts";
import { blocked, Gatekeeper } from "./lib/gatekeeper.ts";
import { Grants } from "./lib/grants.ts";
import { guard, report } from "./lib/guard.ts";
import { importAfresh, loadPi } from "./lib/host.ts";
import { registerPermissionControls } from "./lib/permissions.ts";
import { agentInternalError, DURING, notifyInternalError, notifyPiUnavailable } from "./lib/presenter.ts";
import { type PermissionSettings, type PiSettings, piSettingsFor, readSettings } from "./lib/settings.ts";
import { type PromptWatch, showPrompt } from "./lib/show-prompt.ts";
import { systemTimers } from "./lib/timers.ts";
import { FolderWatch, systemFolders } from "./lib/watch.ts";

export type * from "./lib/api.ts";

/** pi-permission-hooks: gates the agent's tool calls through the user's permission hooks. */
export default async function permissionHooks(pi: ExtensionAPI): Promise<void> {
  const unavailable = await loadPi();
  if (unavailable !== undefined) return blockEverything(pi, unavailable);
  const enablement = new Enablement(pi);
  const decisions = new DecisionLog(pi);
  let watch: PromptWatch = {};
  const grants = new Grants(pi);
  const gatekeeper = new Gatekeeper(
    enablement,
    (ctx, request, track) => showPrompt(ctx, request, track, watch),
    decisions,
    grants,
    importAfresh,
  );
  registerPermissionControls(pi, gatekeeper, enablement, grants);
  // The context of the session being watched: a change reloads its hooks.
  let watched: ExtensionContext | undefined;
  const folders = new FolderWatch(systemFolders, systemTimers, (changed) => {
    const ctx = watched;
    if (ctx)
      void guard(ctx, DURING.reload, async () => {
        await gatekeeper.reload(ctx, changed);
        if (watched === ctx) folders.watch(await gatekeeper.watchedFolders(ctx));
      });
  });

  pi.on("session_start", async (_event, ctx) => {
    // pi's settings files, read once for the packages' hooks and for this extension's settings.
    let settingsFiles: PiSettings | undefined;
    await guard(ctx, DURING.load, () => {
      enablement.restore(ctx);
      settingsFiles = piSettingsFor(ctx);
      gatekeeper.load(ctx, settingsFiles);
      // A print or JSON run ends with its turn: nobody saves a module meanwhile.
      if (!ctx.hasUI) return;
      watched = ctx;
      void gatekeeper.watchedFolders(ctx).then(
        (list) => watched === ctx && folders.watch(list),
        () => undefined,
      );
    });
    await guard(ctx, DURING.settings, () => {
      const { settings, problems } = readSettings(ctx, settingsFiles);
      for (const problem of problems) report(ctx, problem, "warning");
      watch = promptWatch(settings, pi);
      decisions.setAuditFile(settings.auditFile);
    });
  });
  pi.on("session_tree", (_event, ctx) =>
    guard(ctx, DURING.tree, () => {
      gatekeeper.onTree(ctx);
      enablement.restore(ctx);
    }),
  );
  pi.on("session_shutdown", (_event, ctx) =>
    guard(ctx, DURING.shutdown, () => {
      watched = undefined;
      folders.close();
      gatekeeper.close();
    }),
  );
  pi.on("turn_end", (_event, ctx) => guard(ctx, DURING.turnEnd, () => gatekeeper.onTurnEnd(ctx)));
  pi.on("tool_result", (event, ctx) => guard(ctx, DURING.note, () => gatekeeper.onToolResult(event)));
  pi.on("tool_call", async (event, ctx) => {
    try {
      return await gatekeeper.onToolCall(event, ctx);
    } catch (error) {
      const message = describeError(error);
      report(ctx, notifyInternalError(DURING.toolCall, message));
      return blocked(agentInternalError(message));
    }
  });
}

/** What runs beside each prompt of this session: attention (from the terminal pi runs in) and the timeout. */
function promptWatch(settings: PermissionSettings, pi: ExtensionAPI): PromptWatch {
  const attention = new Attention({
    signals: chooseSignals(settings.attention, process.env),
    repeatMs: settings.attentionRepeatSeconds * 1000,
    tmux: insideTmux(process.env),
    emit: (channel, data) => pi.events.emit(channel, data),
    timers: systemTimers,
  });
  return { attention, timeoutSeconds: settings.timeoutSeconds };
}

/** Without pi's own packages nothing can be checked: a notice each session, and every call blocked. */
function blockEverything(pi: ExtensionAPI, error: string): void {
  pi.on("session_start", (_event, ctx) => report(ctx, notifyPiUnavailable(error)));
  pi.on("tool_call", () => blocked(agentInternalError(error)));
}
