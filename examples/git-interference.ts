// Copy to ~/.pi/agent/permissions/ (or <project>/.pi/permissions/ in a trusted project).
// Staging is the Approver's job; commits are asked for, so the message can be reworded in Edit.
import type { PermissionsAPI } from "pi-permission-hooks";

export default function (api: PermissionsAPI) {
  api.onToolUse({
    name: "Git interference",
    description: "Git staging is reserved for the Approver.",
    handler({ tool }) {
      if (tool.name !== "bash" || !("command" in tool)) return;
      const { command } = tool;
      if (/\bgit\s+(add|stage)\b/.test(command)) return api.block("Stage files yourself? No: leave staging to the user.");
      if (/\bgit\s+commit\b/.test(command)) {
        return api.request({ guidance: "Check the commit message.", highlight: /git\s+commit/ });
      }
    },
  });
}
