import { homedir } from "node:os";
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { getAgentDir } from "@earendil-works/pi-coding-agent";
import type { KeyId } from "@earendil-works/pi-tui";
import { branchDecisions, type DecisionRecord } from "./decision-log.ts";
import type { Enablement } from "./enablement.ts";
import { paintOf } from "./frame.ts";
import type { Gatekeeper } from "./gatekeeper.ts";
import { guard } from "./guard.ts";
import type { LoadedHook, LoadResult } from "./loader.ts";
import {
  completePermissionsArgs,
  type PermissionsCommand,
  parsePermissionsCommand,
  resolveHookName,
} from "./permissions-command.ts";
import { PermissionsList, type Switches } from "./permissions-overlay.ts";
import * as present from "./presenter.ts";
import { toggleAllKeys } from "./toggle-all-key.ts";
import { toVisible } from "./visible.ts";

const OVERLAY = { anchor: "center", width: "80%", minWidth: 40, maxHeight: "100%" } as const;

/** The Approver's controls over which hooks run: /permissions and the toggle-all shortcut. */
export function registerPermissionControls(pi: ExtensionAPI, gatekeeper: Gatekeeper, enablement: Enablement): void {
  pi.registerCommand("permissions", {
    description: present.PERMISSIONS_DESCRIPTION,
    getArgumentCompletions: async (prefix) => {
      try {
        const { hooks } = await gatekeeper.loaded();
        const candidates = hooks.map(({ name, description }) => ({ name, description, enabled: enablement.isEnabled(name) }));
        return completePermissionsArgs(prefix, candidates);
      } catch {
        return null;
      }
    },
    handler: async (args, ctx) => {
      await guard(ctx, present.DURING.command, async () => run(parsePermissionsCommand(args), await gatekeeper.loaded(), ctx));
    },
  });

  for (const key of toggleAllKeys(getAgentDir())) {
    pi.registerShortcut(key as KeyId, {
      description: present.TOGGLE_ALL_DESCRIPTION,
      handler: async (ctx) => {
        await guard(ctx, present.DURING.toggleAll, async () => {
          if ((await gatekeeper.loaded()).hooks.length === 0) return ctx.ui.notify(present.NO_HOOKS, "warning");
          ctx.ui.notify(present.notifyAllSwitched(enablement.toggleAll(ctx), key), "info");
        });
      },
    });
  }

  async function run(command: PermissionsCommand, { hooks, errors }: LoadResult, ctx: ExtensionContext): Promise<void> {
    if (command.kind === "usage") return ctx.ui.notify(present.PERMISSIONS_USAGE, "warning");
    if (command.kind === "list") return list(hooks, errors, ctx);
    if (command.kind === "log")
      return ctx.ui.notify(present.decisionLog(branchDecisions(ctx.sessionManager.getBranch()).map(visibleDecision)), "info");
    const names = [...new Set(hooks.map((hook) => hook.name))];
    if (names.length === 0) return ctx.ui.notify(present.NO_HOOKS, "warning");
    if (command.name === undefined) {
      enablement.apply(new Map(names.map((name) => [name, command.enabled])), ctx);
      return ctx.ui.notify(present.notifyAllSwitched(command.enabled, "/permissions enable"), "info");
    }
    const name = resolveHookName(command.name, names);
    if (name === undefined) return ctx.ui.notify(present.notifyUnknownHook(command.name, names), "error");
    enablement.apply(new Map([[name, command.enabled]]), ctx);
    ctx.ui.notify(present.notifyHookSwitched(name, command.enabled), "info");
  }

  async function list(hooks: readonly LoadedHook[], errors: LoadResult["errors"], ctx: ExtensionContext): Promise<void> {
    if (!ctx.hasUI || ctx.mode !== "tui") {
      const rows = hooks.map(({ name, scope, source }) => ({ name, scope, source, enabled: enablement.isEnabled(name) }));
      return ctx.ui.notify(present.permissionsSummary(rows, errors), "info");
    }
    const switches = await ctx.ui.custom<Switches | undefined>(
      (tui, theme, keybindings, done) =>
        new PermissionsList(hooks, errors, (name) => enablement.isEnabled(name), {
          tui,
          paint: paintOf(theme),
          keys: keybindings,
          home: homedir(),
          done,
        }),
      { overlay: true, overlayOptions: OVERLAY },
    );
    if (switches) enablement.apply(switches, ctx);
  }
}

function visibleDecision(decision: DecisionRecord): DecisionRecord {
  const { hook, tool, detail, edited } = decision;
  return {
    ...decision,
    hook: toVisible(hook),
    tool: toVisible(tool),
    detail: toVisible(detail),
    ...(edited === undefined ? {} : { edited: toVisible(edited) }),
  };
}
