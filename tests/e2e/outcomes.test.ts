// Every row of the README's outcomes table, in real pi: what runs, what the agent is told, what the human sees.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as present from "../../lib/presenter.ts";
import { runPiPrint, type ScriptStep, textOf } from "./harness.ts";
import { describeEachPi, promptReady, toolResult } from "./prompt.ts";

const DIST = join(import.meta.dir, "../../dist/hooks.js");
const HOOK = "Gate";

/** A TypeScript permission module with only a type import: asks for every bash call that mentions `gate`. */
const GATE_MODULE = `import type { PermissionsAPI } from "pi-permission-hooks";
export default function (api: PermissionsAPI) {
  api.onToolUse({
    name: "${HOOK}",
    description: "Commands that mention gate are asked for.",
    handler(input) {
      if (input.tool.name !== "bash" || !("command" in input.tool)) return;
      if (input.tool.command.includes("block-me")) return api.block("not with this hook around");
      if (input.tool.command.includes("gate")) return api.request({ guidance: "Have a look.", highlight: "gate" });
    },
  });
}
`;

function bash(command: string, id?: string) {
  return { name: "bash", arguments: { command }, ...(id ? { id } : {}) };
}

describeEachPi("outcomes", (suite) => {
  async function start(script: ScriptStep[], env: Record<string, string> = {}) {
    const pi = await suite.start({ script, extensions: [DIST], files: { "agent/permissions/gate.ts": GATE_MODULE }, env });
    pi.prompt("go");
    await promptReady(pi, HOOK);
    return pi;
  }

  test("Authorize without a note: it runs, and the agent reads only the output", async () => {
    const session = await start([{ toolCalls: [bash("echo gate > ran.txt && echo out-1")] }, { text: "ok" }]);
    expect(session.screen()).toContain("Have a look.");
    session.send("Enter");
    const { text, isError } = await toolResult(session);
    expect(isError).toBe(false);
    expect(text).toBe("out-1\n");
    expect(readFileSync(join(session.cwd, "ran.txt"), "utf8")).toBe("gate\n");
  });

  test("Authorize with a note: the note comes before the output", async () => {
    const session = await start([{ toolCalls: [bash("echo gate-out")] }, { text: "ok" }]);
    session.send("Tab");
    session.type("use the fast path next time");
    session.send("Enter");
    const { text, isError } = await toolResult(session);
    expect(isError).toBe(false);
    expect(text).toBe(`${present.agentAuthorizeNote(HOOK, "use the fast path next time")}\n\ngate-out\n`);
    await session.waitFor(present.notifyAuthorizedWithNote(HOOK).slice(0, 40));
  });

  test("Edit, changed, with a note: the edit runs and the agent is told exactly what ran", async () => {
    const session = await start([{ toolCalls: [bash("echo gate-typo | tee edited.txt")] }, { text: "ok" }]);
    session.type("2");
    await session.waitFor("Note to agent");
    session.send(...Array<string>("edited.txt".length).fill("BSpace"));
    session.type("fixed.txt");
    session.send("Tab");
    session.type("renamed the file");
    session.send("Enter");
    const { text, isError } = await toolResult(session);
    const ran = "echo gate-typo | tee fixed.txt";
    expect(isError).toBe(false);
    expect(text).toBe(`${present.agentEditNote(HOOK, ran, "renamed the file")}\n\ngate-typo\n`);
    expect(readFileSync(join(session.cwd, "fixed.txt"), "utf8")).toBe("gate-typo\n");
    expect(existsSync(join(session.cwd, "edited.txt"))).toBe(false);
    await session.waitFor(present.notifyEdited(HOOK).slice(0, 40));
  });

  test("Edit, unchanged, no note: a silent Authorize", async () => {
    const session = await start([{ toolCalls: [bash("echo gate-same")] }, { text: "ok" }]);
    session.type("2");
    await session.waitFor("Note to agent");
    session.send("Enter");
    const { text } = await toolResult(session);
    expect(text).toBe("gate-same\n");
  });

  test("Edit, unchanged, with a note: Authorize with the note", async () => {
    const session = await start([{ toolCalls: [bash("echo gate-same")] }, { text: "ok" }]);
    session.type("2");
    await session.waitFor("Note to agent");
    session.send("Tab");
    session.type("fine as it is");
    session.send("Enter");
    const { text } = await toolResult(session);
    expect(text).toBe(`${present.agentAuthorizeNote(HOOK, "fine as it is")}\n\ngate-same\n`);
  });

  test("Abort with a note: blocked, the note reaches the agent, the turn goes on", async () => {
    const session = await start([{ toolCalls: [bash("echo gate > aborted.txt")] }, { text: "understood" }]);
    session.send("Up", "Tab");
    session.type("write it to notes.txt instead");
    session.send("Enter");
    const { text, isError } = await toolResult(session);
    expect(isError).toBe(true);
    expect(text).toContain(present.agentAbort(HOOK, "write it to notes.txt instead"));
    expect(existsSync(join(session.cwd, "aborted.txt"))).toBe(false);
    await session.waitFor("understood");
  });

  test("esc: blocked and the turn stops; the agent reads why on the next prompt", async () => {
    const session = await start([{ toolCalls: [bash("echo gate > aborted.txt")] }, { text: "an answer nobody asked for" }]);
    session.send("Escape");
    await session.waitFor("Operation aborted");
    await session.waitFor(present.notifyAborted(HOOK, false));
    expect(session.screen()).not.toContain("an answer nobody asked for");
    expect(existsSync(join(session.cwd, "aborted.txt"))).toBe(false);
    const before = session.records().length;
    session.prompt("carry on");
    await session.waitForRecord(before + 1);
    const messages = session.records().at(-1)?.messages ?? [];
    expect(messages.at(-1)).toMatchObject({ role: "user" });
    const blocked = messages.find((message) => message.role === "toolResult");
    expect(blocked && textOf(blocked)).toBe(present.agentAbort(HOOK));
  });

  test("a hook's block: no prompt, the agent reads the reason naming the hook", async () => {
    const pi = await suite.start({
      script: [{ toolCalls: [bash("echo block-me > blocked.txt")] }, { text: "ok" }],
      extensions: [DIST],
      files: { "agent/permissions/gate.ts": GATE_MODULE },
    });
    pi.prompt("go");
    const { text, isError } = await toolResult(pi);
    expect(isError).toBe(true);
    expect(text).toContain(present.agentHookBlock(HOOK, "not with this hook around"));
    expect(existsSync(join(pi.cwd, "blocked.txt"))).toBe(false);
    expect(pi.screen({ history: true })).not.toContain("Authorization required");
  });

  test("no UI (print mode): a request blocks, naming the hook", async () => {
    const run = await runPiPrint({
      version: suite.version,
      prompt: "go",
      script: [{ toolCalls: [bash("echo gate > printed.txt")] }, { text: "ok" }],
      extensions: [DIST],
      files: { "agent/permissions/gate.ts": GATE_MODULE },
    });
    try {
      expect(run.exitCode).toBe(0);
      const toolResult = run.records[1]?.messages.find((message) => message.role === "toolResult");
      expect(toolResult && textOf(toolResult)).toContain(present.agentNoUi(HOOK));
      expect(existsSync(join(run.sandbox.cwd, "printed.txt"))).toBe(false);
    } finally {
      run.sandbox.remove();
    }
  });

  test("a hook that throws asks instead, showing the error", async () => {
    const pi = await suite.start({
      script: [{ toolCalls: [bash("echo hi > thrown.txt")] }, { text: "ok" }],
      extensions: [DIST],
      files: {
        "agent/permissions/throws.js": `export default (api) => api.onToolUse({ name: "Fragile", handler() { throw new Error("boom"); } });`,
      },
    });
    pi.prompt("go");
    await pi.waitFor("Authorization required: Fragile");
    await pi.waitFor(present.hookFailureGuidance("boom").slice(0, 40));
    await pi.waitFor("esc abort");
    pi.send("Enter");
    const { isError } = await toolResult(pi);
    expect(isError).toBe(false);
    expect(readFileSync(join(pi.cwd, "thrown.txt"), "utf8")).toBe("hi\n");
  });
});
