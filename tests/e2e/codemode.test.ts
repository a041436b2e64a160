// pi 1.x codemode: the calls a script makes are gated like the agent's own, and the agent still
// learns what really ran, through the script's result (docs/design.md "Calls a script makes").
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as present from "../../lib/presenter.ts";
import { type PiSession, type ScriptStep, textOf } from "./harness.ts";
import { describeEachPi, promptReady, toolResult } from "./prompt.ts";

const DIST = join(import.meta.dir, "../../dist/hooks.js");
const HOOK = "Gate";

/** Asks about bash calls that mention gate; the guidance says which call of the agent's made them. */
const GATE_MODULE = `export default function (api) {
  api.onToolUse({
    name: "${HOOK}",
    handler({ tool, parent }) {
      if (tool.name === "bash" && tool.command.includes("gate"))
        return api.request({ guidance: parent ? "made by the agent's " + parent.name + " call " + parent.toolCallId : "made by the agent" });
    },
  });
}
`;

function codemode(code: string, id = "script-1") {
  return { name: "codemode", arguments: { code }, id };
}

/** The script's result with its wall time, which varies, as `<t>`. */
function steady(text: string): string {
  return text.replace(/Wall time [\d.]+ seconds/, "Wall time <t> seconds");
}

function noteOn(command: string, note: string): string {
  return present.agentNestedNote("codemode", "bash", command, note);
}

