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

  test("lines never exceed the width in edit mode", () => {
    const prompt = openPrompt();
    prompt.press("2");
    for (const width of [10, 24, 80, 160]) for (const line of prompt.lines(width)) expect(Bun.stringWidth(line)).toBe(width);
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
