// The Approver's controls, registered with pi: /permissions (carried out by permissions-run.ts) and
// the toggle-all shortcut.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { getAgentDir } from "@earendil-works/pi-coding-agent";
import type { KeyId } from "@earendil-works/pi-tui";
import type { Enablement } from "./enablement.ts";
import type { Gatekeeper } from "./gatekeeper.ts";
import type { Grants } from "./grants.ts";
import { guard, notify } from "./guard.ts";
import { completePermissionsArgs, parsePermissionsCommand } from "./permissions-command.ts";
import { runPermissionsCommand } from "./permissions-run.ts";
import * as present from "./presenter.ts";
import { toggleAllKeys } from "./toggle-all-key.ts";

/** The Approver's controls over which hooks run: /permissions and the toggle-all shortcut. */
export function registerPermissionControls(
  pi: ExtensionAPI,
  gatekeeper: Gatekeeper,
  enablement: Enablement,
  grants: Grants,
): void {
  pi.registerCommand("permissions", {
    description: present.PERMISSIONS_DESCRIPTION,
    getArgumentCompletions: async (prefix) => {
      try {
        const { hooks } = await gatekeeper.loaded();
        const candidates = hooks.map((hook) => ({ ...hook, enabled: enablement.isEnabled(hook.name) }));
        return completePermissionsArgs(
          prefix,
          candidates,
          grants.list().map((grant) => grant.rule),
        );
      } catch {
        return null;
      }
    },
    handler: async (args, ctx) => {
      await guard(ctx, present.DURING.command, async () =>
        runPermissionsCommand({ gatekeeper, enablement, grants }, parsePermissionsCommand(args), await gatekeeper.loaded(), ctx),
      );
    },
  });

  for (const key of toggleAllKeys(getAgentDir())) {
    pi.registerShortcut(key as KeyId, {
      description: present.TOGGLE_ALL_DESCRIPTION,
      handler: async (ctx) => {
        await guard(ctx, present.DURING.toggleAll, async () => {
          if (!(await gatekeeper.loaded()).hooks.length) return notify(ctx, present.NO_HOOKS, "warning");
          notify(ctx, present.notifyAllSwitched(enablement.toggleAll(ctx), key));
        });
      },
    });
  }
}
