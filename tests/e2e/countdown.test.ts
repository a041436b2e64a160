// The fail-safe timeout's countdown in real pi: the prompt shows the time left, second by second,
// in select mode and in edit mode, and closes as an Abort when it runs out.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as present from "../../lib/presenter.ts";
import { type PiSession, type ScriptStep, textOf } from "./harness.ts";
import { describeEachPi, promptReady, toolResult } from "./prompt.ts";

const DIST = join(import.meta.dir, "../../dist/hooks.js");
const HOOK = "Gate";
const GATE_MODULE = `export default (api) => api.onToolUse({
  name: "${HOOK}",
  handler: ({ tool }) => tool.name === "bash" && tool.command.includes("gate") && api.request(),
});
`;

function bash(command: string) {
  return { name: "bash", arguments: { command } };
}

describeEachPi("the fail-safe timeout's countdown", (suite) => {
  async function start(script: ScriptStep[], timeoutSeconds: number): Promise<PiSession> {
    const pi = await suite.start({
      script,
      extensions: [DIST],
      files: { "agent/permissions/gate.js": GATE_MODULE },
      settings: { permissionHooks: { timeoutSeconds } },
    });
    pi.prompt("go");
    await promptReady(pi, HOOK);
    return pi;
  }

  test("the prompt counts down; nobody answers, it closes as an Abort and the agent reads why", async () => {
    const pi = await start([{ toolCalls: [bash("echo gate > late.txt")] }, { text: "nobody asked" }], 4);
    expect(pi.screen()).toMatch(/Aborts in [34] s if nobody answers/);
    await pi.waitFor(present.countdownLine(2));
    await pi.waitFor(present.countdownLine(1));
    await pi.waitFor(present.notifyTimedOut(HOOK, 4).slice(0, 40));
    expect(pi.screen()).not.toContain("Authorization required");
    expect(pi.screen()).not.toContain("nobody asked");
    expect(existsSync(join(pi.cwd, "late.txt"))).toBe(false);
    const before = pi.records().length;
    pi.prompt("carry on");
    await pi.waitForRecord(before + 1);
    const blocked = (pi.records().at(-1)?.messages ?? []).find((message) => message.role === "toolResult");
    expect(blocked && textOf(blocked)).toBe(present.agentTimedOut(HOOK));
  });

  test("edit mode counts down too; answered in time, the call runs and the countdown is gone", async () => {
    const pi = await start([{ toolCalls: [bash("echo gate > ran.txt")] }, { text: "ok" }], 60);
    expect(pi.screen()).toMatch(/Aborts in (60|59) s if nobody answers/);
    pi.type("2");
    await pi.waitFor("Note to agent");
    const edit = await pi.waitFor(/Aborts in 5\d s if nobody answers/);
    expect(edit).toContain("ctrl+r restore command");
    pi.send("Enter");
    const { isError } = await toolResult(pi);
    expect(isError).toBe(false);
    expect(readFileSync(join(pi.cwd, "ran.txt"), "utf8")).toBe("gate\n");
    await pi.waitForGone("Aborts in");
  });
});
