// tool.commands in real pi: a module that blocks `git add` by its parsed commands blocks it inside
// a chain and lets a quoted "git add" run, on every supported pi.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as present from "../../lib/presenter.ts";
import { killAll, PI_VERSIONS, runPiPrint, textOf } from "./harness.ts";

const DIST = join(import.meta.dir, "../../dist/hooks.js");
const HOOK = "No git add";
const REASON = "Leave staging to the user.";

const MODULE = `import type { PermissionsAPI } from "pi-permission-hooks";
export default function (api: PermissionsAPI) {
  api.onToolUse({
    name: "${HOOK}",
    tools: ["bash"],
    handler({ tool }) {
      for (const command of tool.commands)
        if (command.programName === "git" && command.subcommand()?.text === "add") return api.block("${REASON}");
    },
  });
}
`;

afterAll(killAll);

describe.each(PI_VERSIONS)("pi %s: matching commands", (version) => {
  test('git add in a chain is blocked; echo "git add" runs', async () => {
    const run = await runPiPrint({
      version,
      prompt: "go",
      script: [
        { toolCalls: [{ name: "bash", arguments: { command: "echo first > chained.txt && command git -C . add ." } }] },
        { toolCalls: [{ name: "bash", arguments: { command: 'echo "git add" > quoted.txt' } }] },
        { text: "ok" },
      ],
      extensions: [DIST],
      files: { "agent/permissions/no-git-add.ts": MODULE },
      timeoutMs: 60_000,
    });
    try {
      expect(run.exitCode).toBe(0);
      const results = run.records
        .slice(1)
        .map((record) => record.messages.filter((message) => message.role === "toolResult").at(-1));
      expect(results[0] && textOf(results[0])).toContain(present.agentHookBlock(HOOK, REASON));
      expect(existsSync(join(run.sandbox.cwd, "chained.txt"))).toBe(false);
      expect(results[1]?.isError).toBe(false);
      expect(readFileSync(join(run.sandbox.cwd, "quoted.txt"), "utf8")).toBe("git add\n");
    } finally {
      run.sandbox.remove();
    }
  }, 300_000);
});
