// Copy to ~/.pi/agent/permissions/ (or <project>/.pi/permissions/ in a trusted project).
// Staging is the Approver's job; commits are asked for, so the message can be reworded in Edit.
// Matched per simple command: `echo "git add"` passes, `cd x && git -C . add y` and `bash -c 'git add .'` do not.
import type { PermissionsAPI } from "pi-permission-hooks";

export default function (api: PermissionsAPI) {
  api.onToolUse({
    name: "Git interference",
    description: "Git staging is reserved for the Approver.",
    tools: ["bash"],
    handler({ tool }) {
      for (const command of tool.commands) {
        if (command.programName !== "git") continue;
        const verb = command.subcommand()?.text;
        if (verb === "add" || verb === "stage") return api.block("Stage files yourself? No: leave staging to the user.");
        if (verb === "commit") return api.request({ guidance: "Check the commit message.", highlight: command });
      }
    },
  });
}
