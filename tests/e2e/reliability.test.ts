// What the Approver sees when things go wrong or get in the way, in real pi.
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as present from "../../lib/presenter.ts";
import { pollUntil, textOf } from "./harness.ts";
import { describeEachPi } from "./prompt.ts";

const DIST = join(import.meta.dir, "../../dist/hooks.js");
const DIALOG = join(import.meta.dir, "fixtures/dialog-tool.ts");
const NEW_SESSION = join(import.meta.dir, "fixtures/new-session-command.ts");
const ASK_BASH = `export default (api) => api.onToolUse({ name: "Ask", handler: ({ tool }) => tool.name === "bash" && api.request() });`;

describeEachPi("reliability", (suite) => {
  test("a prompt never opens on top of another overlay; it waits for it to close", async () => {
    const pi = await suite.start({
      extensions: [DIST, DIALOG],
      files: { "agent/permissions/ask.js": ASK_BASH },
      script: [
        { toolCalls: [{ name: "open_dialog", arguments: {} }] },
        { toolCalls: [{ name: "bash", arguments: { command: "echo waited > waited.txt" } }] },
        { text: "ok" },
      ],
    });
    pi.prompt("go");
    await pi.waitFor("OTHER DIALOG");
    await pi.waitForRecord(2);
    expect(pi.screen()).not.toContain("Authorization required");
    await pi.waitFor(present.notifyPromptWaiting("Ask"));
    pi.send("Enter");
    await pi.waitForGone("OTHER DIALOG");
    await pi.waitFor("Authorization required: Ask");
    await pi.waitFor("esc abort");
    pi.send("Enter");
    await pi.waitForRecord(3);
    expect(existsSync(join(pi.cwd, "waited.txt"))).toBe(true);
  });

  test("broken permission modules: pi keeps working, each is reported once with its file and why", async () => {
    const pi = await suite.start({
      extensions: [DIST],
      files: {
        "agent/permissions/a-syntax.ts": "export default function (api) { api.onToolUse({ name: ",
        "agent/permissions/b-throws.js": `throw new Error("kaput at import");`,
        "agent/permissions/c-no-default.js": "export const x = 1;",
        "agent/permissions/d-good.js": ASK_BASH,
      },
      script: [{ toolCalls: [{ name: "bash", arguments: { command: "echo still > works.txt" } }] }, { text: "ok" }],
    });
    const screen = (await pi.waitFor("c-no-default.js")).replace(/\s+/g, " ");
    const dir = join(pi.agentDir, "permissions");
    expect(screen).toContain(`${dir}/a-syntax.ts failed to load`);
    expect(screen).toContain(`${dir}/b-throws.js failed to load: kaput at import`);
    expect(screen).toContain(`${dir}/c-no-default.js failed to load: its default export is not a function`);
    pi.prompt("go");
    await pi.waitFor("Authorization required: Ask");
    await pi.waitFor("esc abort");
    pi.send("Enter");
    await pi.waitForRecord(2);
    expect(existsSync(join(pi.cwd, "works.txt"))).toBe(true);
    // Not reported again when the call is gated. pi 0.80.3 can clear its chat and render it again
    // from the session, which keeps no notices (seen once in CI), so none left is also a pass.
    expect(pi.screen({ history: true }).split("b-throws.js failed to load").length - 1).toBeLessThanOrEqual(1);
  });

  test("esc on the first of two queued prompts blocks both and shows no second prompt", async () => {
    const pi = await suite.start({
      extensions: [DIST],
      files: { "agent/permissions/ask.js": ASK_BASH },
      script: [
        {
          toolCalls: [
            { name: "bash", arguments: { command: "echo one > one.txt" }, id: "call-1" },
            { name: "bash", arguments: { command: "echo two > two.txt" }, id: "call-2" },
          ],
        },
        { text: "never said" },
      ],
    });
    pi.prompt("go");
    await pi.waitFor("esc abort");
    pi.send("Escape");
    await pi.waitFor("Operation aborted");
    expect(pi.screen()).not.toContain("Authorization required");
    expect(existsSync(join(pi.cwd, "one.txt")) || existsSync(join(pi.cwd, "two.txt"))).toBe(false);
    const before = pi.records().length;
    pi.prompt("what happened?");
    await pi.waitForRecord(before + 1);
    const results = (pi.records().at(-1)?.messages ?? []).filter((message) => message.role === "toolResult");
    expect(results.map((result) => [result.toolCallId, textOf(result)])).toEqual([
      ["call-1", present.agentAbort("Ask")],
      ["call-2", present.agentAbort("Ask")],
    ]);
  });

  test("a resize while the prompt is open re-renders it to the new width", async () => {
    const pi = await suite.start({
      extensions: [DIST],
      files: { "agent/permissions/ask.js": ASK_BASH },
      script: [{ toolCalls: [{ name: "bash", arguments: { command: `echo ${"long-argument ".repeat(20)}` } }] }, { text: "ok" }],
    });
    pi.prompt("go");
    await pi.waitFor("esc abort");
    pi.resize(60, 30);
    // The overlay is 80% of 60 columns: every row of the new frame has its edges in the same two columns.
    let rows: string[] = [];
    const framed = () => {
      rows = pi.screen().split("\n");
      const top = rows.findIndex((row) => row.includes("╭"));
      const bottom = rows.findIndex((row) => row.includes("╰"));
      if (top < 0 || bottom <= top) return false;
      const [left, right] = [columnOf(rows[top] as string, "╭"), columnOf(rows[top] as string, "╮")];
      return (
        right - left + 1 === 48 &&
        rows.slice(top + 1, bottom).every((row) => charAt(row, left) === "│" && charAt(row, right) === "│") &&
        charAt(rows[bottom] as string, left) === "╰" &&
        charAt(rows[bottom] as string, right) === "╯"
      );
    };
    await pollUntil(15_000, framed, () => `no whole 48-column frame:\n${rows.join("\n")}`);
    expect(rows.join("\n")).toContain("Authorization required: Ask");
    pi.send("Enter");
    await pi.waitForRecord(2);
  });

  test("what you approve is what runs: escapes and bidi overrides are shown, never interpreted", async () => {
    const command = "printf 'x' > 'safe\u202e.txt' # \x1b[2J\x1b]0;pwned\x07";
    const pi = await suite.start({
      extensions: [DIST],
      files: { "agent/permissions/ask.js": ASK_BASH },
      script: [{ toolCalls: [{ name: "bash", arguments: { command } }] }, { text: "ok" }],
    });
    pi.prompt("go");
    const screen = await pi.waitFor("esc abort");
    expect(screen).toContain("'safe⟨U+202E⟩.txt' # ⟨ESC⟩[2J⟨ESC⟩]0;pwned⟨U+0007⟩");
    pi.type("2");
    expect(await pi.waitFor("Note to agent")).toContain("⟨ESC⟩]0;pwned⟨U+0007⟩");
    pi.send("Enter");
    await pi.waitForRecord(2);
    expect(readFileSync(join(pi.cwd, "safe\u202e.txt"), "utf8")).toBe("x");
    expect(textOf(pi.lastToolResults()[0]!)).not.toContain("Edited by user");
  });

  test("hooks that misbehave: the call is asked for, showing what went wrong", async () => {
    const pi = await suite.start({
      extensions: [DIST],
      files: {
        "agent/permissions/a-malformed.js": `export default (api) => api.onToolUse({ name: "Sloppy", handler: () => ({ decision: "maybe" }) });`,
      },
      script: [{ toolCalls: [{ name: "bash", arguments: { command: "echo asked > asked.txt" } }] }, { text: "ok" }],
    });
    pi.prompt("go");
    await pi.waitFor("Authorization required: Sloppy");
    const screen = (await pi.waitFor("esc abort")).replace(/\s+/g, " ");
    expect(screen).toContain('This hook failed while deciding (returned {"decision":"maybe"}, not a decision)');
    pi.send("Enter");
    await pi.waitForRecord(2);
    expect(existsSync(join(pi.cwd, "asked.txt"))).toBe(true);
  });

  test("a hook that never decides is given up on after 10 s and the call is asked for", async () => {
    const pi = await suite.start({
      extensions: [DIST],
      files: {
        "agent/permissions/stuck.js": `export default (api) => api.onToolUse({ name: "Stuck", handler: () => new Promise(() => {}) });`,
      },
      script: [{ toolCalls: [{ name: "bash", arguments: { command: "echo late" } }] }, { text: "ok" }],
    });
    pi.prompt("go");
    const screen = (await pi.waitFor("Authorization required: Stuck", { timeoutMs: 20_000 })).replace(/\s+/g, " ");
    expect(screen).toContain("did not decide within 10 s");
    await pi.waitFor("esc abort");
    pi.send("Escape");
    await pi.waitFor("Operation aborted");
  }, 60_000);

  test("modules that register badly are reported, and their good neighbours still work", async () => {
    const pi = await suite.start({
      extensions: [DIST],
      files: {
        "agent/permissions/a.js": ASK_BASH,
        "agent/permissions/b-duplicate.js": ASK_BASH,
        "agent/permissions/c-bad-hook.js": `export default (api) => api.onToolUse({ name: "No handler" });`,
      },
      script: [{ toolCalls: [{ name: "bash", arguments: { command: "echo hi" } }] }, { text: "ok" }],
    });
    const screen = (await pi.waitFor("c-bad-hook.js")).replace(/\s+/g, " ");
    expect(screen).toContain('b-duplicate.js: hook name "Ask" is already taken; both hooks run');
    expect(screen).toContain('c-bad-hook.js failed to load: hook "No handler" has no handler function');
    pi.prompt("go");
    await pi.waitFor("Authorization required: Ask");
  });

  test("a missing $EDITOR leaves the command as it was and says so", async () => {
    const pi = await suite.start({
      extensions: [DIST],
      env: { EDITOR: "no-such-editor-anywhere" },
      files: { "agent/permissions/ask.js": ASK_BASH },
      script: [{ toolCalls: [{ name: "bash", arguments: { command: "echo unchanged" } }] }, { text: "ok" }],
    });
    pi.prompt("go");
    await pi.waitFor("esc abort");
    pi.type("2");
    await pi.waitFor("Note to agent");
    pi.send("C-g");
    await pi.waitFor(present.externalEditorFailure("no-such-editor-anywhere: command not found").slice(0, 60));
    expect(pi.screen()).toContain("echo unchanged");
    pi.send("Enter");
    await pi.waitForRecord(2);
    expect(textOf(pi.lastToolResults()[0]!)).toBe("unchanged\n");
  });

  test("a 1 MB command opens, stays editable, and the edit is what pi is handed", async () => {
    const big = `: ${"x".repeat(1_000_000)}\necho big > big.txt`;
    const pi = await suite.start({
      extensions: [DIST],
      env: { PI_E2E_CONTEXT_WINDOW: "10000000", PI_E2E_TOKEN_SIZE: "65536" },
      files: { "agent/permissions/ask.js": ASK_BASH },
      script: [{ toolCalls: [{ name: "bash", arguments: { command: big } }] }, { text: "ok" }],
    });
    pi.prompt("go");
    await pi.waitFor("esc abort");
    pi.type("2");
    await pi.waitFor("Note to agent");
    pi.send("C-a", "C-k");
    pi.type("echo edited > big.txt");
    await pi.waitFor("echo edited > big.txt");
    pi.send("Enter");
    await pi.waitForRecord(2);
    // Linux refuses a single argument over 128 KiB, so pi's bash can't run either version; the
    // agent is still told which one pi was handed.
    const text = textOf(pi.lastToolResults()[0]!);
    expect(text.startsWith(present.agentEditNote("Ask", `: ${"x".repeat(1_000_000)}\necho edited > big.txt`))).toBe(true);
  });

  test("a session switch while a prompt is open leaves no prompt behind, and the call does not run", async () => {
    const pi = await suite.start({
      extensions: [DIST, NEW_SESSION],
      files: { "agent/permissions/ask.js": ASK_BASH },
      script: [{ toolCalls: [{ name: "bash", arguments: { command: "echo ran > orphan.txt" } }] }, { text: "ok" }],
      setup: (sandbox) => {
        sandbox.env.PI_E2E_NEW_SESSION_SIGNAL = join(sandbox.root, "new-session");
      },
    });
    pi.prompt("/new-when-signalled");
    await pi.waitFor("new session armed");
    pi.prompt("go");
    await pi.waitFor("Authorization required: Ask");
    writeFileSync(join(pi.root, "new-session"), "");
    await pi.waitForGone("Authorization required: Ask");
    await pi.waitForGone("Working");
    expect(existsSync(join(pi.cwd, "orphan.txt"))).toBe(false);
    pi.send("Enter");
    expect(pi.screen()).not.toContain("Authorization required");
  });
});

/** The screen column where `char` first appears in `row`. */
function columnOf(row: string, char: string): number {
  return Bun.stringWidth(row.slice(0, row.indexOf(char)));
}

/** The character drawn at screen column `column` of `row`. */
function charAt(row: string, column: number): string | undefined {
  let at = 0;
  for (const char of row) {
    if (at === column) return char;
    at += Bun.stringWidth(char);
  }
  return undefined;
}
