import { describe, expect, test } from "bun:test";
import type { ExternalEditorResult } from "../lib/external-editor.ts";
import { gitCommitRequest, KEYS, openPrompt, tagged } from "./support/prompt-harness.ts";

const ORIGINAL = gitCommitRequest().detail;
const FIXED = ORIGINAL.replace("wordign", "wording");

/** Opens edit mode and moves the cursor onto "wordign" (line 2, after "fix "). */
function editingTypo() {
  const prompt = openPrompt();
  prompt.press("2", KEYS.up, KEYS.up, KEYS.home);
  for (let i = 0; i < "fix ".length; i++) prompt.press("\x1b[C");
  return prompt;
}

function fixTypo(prompt: ReturnType<typeof openPrompt>) {
  for (let i = 0; i < "wordign".length; i++) prompt.press("\x1b[3~");
  prompt.type("wording");
}

describe("edit mode: layout", () => {
  test("replaces the select content in the same frame, as in the seed mock", () => {
    const prompt = openPrompt();
    const before = prompt.lines();
    prompt.press("2");
    const body = prompt.body();
    expect(prompt.lines()[0]).toBe(before[0]);
    expect(body[0]).toBe("! Authorization required: Git interference");
    expect(body.slice(1, 3)).toEqual(["", "Command"]);
    expect(body[3]).toMatch(/^─+$/);
    expect(body.slice(4, 8)).toEqual([`git commit -m "$(cat <<'EOF'`, "fix wordign in readme", "EOF", `)"`]);
    expect(body[8]).toMatch(/^─+$/);
    expect(body.slice(9)).toEqual([
      "",
      "Note to agent",
      "",
      "",
      "enter run  shift+enter newline  tab switch field",
      "ctrl+g external editor  ctrl+r restore command  esc back",
    ]);
  });

  test("enter on the Edit choice opens edit mode too", () => {
    const prompt = openPrompt();
    prompt.press(KEYS.down, KEYS.enter);
    expect(prompt.body()[2]).toBe("Command");
    expect(prompt.outcomes).toEqual([]);
  });

  test("narrow: the hints wrap, each group from its own line, so none is cut off", () => {
    const prompt = openPrompt(gitCommitRequest(), { width: 30 });
    prompt.press("2");
    expect(prompt.body(30).slice(-6)).toEqual([
      "enter run",
      "shift+enter newline",
      "tab switch field",
      "ctrl+g external editor",
      "ctrl+r restore command",
      "esc back",
    ]);
    expect(prompt.body(56).slice(-3)).toEqual([
      "enter run  shift+enter newline  tab switch field",
      "ctrl+g external editor  ctrl+r restore command",
      "esc back",
    ]);
  });

  test("lines never exceed the width in edit mode", () => {
    const prompt = openPrompt();
    prompt.press("2");
    for (const width of [10, 24, 80, 160]) for (const line of prompt.lines(width)) expect(Bun.stringWidth(line)).toBe(width);
  });
});

