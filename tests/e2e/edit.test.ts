// The Edit outcome in real pi: a commit message with a typo, fixed at the prompt, and every behaviour the README's "Edit" section promises.
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as present from "../../lib/presenter.ts";
import { type PiSession, type ScriptStep, textOf } from "./harness.ts";
import { describeEachPi, promptReady, toolResult } from "./prompt.ts";

const DIST = join(import.meta.dir, "../../dist/hooks.js");
const HOOK = "Git interference";
const MODULE = readFileSync(join(import.meta.dir, "../../examples/git-interference.ts"), "utf8");
const COMMIT = `git commit --allow-empty -m "$(cat <<'EOF'\nfix wordign in readme\nEOF\n)"`;
const FIXED = COMMIT.replace("wordign", "wording");

function commitStep(command = COMMIT, id?: string): ScriptStep {
  return { toolCalls: [{ name: "bash", arguments: { command }, ...(id ? { id } : {}) }] };
}

function lastCommitMessage(cwd: string): string {
  return execFileSync("git", ["log", "-1", "--format=%B"], { cwd, encoding: "utf8" }).trim();
}

describeEachPi("Edit", (suite) => {
  async function start(script: ScriptStep[], env: Record<string, string> = {}) {
    const pi = await suite.start({ script, extensions: [DIST], files: { "agent/permissions/git.ts": MODULE }, env });
    pi.prompt("commit it");
    await promptReady(pi, HOOK);
    return pi;
  }

  async function editMode(session: PiSession) {
    session.type("2");
    await session.waitFor("Note to agent");
  }

  /** In edit mode, cursor at the end of the heredoc command: replace line 2 with `text`. */
  function replaceMessageLine(session: PiSession, text: string) {
    session.send("Up", "Up", "C-a", "C-k");
    session.type(text);
  }

  async function resultText(session: PiSession) {
    return (await toolResult(session)).text;
  }

  test("the heredoc commit with a typo: fix the word, add a note, run; the agent is told the truth", async () => {
    const session = await start([commitStep(), { text: "committed" }]);
    await editMode(session);
    replaceMessageLine(session, "fix wording in readme");
    session.send("Tab");
    session.type("reworded the message");
    session.send("Enter");
    const text = await resultText(session);
    expect(text.startsWith(present.agentEditNote(HOOK, FIXED, "reworded the message"))).toBe(true);
    expect(lastCommitMessage(session.cwd)).toBe("fix wording in readme");
    await session.waitFor(present.notifyEdited(HOOK).slice(0, 30));
    // pi's limitation: the transcript keeps the agent's original command.
    expect(session.screen({ history: true })).toContain("fix wordign in readme");
    const assistant = session
      .records()
      .at(-1)
      ?.messages.find((message) => message.role === "assistant");
    expect(JSON.stringify(assistant)).toContain("wordign");
  });

  test("esc out of edit mode, then Authorize: the original runs", async () => {
    const session = await start([commitStep(), { text: "ok" }]);
    await editMode(session);
    replaceMessageLine(session, "fix wording in readme");
    session.send("Escape");
    await session.waitFor("esc abort");
    session.send("Up", "Enter");
    const text = await resultText(session);
    expect(text).not.toContain("Edited by user");
    expect(lastCommitMessage(session.cwd)).toBe("fix wordign in readme");
  });

  test("esc, then Edit again: both drafts are as they were left", async () => {
    const session = await start([commitStep(), { text: "ok" }]);
    await editMode(session);
    replaceMessageLine(session, "fix wording in readme");
    session.send("Tab");
    session.type("kept note");
    session.send("Escape");
    await session.waitFor("esc abort");
    expect(session.screen()).toContain("note: kept note");
    session.send("Enter");
    await session.waitFor("Note to agent");
    const screen = session.screen();
    expect(screen).toContain("fix wording in readme");
    expect(screen).toContain("kept note");
    session.send("Enter");
    const text = await resultText(session);
    expect(text.startsWith(present.agentEditNote(HOOK, FIXED, "kept note"))).toBe(true);
  });

  test("an unchanged submit sends no edit note", async () => {
    const session = await start([commitStep(), { text: "ok" }]);
    await editMode(session);
    session.send("Enter");
    const text = await resultText(session);
    expect(text).not.toContain("permission hook");
    expect(lastCommitMessage(session.cwd)).toBe("fix wordign in readme");
  });

  test("ctrl+r shows the original, and again the edit; what shows is what runs", async () => {
    const session = await start([commitStep(), { text: "ok" }]);
    await editMode(session);
    replaceMessageLine(session, "fix wording in readme");
    session.send("C-r");
    await session.waitFor("fix wordign in readme");
    session.send("C-r");
    await session.waitFor("fix wording in readme");
    session.send("Enter");
    await resultText(session);
    expect(lastCommitMessage(session.cwd)).toBe("fix wording in readme");
  });

  test("a blank command does not run; the warning clears on the next key", async () => {
    const session = await start([commitStep("git commit --dry-run -m blank"), { text: "ok" }]);
    await editMode(session);
    session.send("C-u");
    await session.waitForGone("--dry-run");
    session.send("Enter");
    await session.waitFor(present.EMPTY_COMMAND_WARNING);
    expect(session.records()).toHaveLength(1);
    session.type("echo ");
    await session.waitForGone(present.EMPTY_COMMAND_WARNING);
    session.type("git commit rewritten");
    session.send("Enter");
    const text = await resultText(session);
    expect(text.startsWith(present.agentEditNote(HOOK, "echo git commit rewritten"))).toBe(true);
  });

  test("a tab-note on the Edit choice seeds the note field", async () => {
    const session = await start([commitStep(), { text: "ok" }]);
    session.send("Down", "Tab");
    session.type("seeded from select mode");
    session.send("Enter");
    await session.waitFor("Note to agent");
    expect(session.screen()).toContain("seeded from select mode");
    replaceMessageLine(session, "fix wording in readme");
    session.send("Enter");
    const text = await resultText(session);
    expect(text.startsWith(present.agentEditNote(HOOK, FIXED, "seeded from select mode"))).toBe(true);
  });

  test("ctrl+g hands the command to $EDITOR and what it saves runs", async () => {
    const pi = await suite.start({
      script: [commitStep(), { text: "ok" }],
      extensions: [DIST],
      files: { "agent/permissions/git.ts": MODULE },
      setup(sandbox) {
        const editor = join(sandbox.root, "fix-editor.sh");
        writeFileSync(editor, `#!/bin/sh\nsed -i 's/wordign/wording/' "$1"\n`);
        chmodSync(editor, 0o755);
        sandbox.env.EDITOR = editor;
        delete sandbox.env.VISUAL;
      },
    });
    pi.prompt("commit it");
    await pi.waitFor("esc abort");
    await editMode(pi);
    pi.send("C-g");
    await pi.waitFor("fix wording in readme");
    pi.send("Enter");
    const text = await resultText(pi);
    expect(text.startsWith(present.agentEditNote(HOOK, FIXED))).toBe(true);
    expect(lastCommitMessage(pi.cwd)).toBe("fix wording in readme");
  });

  test("two gated calls in one message: two prompts in order, each answer on its own call", async () => {
    const session = await start([
      {
        toolCalls: [
          { name: "bash", arguments: { command: "git commit --allow-empty -m first" }, id: "call-1" },
          { name: "bash", arguments: { command: "git commit --allow-empty -m second" }, id: "call-2" },
        ],
      },
      { text: "ok" },
    ]);
    expect(session.screen()).toContain("-m first");
    session.send("Tab");
    session.type("note for the first");
    session.send("Enter");
    await session.waitFor("-m second");
    await session.waitFor("esc abort");
    session.send("Up", "Tab");
    session.type("not the second");
    session.send("Enter");
    await session.waitForRecord(2);
    const results = session.lastToolResults();
    expect(results.map((result) => result.toolCallId)).toEqual(["call-1", "call-2"]);
    expect(textOf(results[0]!).startsWith(present.agentAuthorizeNote(HOOK, "note for the first"))).toBe(true);
    expect(results[1]!.isError).toBe(true);
    expect(textOf(results[1]!)).toContain(present.agentAbort(HOOK, "not the second"));
    expect(lastCommitMessage(session.cwd)).toBe("first");
  });

  test("a note never leaks: only the call it was given with carries it", async () => {
    const session = await start([
      {
        toolCalls: [
          { name: "bash", arguments: { command: "git commit --allow-empty -m one" }, id: "call-1" },
          { name: "bash", arguments: { command: "git commit --allow-empty -m two" }, id: "call-2" },
        ],
      },
      commitStep("git commit --allow-empty -m three", "call-3"),
      { text: "ok" },
    ]);
    session.send("Tab");
    session.type("only for one");
    session.send("Enter");
    await session.waitFor("-m two");
    await session.waitFor("esc abort");
    session.send("Enter");
    await session.waitFor("-m three");
    await session.waitFor("esc abort");
    session.send("Enter");
    await session.waitForRecord(3);
    const results = session
      .records()
      .flatMap((record) => record.messages)
      .filter((message) => message.role === "toolResult");
    const byId = new Map(results.map((result) => [result.toolCallId, textOf(result)]));
    expect(byId.get("call-1")?.startsWith(present.agentAuthorizeNote(HOOK, "only for one"))).toBe(true);
    expect(byId.get("call-2")).not.toContain("only for one");
    expect(byId.get("call-3")).not.toContain("only for one");
    expect(existsSync(join(session.cwd, ".git"))).toBe(true);
  });
});
