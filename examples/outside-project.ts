// Ask before the agent writes or edits a file outside the working directory.
// Works with pi's built-in edit tool and with Claude-Code-shaped ones such as picc-edit.
import type { PermissionsAPI } from "pi-permission-hooks";

export default function (api: PermissionsAPI) {
  api.onToolUse({
    name: "Outside the project",
    description: "Writes outside the working directory need a yes.",
    handler({ tool }) {
      if ((tool.name === "write" || tool.name === "edit") && "absolutePath" in tool && tool.projectPath === undefined) {
        return api.request({ highlight: tool.path });
      }
    },
  });
}