describe("edit mode: short terminals keep the line being edited and the note", () => {
  const FIVE_LINES = "echo one\necho two\necho three\necho four\necho five";
  const TITLE = "! Authorization required: Git interference";
  const HINTS = ["enter run  shift+enter newline  tab switch field", "ctrl+g external editor  ctrl+r restore command  esc back"];
  /** An Editor rule 76 columns wide, with what it says of the lines cut. */
  const rule = (text = "") => (text === "" ? "─".repeat(76) : `─── ${text} ${"─".repeat(76 - 5 - text.length)}`);

  function editing(rows: number, width = 80) {
    const prompt = openPrompt(gitCommitRequest({ detail: FIVE_LINES, highlights: [] }), { rows, width });
    prompt.press("2");
    return prompt;
  }

  test("room for everything: the full layout, blank rows between its parts", () => {
    const prompt = editing(18);
    expect(prompt.lines()).toHaveLength(18);
    expect(prompt.body()).toEqual([
      TITLE,
      "",
      "Command",
      rule(),
      "echo one",
      "echo two",
      "echo three",
      "echo four",
      "echo five",
      rule(),
      "",
      "Note to agent",
      "",
      "",
      ...HINTS,
    ]);
  });

  test("100×14 (the issue): the blank rows go, the command's window shrinks, the note and hints stay", () => {
    const prompt = editing(14);
    expect(prompt.lines()).toHaveLength(14);
    expect(prompt.body()).toEqual([
      TITLE,
      "Command",
      rule("↑ 1 more line"),
      "echo two",
      "echo three",
      "echo four",
      "echo five",
      rule(),
      "Note to agent",
      "",
      ...HINTS,
    ]);
  });

  test("100×10 (the issue): the cursor's line, then the Command label gives way; note and hints stay", () => {
    const prompt = editing(10);
    expect(prompt.lines()).toHaveLength(10);
    expect(prompt.body()).toEqual([TITLE, rule("↑ 4 more lines"), "echo five", rule(), "Note to agent", "", ...HINTS]);
  });

  test("the one-line window follows the cursor, key by key", () => {
    const prompt = editing(10);
    prompt.press(KEYS.up);
    expect(prompt.body().slice(1, 4)).toEqual([rule("↑ 3 more lines"), "echo four", rule("↓ 1 more line")]);
    prompt.press(KEYS.up, KEYS.up, KEYS.up);
    expect(prompt.body().slice(1, 4)).toEqual([rule(), "echo one", rule("↓ 4 more lines")]);
    prompt.type("x");
    expect(prompt.body()[2]).toBe("echo onex");
    prompt.press(KEYS.down);
    expect(prompt.body().slice(1, 4)).toEqual([rule("↑ 1 more line"), "echo two", rule("↓ 3 more lines")]);
  });

  test("then the hints, the title, the note's label and the Editor's rules, in that order", () => {
    const prompt = editing(9);
    expect(prompt.body()).toEqual([TITLE, rule("↑ 4 more lines"), "echo five", rule(), "Note to agent", "", HINTS[0]]);
    prompt.resize(8);
    expect(prompt.body()).toEqual([TITLE, rule("↑ 4 more lines"), "echo five", rule(), "Note to agent", ""]);
    prompt.resize(7);
    expect(prompt.body()).toEqual([TITLE, rule("↑ 4 more lines"), "echo five", rule(), ""]);
    prompt.resize(6);
    expect(prompt.body()).toEqual([rule("↑ 4 more lines"), "echo five", rule(), ""]);
    prompt.resize(5);
    expect(prompt.body()).toEqual([rule("↑ 4 more lines"), "echo five", ""]);
  });

  test("the note being typed and a warning always show", () => {
    const prompt = openPrompt(gitCommitRequest({ detail: "ls" }), { rows: 6 });
    prompt.press("2", KEYS.tab);
    prompt.type("why");
    expect(prompt.body()).toEqual([rule(), "ls", rule(), "> why"]);
    prompt.press(KEYS.tab, KEYS.backspace, KEYS.backspace, KEYS.enter);
    expect(prompt.body()).toEqual([rule(), "", "An empty command achieves nothing", "why"]);
  });

  test("20×8 (the issue): the line being typed is in view", () => {
    const prompt = editing(8, 20);
    prompt.type("abc");
    expect(prompt.body(20)).toEqual([
      "! Authorization…",
      "─── ↑ 4 more lin",
      "echo fiveabc",
      "─".repeat(16),
      "Note to agent",
      "",
    ]);
  });
});

