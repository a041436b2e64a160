// Ask before the agent writes outside the working directory: with the write and edit tools (where
// the file really lands, through symlinks), and with bash redirects (`cd .. && echo x > f`
// included; a directory known only at run time asks too). Works with pi's built-in edit tool and
// with Claude-Code-shaped ones such as picc-edit.
import { realpathSync } from "node:fs";
import { isAbsolute, posix, relative } from "node:path";
import type { PermissionsAPI } from "pi-permission-hooks";

/** Whether `target`, written from `dir` (relative to the project), may land outside it. */
function outside(dir: string | undefined, target: string): boolean {
  if (dir === undefined || isAbsolute(target) || target.startsWith("~") || dir.startsWith("/") || dir.startsWith("~"))
    return true;
  return posix.normalize(posix.join(dir, target)).startsWith("..");
}

export default function (api: PermissionsAPI) {
  api.onToolUse({
    name: "Outside the project",
    description: "Writes outside the working directory need a yes.",
    tools: ["write", "edit"],
    handler({ cwd, tool }) {
      // Not projectPath: it reads `link/x` as inside even when `link` points out of the project.
      const fromProject = relative(realpathSync(cwd), tool.realPath);
      if (fromProject === ".." || fromProject.startsWith("../") || isAbsolute(fromProject))
        return api.request({ highlight: tool.path });
    },
  });
  api.onToolUse({
    name: "Redirect outside the project",
    description: "Shell redirects that write outside the working directory need a yes.",
    tools: ["bash"],
    handler({ tool }) {
      for (const command of tool.commands) {
        for (const redirect of command.redirects) {
          if (!/>/.test(redirect.op) || /&$/.test(redirect.op) || !redirect.target) continue;
          if (redirect.target.text === "/dev/null" || !(redirect.target.dynamic || outside(command.dir, redirect.target.text)))
            continue;
          return api.request({ highlight: redirect.target });
        }
      }
    },
  });
}
