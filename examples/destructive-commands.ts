// Ask before commands that delete or overwrite in bulk, highlighting each one.
import type { PermissionsAPI, ShellCommand } from "pi-permission-hooks";

function destructive(command: ShellCommand): boolean {
  switch (command.programName) {
    case "rm":
      return command.hasFlag("-r", "-R", "--recursive") && command.hasFlag("-f", "--force");
    case "git": {
      const verb = command.subcommand()?.text;
      return (
        (verb === "reset" && command.hasFlag("--hard")) ||
        (verb === "clean" && command.hasFlag("-f", "--force")) ||
        (verb === "push" && command.hasFlag("-f", "--force"))
      );
    }
    case "dd":
      return true;
    default:
      return false;
  }
}

export default function (api: PermissionsAPI) {
  api.onToolUse({
    name: "Destructive command",
    description: "This command can delete work that is not committed anywhere.",
    tools: ["bash"],
    handler({ tool }) {
      const found = tool.commands.filter(destructive);
      // A line the parser could not follow may hide one: ask then too.
      if (found.length > 0 || !tool.commandsComplete) return api.request({ highlight: found, authorizeLabel: "Run it" });
    },
  });
}