describe("edit mode: behaviour contract", () => {
  test("submit with a changed command runs the edit, with the note", () => {
    const prompt = editingTypo();
    fixTypo(prompt);
    prompt.press(KEYS.tab);
    prompt.type("reworded the message");
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "edit", command: FIXED, note: "reworded the message" }]);
  });

  test("enter from the command field submits; shift+enter inserts a newline", () => {
    const prompt = openPrompt();
    prompt.press("2", KEYS.newline);
    prompt.type("echo more");
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "edit", command: `${ORIGINAL}\necho more`, note: undefined }]);
  });

  test("submit with the command unchanged is a plain Authorize, silent without a note", () => {
    const prompt = openPrompt();
    prompt.press("2", KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: undefined }]);
  });

  test("unchanged command with a note is Authorize with that note", () => {
    const prompt = openPrompt();
    prompt.press("2", KEYS.tab);
    prompt.type("fine as is");
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: "fine as is" }]);
  });

  test("edited back to the original is unchanged", () => {
    const prompt = openPrompt();
    prompt.press("2");
    prompt.type("x");
    prompt.press(KEYS.backspace, KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: undefined }]);
  });

  test("esc, then Authorize: edits discarded, the original runs", () => {
    const prompt = editingTypo();
    fixTypo(prompt);
    prompt.press(KEYS.esc);
    expect(prompt.outcomes).toEqual([]);
    expect(prompt.body()[0]).toBe("! Authorization required: Git interference");
    expect(prompt.body()).toContain("→ 2. Edit");
    prompt.press(KEYS.up, KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: undefined }]);
  });

  test("esc, then Edit again: command and note drafts restored exactly", () => {
    const prompt = editingTypo();
    fixTypo(prompt);
    prompt.press(KEYS.tab);
    prompt.type("reworded");
    const before = prompt.body();
    prompt.press(KEYS.esc);
    expect(prompt.body()).toContain("fix wording in readme");
    prompt.press(KEYS.enter);
    expect(prompt.body()).toEqual(before);
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "edit", command: FIXED, note: "reworded" }]);
  });

  test("select mode previews the live edit for the Edit choice only, plain", () => {
    const prompt = editingTypo();
    fixTypo(prompt);
    prompt.press(KEYS.esc);
    expect(prompt.body()).toContain("fix wording in readme");
    prompt.press(KEYS.up);
    expect(prompt.body()).toContain("fix wordign in readme");
  });

  test("ctrl+r toggles between the edit and the original; the note is untouched", () => {
    const prompt = editingTypo();
    fixTypo(prompt);
    prompt.press(KEYS.tab);
    prompt.type("n");
    prompt.press(KEYS.tab, KEYS.ctrlR);
    expect(prompt.body()).toContain("fix wordign in readme");
    expect(prompt.body()[11]).toBe("n");
    prompt.press(KEYS.ctrlR);
    expect(prompt.body()).toContain("fix wording in readme");
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "edit", command: FIXED, note: "n" }]);
  });

  test("modifying the original while it shows discards the stash", () => {
    const prompt = editingTypo();
    fixTypo(prompt);
    prompt.press(KEYS.ctrlR);
    prompt.type("!");
    prompt.press(KEYS.ctrlR);
    expect(prompt.body()).toContain("fix wordign in readme");
    expect(prompt.body()).toContain(`)"`);
    prompt.press(KEYS.ctrlR);
    expect(prompt.body()).toContain(`)"!`);
    expect(prompt.body()).not.toContain("fix wording in readme");
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "edit", command: `${ORIGINAL}!`, note: undefined }]);
  });

  test("ctrl+r with nothing edited does nothing", () => {
    const prompt = openPrompt();
    prompt.press("2", KEYS.ctrlR, KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: undefined }]);
  });

  test("ctrl+r works from the note field too", () => {
    const prompt = editingTypo();
    fixTypo(prompt);
    prompt.press(KEYS.tab, KEYS.ctrlR, KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: undefined }]);
  });

  test("a tab-note on the Edit choice seeds the note field; they are one draft", () => {
    const prompt = openPrompt();
    prompt.press(KEYS.down, KEYS.tab);
    prompt.type("seeded");
    prompt.press(KEYS.enter);
    expect(prompt.body()[10]).toBe("Note to agent");
    expect(prompt.body()[11]).toBe("seeded");
    prompt.press(KEYS.tab);
    prompt.type(" more");
    prompt.press(KEYS.esc);
    expect(prompt.body()).toContain("     note: seeded more");
  });

  test("a blank command does not run; the warning shows until the next key", () => {
    const prompt = openPrompt();
    prompt.press("2");
    for (let i = 0; i < 4; i++) prompt.press(KEYS.up);
    prompt.press(KEYS.home);
    for (let i = 0; i < 4; i++) prompt.press(KEYS.killLine, "\x1b[3~");
    prompt.type("   ");
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([]);
    const body = prompt.body();
    const rule = body.lastIndexOf(body.find((line, i) => i > 3 && /^─+$/.test(line)) ?? "");
    expect(body[rule + 1]).toBe("An empty command achieves nothing");
    prompt.press("x");
    expect(prompt.body()).not.toContain("An empty command achieves nothing");
  });

  test("the blank warning is painted in the theme's error colour, the note dim", () => {
    const prompt = openPrompt(gitCommitRequest({ detail: "ls" }), { paint: tagged });
    prompt.press(KEYS.down, KEYS.tab);
    prompt.type("n");
    prompt.press(KEYS.enter, KEYS.backspace, KEYS.backspace, KEYS.enter);
    const text = prompt.lines().join("\n");
    expect(text).toContain("<error>An empty command achieves nothing</error>");
    expect(text).toContain("<dim>Note to agent</dim>");
    expect(text).toContain("<dim>n</dim>");
  });

  test("tab inside the command switches field instead of typing a tab", () => {
    const prompt = openPrompt();
    prompt.press("2", KEYS.tab);
    prompt.type("x");
    prompt.press(KEYS.tab, KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: "x" }]);
  });

  test("esc from the note field also returns to select mode", () => {
    const prompt = openPrompt();
    prompt.press("2", KEYS.tab, KEYS.esc);
    expect(prompt.body()).toContain("→ 2. Edit");
    expect(prompt.outcomes).toEqual([]);
  });
});