describeEachPi("codemode scripts", (suite) => {
  // pi 0.80 has no codemode; every other suite runs there unchanged.
  if (suite.version.startsWith("0.")) return;

  async function start(code: string, then: ScriptStep[] = [{ text: "ok" }]): Promise<PiSession> {
    const pi = await suite.start({
      script: [{ toolCalls: [codemode(code)] }, ...then],
      extensions: [DIST],
      files: { "agent/permissions/gate.js": GATE_MODULE },
      settings: { defaultTools: ["+codemode"] },
    });
    pi.prompt("go");
    await promptReady(pi, HOOK);
    return pi;
  }

  async function edit(pi: PiSession, from: string, to: string, note?: string) {
    pi.type("2");
    await pi.waitFor("Note to agent");
    pi.send(...Array<string>(from.length).fill("BSpace"));
    pi.type(to);
    if (note) {
      pi.send("Tab");
      pi.type(note);
    }
    pi.send("Enter");
  }

  test("Edit with a note: the edit runs, the script gets its output, the agent reads the edit note naming the call", async () => {
    const pi = await start('const r = await tools.bash({ command: "echo gate-typo | tee edited.txt" });\nreturn r.output;');
    expect(pi.screen()).toContain("made by the agent's codemode call script-1");
    await edit(pi, "edited.txt", "fixed.txt", "renamed the file");
    const { text, isError } = await toolResult(pi);
    expect(isError).toBe(false);
    const editNote = present.agentEditNote(HOOK, "echo gate-typo | tee fixed.txt", "renamed the file");
    expect(steady(text)).toBe(
      `${noteOn("echo gate-typo | tee edited.txt", editNote)}\n\nScript completed\nWall time <t> seconds\nOutput:\n\ngate-typo\n`,
    );
    expect(readFileSync(join(pi.cwd, "fixed.txt"), "utf8")).toBe("gate-typo\n");
    expect(existsSync(join(pi.cwd, "edited.txt"))).toBe(false);
    await pi.waitFor(present.notifyEdited(HOOK).slice(0, 40));
  });

  test("the prompt says a codemode script made the call; ctrl+o shows the script in the command's place, and back", async () => {
    const pi = await start('const r = await tools.bash({ command: "echo gate-shown" });\nreturn r.output;');
    const prompt = pi.screen();
    expect(prompt).toContain(present.promptOrigin("codemode"));
    expect(prompt).toContain("bash: echo gate-shown");
    expect(prompt).toContain("ctrl+o show script");
    pi.send("C-o");
    const script = await pi.waitFor('script: const r = await tools.bash({ command: "echo gate-shown" });');
    expect(script).toContain("return r.output;");
    expect(script).toContain("ctrl+o show command");
    expect(script).not.toContain("bash: echo gate-shown");
    pi.send("C-o");
    await pi.waitFor("bash: echo gate-shown");
    expect(pi.screen()).toContain("ctrl+o show script");
    pi.send("C-o", "Enter");
    const { text } = await toolResult(pi);
    expect(steady(text)).toBe("Script completed\nWall time <t> seconds\nOutput:\n\ngate-shown\n");
  });

  test("Authorize with a note: the agent reads the note, naming the call, with the script's result", async () => {
    const pi = await start('const r = await tools.bash({ command: "echo gate-out" });\nreturn r.output;');
    pi.send("Tab");
    pi.type("use the fast path next time");
    pi.send("Enter");
    const { text } = await toolResult(pi);
    const note = present.agentAuthorizeNote(HOOK, "use the fast path next time");
    expect(steady(text)).toBe(
      `${noteOn("echo gate-out", note)}\n\nScript completed\nWall time <t> seconds\nOutput:\n\ngate-out\n`,
    );
    await pi.waitFor(present.notifyAuthorizedWithNote(HOOK).slice(0, 40));
  });

  test("two calls in one script: each note reaches the agent, in order, naming its call", async () => {
    const pi = await start(
      'await tools.bash({ command: "echo gate-one" });\nawait tools.bash({ command: "echo gate-two > two.txt" });\nreturn "both";',
    );
    pi.send("Tab");
    pi.type("first is fine");
    pi.send("Enter");
    await pi.waitFor("echo gate-two");
    await promptReady(pi, HOOK);
    await edit(pi, "two.txt", "2.txt");
    const { text } = await toolResult(pi);
    expect(steady(text)).toBe(
      [
        noteOn("echo gate-one", present.agentAuthorizeNote(HOOK, "first is fine")),
        noteOn("echo gate-two > two.txt", present.agentEditNote(HOOK, "echo gate-two > 2.txt")),
        "Script completed\nWall time <t> seconds\nOutput:\n\nboth",
      ].join("\n\n"),
    );
    expect(existsSync(join(pi.cwd, "2.txt"))).toBe(true);
  });

  test("a script that throws after an edited call: the agent reads the edit note with the failure", async () => {
    const pi = await start('await tools.bash({ command: "echo gate-typo > edited.txt" });\nthrow new Error("boom");');
    await edit(pi, "edited.txt", "fixed.txt");
    const { text, isError } = await toolResult(pi);
    expect(isError).toBe(true);
    const editNote = present.agentEditNote(HOOK, "echo gate-typo > fixed.txt");
    expect(steady(text)).toBe(
      `${noteOn("echo gate-typo > edited.txt", editNote)}\n\nScript failed\nWall time <t> seconds\nOutput:\n\nScript error:\nError: boom\n    at <anonymous> (codemode.js:2:11)\n\nTool calls made before the failure (they are not undone): bash (ok)`,
    );
    expect(existsSync(join(pi.cwd, "fixed.txt"))).toBe(true);
  });

  test("a script cancelled (esc) after an edited call: the agent reads the edit note with the cancellation", async () => {
    const pi = await start(
      'await tools.bash({ command: "echo gate-typo > edited.txt" });\nawait tools.bash({ command: "sleep 30" });',
    );
    await edit(pi, "edited.txt", "fixed.txt", "renamed");
    await pi.waitFor("sleep 30");
    pi.send("Escape");
    await pi.waitFor("Operation aborted");
    const before = pi.records().length;
    pi.prompt("carry on");
    await pi.waitForRecord(before + 1);
    const result = (pi.records().at(-1)?.messages ?? []).find((message) => message.role === "toolResult");
    const editNote = present.agentEditNote(HOOK, "echo gate-typo > fixed.txt", "renamed");
    expect(result && steady(textOf(result))).toBe(
      `${noteOn("echo gate-typo > edited.txt", editNote)}\n\nScript failed\nWall time <t> seconds\nOutput:\n\nScript error:\nScript aborted: The operation was aborted.\n\nTool calls made before the failure (they are not undone): bash (ok), bash (cancelled)`,
    );
  });

  test("answered after the script ended (pi cancels the call): nothing runs, and the Approver is told", async () => {
    const pi = await start('tools.bash({ command: "echo gate > late.txt" });\nreturn "gone";', [{ text: "finished meanwhile" }]);
    await pi.waitForRecord(2);
    await pi.waitFor("finished meanwhile");
    expect(pi.screen()).toContain("Authorization required");
    pi.send("Enter");
    await pi.waitFor(present.notifyParentEnded(HOOK, "codemode").slice(0, 40));
    expect(existsSync(join(pi.cwd, "late.txt"))).toBe(false);
    const { text } = await toolResult(pi);
    expect(steady(text)).toBe("Script completed\nWall time <t> seconds\nOutput:\n\ngone");
  });

  test("Abort with a note: the script sees the rejection, the agent reads it naming the call, the turn goes on", async () => {
    const pi = await start(
      'try { await tools.bash({ command: "echo gate > aborted.txt" }); } catch (error) { return "caught: " + error.message; }',
      [{ text: "understood" }],
    );
    pi.send("Up", "Tab");
    pi.type("write it to notes.txt instead");
    pi.send("Enter");
    const { text } = await toolResult(pi);
    const rejection = present.agentAbort(HOOK, "write it to notes.txt instead");
    expect(steady(text)).toBe(
      `${noteOn("echo gate > aborted.txt", rejection)}\n\nScript completed\nWall time <t> seconds\nOutput:\n\ncaught: ${rejection}`,
    );
    expect(existsSync(join(pi.cwd, "aborted.txt"))).toBe(false);
    await pi.waitFor("understood");
  });

  test("esc: the script's later calls are blocked unasked, the turn stops once it returns, the agent reads why", async () => {
    const pi = await start(
      [
        "const results = [];",
        'for (const command of ["echo gate > aborted.txt", "echo gate > later.txt"])',
        '  results.push(await tools.bash({ command }).then(() => "ran", (error) => error.message));',
        "return results.join(' | ');",
      ].join("\n"),
      [{ text: "an answer nobody asked for" }],
    );
    pi.send("Escape");
    await pi.waitFor("Operation aborted");
    await pi.waitFor(present.notifyAborted(HOOK, false));
    expect(pi.screen()).not.toContain("an answer nobody asked for");
    expect(existsSync(join(pi.cwd, "aborted.txt"))).toBe(false);
    expect(existsSync(join(pi.cwd, "later.txt"))).toBe(false);
    const before = pi.records().length;
    pi.prompt("carry on");
    await pi.waitForRecord(before + 1);
    const messages = pi.records().at(-1)?.messages ?? [];
    const result = messages.find((message) => message.role === "toolResult");
    const rejection = present.agentAbort(HOOK);
    expect(result && steady(textOf(result))).toBe(
      `${noteOn("echo gate > aborted.txt", rejection)}\n\nScript completed\nWall time <t> seconds\nOutput:\n\n${rejection} | ${rejection}`,
    );
  });
});
