// Ask before commands that delete or overwrite in bulk, highlighting the dangerous part.
import type { PermissionsAPI } from "pi-permission-hooks";

const DESTRUCTIVE = [/\brm\s+-[a-zA-Z]*[rf]/g, /\bgit\s+(reset\s+--hard|clean\s+-[a-zA-Z]*f|push\s+.*--force)/g, /\bdd\s+/g];

export default function (api: PermissionsAPI) {
  api.onToolUse({
    name: "Destructive command",
    description: "This command can delete work that is not committed anywhere.",
    handler({ tool }) {
      if (tool.name !== "bash" || !("command" in tool)) return;
      if (DESTRUCTIVE.some((pattern) => new RegExp(pattern.source).test(tool.command))) {
        return api.request({ highlight: DESTRUCTIVE, authorizeLabel: "Run it" });
      }
    },
  });
}