describe("edit mode: external editor", () => {
  function withEditor(reply: (text: string, suffix: string) => ExternalEditorResult) {
    const calls: { text: string; suffix: string }[] = [];
    const prompt = openPrompt(gitCommitRequest(), {
      externalEditor: async (text, suffix) => {
        calls.push({ text, suffix });
        return reply(text, suffix);
      },
    });
    return { prompt, calls };
  }

  test("ctrl+g opens the command (real characters, .sh) and takes back the result", async () => {
    const { prompt, calls } = withEditor((text) => ({ ok: true, text: `${text.replace("wordign", "wording")}\n` }));
    prompt.press("2", KEYS.ctrlG);
    await Bun.sleep(0);
    expect(calls).toEqual([{ text: ORIGINAL, suffix: ".sh" }]);
    expect(prompt.body()).toContain("fix wording in readme");
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "edit", command: FIXED, note: undefined }]);
  });

  test("ctrl+g on the note field edits the note", async () => {
    const { prompt, calls } = withEditor(() => ({ ok: true, text: "from vim\n" }));
    prompt.press("2", KEYS.tab, KEYS.ctrlG);
    await Bun.sleep(0);
    expect(calls[0]?.suffix).toBe(".txt");
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: "from vim" }]);
  });

  test("a round trip that changes nothing is a plain Authorize, the command ending in a newline or not", async () => {
    for (const detail of ["git commit -m 'x'\n", "git commit -m 'x'"]) {
      const prompt = openPrompt(gitCommitRequest({ detail }), { externalEditor: async (text) => ({ ok: true, text }) });
      prompt.press("2", KEYS.ctrlG);
      await Bun.sleep(0);
      prompt.press(KEYS.enter);
      expect(prompt.outcomes).toEqual([{ kind: "authorize", note: undefined }]);
    }
  });

  test("an editor's final newline is dropped only when the command had none", async () => {
    const vim = async (text: string) => ({ ok: true as const, text: text.endsWith("\n") ? text : `${text}\n` });
    const without = openPrompt(gitCommitRequest({ detail: "ls" }), { externalEditor: vim });
    without.press("2", KEYS.ctrlG);
    await Bun.sleep(0);
    without.press(KEYS.enter);
    expect(without.outcomes).toEqual([{ kind: "authorize", note: undefined }]);
    const added = openPrompt(gitCommitRequest({ detail: "ls" }), { externalEditor: async () => ({ ok: true, text: "ls\n\n" }) });
    added.press("2", KEYS.ctrlG);
    await Bun.sleep(0);
    added.press(KEYS.enter);
    expect(added.outcomes).toEqual([{ kind: "edit", command: "ls\n", note: undefined }]);
    const removed = openPrompt(gitCommitRequest({ detail: "ls\n" }), { externalEditor: async () => ({ ok: true, text: "ls" }) });
    removed.press("2", KEYS.ctrlG);
    await Bun.sleep(0);
    removed.press(KEYS.enter);
    expect(removed.outcomes).toEqual([{ kind: "edit", command: "ls", note: undefined }]);
  });

  test("a failing editor leaves the buffer unchanged and says so", async () => {
    const { prompt } = withEditor(() => ({ ok: false, reason: "vim exited with code 1" }));
    prompt.press("2", KEYS.ctrlG);
    await Bun.sleep(0);
    expect(prompt.body()).toContain("External editor failed: vim exited with code 1; nothing changed.");
    expect(prompt.body()).toContain("fix wordign in readme");
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: undefined }]);
  });
});

describe("edit mode: what counts as blank", () => {
  test("a command of only invisible whitespace (shown as notation) is blank", () => {
    const prompt = openPrompt(gitCommitRequest({ detail: "\r\ngit commit -m " }));
    prompt.press("2", "\x15", KEYS.enter);
    expect(prompt.outcomes).toEqual([]);
    expect(prompt.body()).toContain("An empty command achieves nothing");
  });
});
