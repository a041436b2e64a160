// The prompt's layout in real pi: a short or narrow terminal never hides the choices, the line
// being edited, the note or a hint; an external editor that changes nothing changes nothing.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type PiSession, pollUntil } from "./harness.ts";
import { describeEachPi, promptReady, toolResult } from "./prompt.ts";

const DIST = join(import.meta.dir, "../../dist/hooks.js");
const MODULE = `export default (api) => api.onToolUse({
  name: "Ask",
  description: "Git staging is reserved for the Approver.",
  handler: ({ tool }) => tool.name === "bash" && api.request({ guidance: "Check the message." }),
});
`;
const FIVE_LINES = "echo one\necho two\necho three\necho four\necho five";

/** The overlay's rows, from its top border to its bottom border. */
function overlay(screen: string): string[] {
  const rows = screen.split("\n");
  const top = rows.findIndex((row) => row.includes("╭"));
  const bottom = rows.findIndex((row) => row.includes("╰"));
  if (top < 0 || bottom < top) throw new Error(`no whole overlay on screen:\n${screen}`);
  return rows.slice(top, bottom + 1);
}

describeEachPi("layout", (suite) => {
  async function asking(command: string, options: { env?: Record<string, string> } = {}): Promise<PiSession> {
    const pi = await suite.start({
      extensions: [DIST],
      files: { "agent/permissions/ask.js": MODULE },
      script: [{ toolCalls: [{ name: "bash", arguments: { command } }] }, { text: "ok" }],
      width: 100,
      height: 30,
      ...options,
    });
    pi.prompt("go");
    await promptReady(pi, "Ask");
    return pi;
  }

  test("100×14 and 100×10: the choices, the hints and the bottom border stay on screen", async () => {
    const pi = await asking(FIVE_LINES);
    pi.resize(100, 14);
    let rows = overlay(await pi.waitFor(/↓ 2 more lines[\s\S]*ctrl\+s don't ask again/));
    expect(rows).toHaveLength(14);
    for (const text of ["Check the message.", "1. Authorize", "2. Edit", "3. Abort", "esc abort", "ctrl+s don't ask again"]) {
      expect(rows.join("\n")).toContain(text);
    }
    pi.resize(100, 10);
    rows = overlay(await pi.waitFor(/↓ 4 more lines[\s\S]*ctrl\+s don't ask again/));
    expect(rows).toHaveLength(10);
    expect(rows.join("\n")).toContain("3. Abort");
    expect(rows.join("\n")).not.toContain("Check the message.");
    pi.send("Enter");
    expect((await toolResult(pi)).text).toBe("one\ntwo\nthree\nfour\nfive\n");
  });

  test("edit mode at 100×10 keeps the note and the hints; at 20×8 the line being typed", async () => {
    const pi = await asking(FIVE_LINES);
    pi.type("2");
    await pi.waitFor("Note to agent");
    pi.resize(100, 10);
    // One line of the command (pi 0.80 puts the cursor at its end, 1.x at its start) and the rest counted.
    const rows = overlay(await pi.waitFor(/4 more lines[\s\S]*Note to agent[\s\S]*esc back/));
    expect(rows).toHaveLength(10);
    expect(rows.join("\n")).toMatch(/echo (one|five)/);
    expect(rows.join("\n")).toContain("tab switch field");
    pi.resize(20, 8);
    await pi.waitFor(/╭─{18}╮[\s\S]*Note to agent/);
    pi.type("xyz");
    expect(overlay(await pi.waitFor(/╭─{18}╮[\s\S]*xyz[\s\S]*╰─{18}╯/))).toHaveLength(8);
    pi.send("Enter");
    expect((await toolResult(pi)).text).toContain("xyz");
  });

  test("at 30 columns the edit-mode hints wrap: every one of them is on screen", async () => {
    const pi = await asking("echo narrow");
    pi.resize(30, 30);
    pi.type("2");
    const rows = overlay(await pi.waitFor("esc back")).join("\n");
    for (const hint of [
      "enter run",
      "shift+enter newline",
      "tab switch field",
      "ctrl+g external editor",
      "ctrl+r restore command",
    ]) {
      expect(rows).toContain(hint);
    }
    pi.send("Escape");
    await pi.waitFor("esc abort");
    pi.type("1");
    expect((await toolResult(pi)).text).toBe("narrow\n");
  });

  test("an external editor that changes nothing leaves a command ending in a newline as it was: a plain Authorize", async () => {
    const pi = await suite.start({
      extensions: [DIST],
      files: {
        "agent/permissions/ask.js": MODULE,
        // Leaves the file as it is, and says it ran.
        "bin/unchanged-editor": '#!/bin/sh\necho ran >> "$HOME/editor-ran"\n',
      },
      setup: (sandbox) => {
        sandbox.env.EDITOR = `sh ${join(sandbox.home, "bin/unchanged-editor")}`;
      },
      script: [{ toolCalls: [{ name: "bash", arguments: { command: "echo same\n" } }] }, { text: "ok" }],
    });
    pi.prompt("go");
    await promptReady(pi, "Ask");
    pi.type("2");
    await pi.waitFor("Note to agent");
    pi.send("C-g");
    await pollUntil(
      15_000,
      () => existsSync(join(pi.home, "editor-ran")),
      () => "the editor never ran",
    );
    // Keys reach the prompt again once pi draws them: tab puts the cursor in the note field.
    pi.send("Tab");
    await pi.waitFor(/│ > /);
    pi.send("Enter");
    expect(await toolResult(pi)).toEqual({ isError: false, text: "same\n" });
  });
});
