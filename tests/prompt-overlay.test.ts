import { describe, expect, test } from "bun:test";
import type { Paint } from "../lib/presenter.ts";
import type { PromptRequest } from "../lib/prompt-overlay.ts";
import { gitCommitRequest, KEYS, keybindings, openPrompt, tagged } from "./support/prompt-harness.ts";

describe("select mode: anatomy", () => {
  test("renders the seed's select-mode prompt", () => {
    expect(openPrompt().body()).toEqual([
      "! Authorization required: Git interference",
      "",
      "Git staging is reserved for the Approver.",
      "",
      `bash: git commit -m "$(cat <<'EOF'`,
      "fix wordign in readme",
      "EOF",
      `)"`,
      "",
      "→ 1. Authorize",
      "  2. Edit",
      "  3. Abort",
      "",
      "↑↓ select  enter confirm  tab add note  shift+tab close  esc abort",
      "ctrl+s don't ask again",
    ]);
  });

  test("the hints take one line when it fits, and wrap between hints when it doesn't", () => {
    expect(openPrompt().body(100).slice(-1)).toEqual([
      "↑↓ select  enter confirm  tab add note  shift+tab close  esc abort  ctrl+s don't ask again",
    ]);
    expect(openPrompt().body(44).slice(-3)).toEqual([
      "↑↓ select  enter confirm  tab add note",
      "shift+tab close  esc abort",
      "ctrl+s don't ask again",
    ]);
  });

  test("guidance follows the description; custom labels replace the defaults", () => {
    const prompt = openPrompt(
      gitCommitRequest({
        guidance: "Check the message.",
        labels: { authorize: "Ship it", edit: "Reword", abort: "Nope", dontAsk: "trust commits" },
      }),
    );
    const body = prompt.body();
    expect(body.slice(2, 5)).toEqual(["Git staging is reserved for the Approver.", "", "Check the message."]);
    expect(body).toContain("→ 1. Ship it");
    expect(body).toContain("  2. Reword");
    expect(body).toContain("  3. Nope");
    expect(body.at(-1)).toBe("ctrl+s trust commits");
  });

  test("non-command tools offer two choices and no Edit", () => {
    const prompt = openPrompt(
      gitCommitRequest({ toolName: "write", detail: "notes.md (3 lines)", editable: false, highlights: [] }),
    );
    expect(prompt.body().filter((line) => /\d\. /.test(line))).toEqual(["→ 1. Authorize", "  2. Abort"]);
    prompt.press("2");
    expect(prompt.outcome).toEqual({ kind: "abort" });
  });

  test("highlights are painted, bold in the warning colour, only on the original command", () => {
    const prompt = openPrompt(gitCommitRequest(), { paint: tagged });
    expect(prompt.lines().join("\n")).toContain("<warning><b>git commit</b></warning> -m");
    prompt.press("2", " ", KEYS.esc);
    expect(prompt.lines().join("\n")).not.toContain("<b>git commit</b>");
    prompt.press(KEYS.up);
    expect(prompt.lines().join("\n")).toContain("<warning><b>git commit</b></warning> -m");
  });

  test("every line is exactly the given width, down to tiny terminals", () => {
    for (const width of [4, 10, 20, 33, 80, 200]) {
      for (const line of openPrompt().lines(width)) {
        expect(Bun.stringWidth(line)).toBe(width);
      }
    }
  });
});

describe("select mode: keys", () => {
  test("enter authorizes the highlighted choice", () => {
    const prompt = openPrompt();
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: undefined }]);
  });

  test("↓/j and ↑/k move, wrapping around", () => {
    const prompt = openPrompt();
    const selected = () => prompt.body().find((line) => line.startsWith("→"));
    prompt.press(KEYS.down);
    expect(selected()).toBe("→ 2. Edit");
    prompt.press("j");
    expect(selected()).toBe("→ 3. Abort");
    prompt.press("j");
    expect(selected()).toBe("→ 1. Authorize");
    prompt.press("k");
    expect(selected()).toBe("→ 3. Abort");
    prompt.press(KEYS.up);
    expect(selected()).toBe("→ 2. Edit");
  });

  test("a digit confirms that choice at once", () => {
    const prompt = openPrompt();
    prompt.press("3");
    expect(prompt.outcomes).toEqual([{ kind: "abort", note: undefined }]);
  });

  test("digits out of range do nothing", () => {
    const prompt = openPrompt();
    prompt.press("4", "0", "9");
    expect(prompt.outcomes).toEqual([]);
  });

  test("esc aborts without a note", () => {
    const prompt = openPrompt();
    prompt.press(KEYS.esc);
    expect(prompt.outcomes).toEqual([{ kind: "abort" }]);
  });

  test("ctrl+c aborts too (pi's select cancel)", () => {
    const prompt = openPrompt();
    prompt.press(KEYS.ctrlC);
    expect(prompt.outcomes).toEqual([{ kind: "abort" }]);
  });

  test("nothing happens after the outcome", () => {
    const prompt = openPrompt();
    prompt.press("1", "3", KEYS.esc);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: undefined }]);
  });

  test("the user's remapped keys are honoured", () => {
    const prompt = openPrompt(gitCommitRequest(), {
      keys: keybindings({ "tui.select.down": "ctrl+n", "tui.select.cancel": "ctrl+q" }),
    });
    prompt.press("\x0e");
    expect(prompt.body().find((line) => line.startsWith("→"))).toBe("→ 2. Edit");
    expect(prompt.body().slice(-2)).toEqual([
      "↑/ctrl+n select  enter confirm  tab add note  shift+tab close  ctrl+q abort",
      "ctrl+s don't ask again",
    ]);
    prompt.press(KEYS.esc);
    expect(prompt.outcomes).toEqual([]);
    prompt.press("\x11");
    expect(prompt.outcomes).toEqual([{ kind: "abort" }]);
  });
});

describe("select mode: notes", () => {
  test("tab opens a note draft on the highlighted choice; enter confirms with it", () => {
    const prompt = openPrompt();
    prompt.press(KEYS.tab);
    prompt.type("use the staging area");
    expect(prompt.body()).toContain("     note: > use the staging area");
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: "use the staging area" }]);
  });

  test("abort with a note", () => {
    const prompt = openPrompt();
    prompt.press(KEYS.up, KEYS.tab);
    prompt.type("split it in two");
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "abort", note: "split it in two" }]);
  });

  test("whitespace-only notes are no notes", () => {
    const prompt = openPrompt();
    prompt.press(KEYS.tab);
    prompt.type("   ");
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: undefined }]);
  });

  test("while drafting, digits and j/k are text", () => {
    const prompt = openPrompt();
    prompt.press(KEYS.tab);
    prompt.type("3 jk");
    expect(prompt.outcomes).toEqual([]);
    expect(prompt.body()).toContain("     note: > 3 jk");
  });

  test("after a draft was opened, digits only move the highlight", () => {
    const prompt = openPrompt();
    prompt.press(KEYS.tab, KEYS.shiftTab, "3");
    expect(prompt.outcomes).toEqual([]);
    expect(prompt.body().find((line) => line.startsWith("→"))).toBe("→ 3. Abort");
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "abort", note: undefined }]);
  });

  test("each choice keeps its own draft; shift+tab closes the draft and keeps its text", () => {
    const prompt = openPrompt();
    prompt.press(KEYS.tab);
    prompt.type("yes note");
    prompt.press(KEYS.down, KEYS.down);
    prompt.type("no note");
    prompt.press(KEYS.shiftTab);
    expect(prompt.body().filter((line) => line.includes("note:"))).toEqual(["     note: yes note", "     note: no note"]);
    prompt.press(KEYS.up, KEYS.up, KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: "yes note" }]);
  });

  test("esc while drafting aborts without the note", () => {
    const prompt = openPrompt();
    prompt.press(KEYS.tab);
    prompt.type("hm");
    prompt.press(KEYS.esc);
    expect(prompt.outcomes).toEqual([{ kind: "abort" }]);
  });
});

describe("select mode: don't ask again", () => {
  test("ctrl+s authorizes and asks for the hook to be switched off", () => {
    const prompt = openPrompt();
    prompt.press(KEYS.ctrlS);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: undefined, dontAskAgain: true }]);
  });

  test("whichever choice is highlighted", () => {
    const prompt = openPrompt();
    prompt.press(KEYS.up);
    prompt.press(KEYS.ctrlS);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: undefined, dontAskAgain: true }]);
  });

  test("the note drafted on Authorize travels with it; other drafts stay behind", () => {
    const prompt = openPrompt();
    prompt.press(KEYS.tab);
    prompt.type("fine for today");
    prompt.press(KEYS.up);
    prompt.type("not this one");
    prompt.press(KEYS.ctrlS);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: "fine for today", dontAskAgain: true }]);
  });

  test("it is not text while drafting, and does nothing in edit mode", () => {
    const drafting = openPrompt();
    drafting.press(KEYS.down, KEYS.tab, KEYS.ctrlS);
    expect(drafting.outcomes).toEqual([{ kind: "authorize", note: undefined, dontAskAgain: true }]);
    const editing = openPrompt();
    editing.press("2", KEYS.ctrlS);
    expect(editing.outcomes).toEqual([]);
    expect(editing.body()).toContain("Note to agent");
  });
});

describe("select mode: long details scroll", () => {
  const long = Array.from({ length: 60 }, (_, i) => `echo line ${i + 1}`).join("\n");

  test("the detail is windowed with markers and the prompt fits the terminal", () => {
    const prompt = openPrompt(gitCommitRequest({ detail: long, highlights: [] }), { rows: 24 });
    const lines = prompt.lines();
    expect(lines.length).toBeLessThanOrEqual(24);
    const body = prompt.body();
    expect(body).toContain("bash: echo line 1");
    expect(body.some((line) => /^↓ \d+ more lines$/.test(line))).toBe(true);
  });

  test("page down and page up scroll the detail", () => {
    const prompt = openPrompt(gitCommitRequest({ detail: long, highlights: [] }), { rows: 24 });
    prompt.press(KEYS.pageDown);
    const body = prompt.body();
    expect(body.some((line) => /^↑ \d+ more lines?$/.test(line))).toBe(true);
    expect(body).not.toContain("bash: echo line 1");
    prompt.press(KEYS.pageUp, KEYS.pageUp);
    expect(prompt.body()).toContain("bash: echo line 1");
  });
});

describe("select mode: faithful display", () => {
  test("control and invisible characters are shown, never sent", () => {
    const detail = "echo \x1b[31mred\x1b[0m\tx\u202Eevil\u200B";
    const prompt = openPrompt(gitCommitRequest({ detail, highlights: [{ start: 0, end: 4 }] }));
    const text = prompt.lines().join("\n");
    expect(text).not.toContain("\x1b[31m");
    expect(text).not.toContain("\u202E");
    expect(prompt.body()).toContain("bash: echo ⟨ESC⟩[31mred⟨ESC⟩[0m⟨TAB⟩x⟨U+202E⟩evil⟨U+200B⟩");
  });

  test("an untouched edit submits the original bytes as a plain Authorize", () => {
    const detail = "printf 'a\\tb'\t# tab\r\n\x1b";
    const prompt = openPrompt(gitCommitRequest({ detail, highlights: [] }));
    prompt.press("2", KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: undefined }]);
  });

  test("an edit keeps the characters it did not touch", () => {
    const detail = "echo\tx \x1b";
    const prompt = openPrompt(gitCommitRequest({ detail, highlights: [] }));
    prompt.press("2");
    prompt.type(" y");
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "edit", command: "echo\tx \x1b y", note: undefined }]);
  });
});

describe("arming: typed-ahead keys never answer a prompt", () => {
  test("keys are ignored for the arming interval, which the hints say, at the hints' height", () => {
    const prompt = openPrompt(gitCommitRequest(), { arming: true });
    const armingHeight = prompt.lines().length;
    expect(prompt.body().slice(-2)).toEqual(["keys wake up in a moment…", ""]);
    prompt.press(KEYS.enter, "1", KEYS.esc, KEYS.down, KEYS.ctrlS);
    expect(prompt.outcomes).toEqual([]);
    expect(prompt.body()).toContain("→ 1. Authorize");
    prompt.advance(299);
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([]);
    prompt.advance(1);
    expect(prompt.body().slice(-2)).toEqual([
      "↑↓ select  enter confirm  tab add note  shift+tab close  esc abort",
      "ctrl+s don't ask again",
    ]);
    expect(prompt.lines().length).toBe(armingHeight);
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: undefined }]);
  });

  test("cancel closes the prompt as an Abort, once", () => {
    const prompt = openPrompt();
    prompt.prompt.cancel();
    prompt.prompt.cancel();
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "abort" }]);
  });
});

describe("select mode: short terminals keep the choices", () => {
  const FIVE_LINES = "echo one\necho two\necho three\necho four\necho five";
  const request = (overrides: Partial<PromptRequest> = {}) =>
    gitCommitRequest({ guidance: "Check the message.", detail: FIVE_LINES, highlights: [], ...overrides });
  const CHOICES = ["→ 1. Authorize", "  2. Edit", "  3. Abort"];
  const HINTS = ["↑↓ select  enter confirm  tab add note  shift+tab close  esc abort", "ctrl+s don't ask again"];

  test("room for everything: the full prompt, blank rows between its parts", () => {
    const prompt = openPrompt(request(), { rows: 20 });
    expect(prompt.lines()).toHaveLength(20);
    expect(prompt.body()).toEqual([
      "! Authorization required: Git interference",
      "",
      "Git staging is reserved for the Approver.",
      "",
      "Check the message.",
      "",
      "bash: echo one",
      "echo two",
      "echo three",
      "echo four",
      "echo five",
      "",
      ...CHOICES,
      "",
      ...HINTS,
    ]);
  });

  test("a row short: the blank rows go first, all at once", () => {
    const prompt = openPrompt(request(), { rows: 19 });
    expect(prompt.body()).toEqual([
      "! Authorization required: Git interference",
      "Git staging is reserved for the Approver.",
      "Check the message.",
      "bash: echo one",
      "echo two",
      "echo three",
      "echo four",
      "echo five",
      ...CHOICES,
      ...HINTS,
    ]);
  });

  test("a long command's window gives way down to five lines before the blank rows go", () => {
    const long = Array.from({ length: 30 }, (_, i) => `echo ${i + 1}`).join("\n");
    const prompt = openPrompt(request({ detail: long }), { rows: 20 });
    expect(prompt.lines()).toHaveLength(20);
    expect(prompt.body()).toEqual([
      "! Authorization required: Git interference",
      "",
      "Git staging is reserved for the Approver.",
      "",
      "Check the message.",
      "",
      "bash: echo 1",
      "echo 2",
      "echo 3",
      "echo 4",
      "↓ 26 more lines",
      "",
      ...CHOICES,
      "",
      ...HINTS,
    ]);
    prompt.resize(19);
    expect(prompt.body().slice(0, 9)).toEqual([
      "! Authorization required: Git interference",
      "Git staging is reserved for the Approver.",
      "Check the message.",
      "bash: echo 1",
      "echo 2",
      "echo 3",
      "echo 4",
      "echo 5",
      "echo 6",
    ]);
  });

  test("100×14 (the issue): the command's window shrinks; hints and bottom border stay", () => {
    const prompt = openPrompt(request(), { rows: 14 });
    const lines = prompt.lines();
    expect(lines).toHaveLength(14);
    expect(lines.at(-1)).toMatch(/^╰─+╯$/);
    expect(prompt.body()).toEqual([
      "! Authorization required: Git interference",
      "Git staging is reserved for the Approver.",
      "Check the message.",
      "bash: echo one",
      "echo two",
      "echo three",
      "↓ 2 more lines",
      ...CHOICES,
      ...HINTS,
    ]);
  });

  test("100×10 (the issue): one line of the command, then the description and guidance give way", () => {
    const prompt = openPrompt(request(), { rows: 10 });
    expect(prompt.lines()).toHaveLength(10);
    expect(prompt.body()).toEqual([
      "! Authorization required: Git interference",
      "bash: echo one",
      "↓ 4 more lines",
      ...CHOICES,
      ...HINTS,
    ]);
  });

  test("the description, then the guidance, are cut short with a marker", () => {
    const description = "Git staging is reserved for the Approver, who stages by hand and reviews every hunk before it goes in.";
    const prompt = openPrompt(request({ description }), { rows: 15, width: 44 });
    // 40 columns inside: the title takes 2 rows, the description 3, the hints 3.
    expect(prompt.body(44)).toEqual([
      "! Authorization required: Git",
      "interference",
      "Git staging is reserved for the",
      // The row was full: the marker takes its last column (pi-tui's truncation ends in a reset).
      "Approver, who stages by hand and review\x1b[0m…",
      "Check the message.",
      "bash: echo one",
      "↓ 4 more lines",
      ...CHOICES,
      "↑↓ select  enter confirm  tab add note",
      "shift+tab close  esc abort",
      "ctrl+s don't ask again",
    ]);
    prompt.resize(14);
    expect(prompt.body(44).slice(2, 5)).toEqual(["Git staging is reserved for the…", "Check the message.", "bash: echo one"]);
    prompt.resize(13);
    expect(prompt.body(44).slice(2, 4)).toEqual(["Check the message.", "bash: echo one"]);
    prompt.resize(12);
    expect(prompt.body(44).slice(0, 4)).toEqual([
      "! Authorization required: Git",
      "interference",
      "bash: echo one",
      "↓ 4 more lines",
    ]);
  });

  test("then the hints, then the title down to one row, then the command, then the title", () => {
    const prompt = openPrompt(request(), { rows: 9, width: 44 });
    expect(prompt.body(44)).toEqual([
      "! Authorization required: Git",
      "interference",
      "bash: echo one",
      "↓ 4 more lines",
      ...CHOICES,
    ]);
    prompt.resize(8);
    expect(prompt.body(44)).toEqual(["! Authorization required: Git…", "bash: echo one", "↓ 4 more lines", ...CHOICES]);
    prompt.resize(7);
    expect(prompt.body(44)).toEqual(["! Authorization required: Git…", "bash: echo one", ...CHOICES]);
    prompt.resize(6);
    expect(prompt.body(44)).toEqual(["! Authorization required: Git…", ...CHOICES]);
    prompt.resize(5);
    expect(prompt.body(44)).toEqual(CHOICES);
  });

  test("notes kept on other choices give way before the command; the note being typed never does", () => {
    const prompt = openPrompt(request(), { rows: 10 });
    prompt.press(KEYS.tab);
    prompt.type("fine");
    prompt.press(KEYS.up, KEYS.tab);
    prompt.type("no");
    expect(prompt.body()).toEqual([
      "! Authorization required: Git interference",
      "bash: echo one",
      "↓ 4 more lines",
      "  1. Authorize",
      "     note: fine",
      "  2. Edit",
      "→ 3. Abort",
      "     note: > no",
    ]);
    prompt.resize(9);
    const withoutKept = ["  1. Authorize", "  2. Edit", "→ 3. Abort", "     note: > no"];
    expect(prompt.body()).toEqual([
      "! Authorization required: Git interference",
      "bash: echo one",
      "↓ 4 more lines",
      ...withoutKept,
    ]);
    prompt.resize(8);
    expect(prompt.body()).toEqual(["! Authorization required: Git interference", "bash: echo one", ...withoutKept]);
    prompt.resize(7);
    expect(prompt.body()).toEqual(["! Authorization required: Git interference", ...withoutKept]);
    prompt.resize(6);
    expect(prompt.body()).toEqual(withoutKept);
  });

  test("while keys wake up, the short prompt keeps the hints' height", () => {
    const prompt = openPrompt(request(), { rows: 14, arming: true });
    expect(prompt.body().slice(-5)).toEqual([...CHOICES, "keys wake up in a moment…", ""]);
    prompt.advance(300);
    expect(prompt.body().slice(-5)).toEqual([...CHOICES, ...HINTS]);
  });

  test("page keys move a one-line window a line at a time, down to the last line", () => {
    const prompt = openPrompt(request(), { rows: 10 });
    const window = () => prompt.body().slice(1, 3);
    prompt.press(KEYS.pageDown);
    expect(window()).toEqual(["echo two", "↓ 3 more lines"]);
    prompt.press(KEYS.pageDown, KEYS.pageDown);
    expect(window()).toEqual(["echo four", "echo five"]);
    prompt.press(KEYS.pageDown);
    expect(window()).toEqual(["echo four", "echo five"]);
    prompt.press(KEYS.pageUp);
    expect(window()).toEqual(["echo three", "↓ 2 more lines"]);
  });

  test("drawing at another height leaves the scroll position as it was", () => {
    const long = Array.from({ length: 60 }, (_, i) => `echo line ${i + 1}`).join("\n");
    const prompt = openPrompt(gitCommitRequest({ detail: long, highlights: [] }), { rows: 24 });
    prompt.lines();
    prompt.press(...Array<string>(12).fill(KEYS.pageDown));
    const atEnd = prompt.body();
    expect(atEnd).toContain("echo line 60");
    prompt.resize(40);
    expect(prompt.body()).toContain("echo line 60");
    prompt.resize(24);
    expect(prompt.body()).toEqual(atEnd);
  });
});

describe("a new theme shows at once", () => {
  /** A paint whose colours are whatever `theme.name` says, as pi's theme proxy behaves. */
  function switchablePaint() {
    const theme = { name: "dark" };
    const paint: Paint = {
      fg: (tone, text) => `<${theme.name}:${tone}>${text}</>`,
      bold: (text) => `<b>${text}</b>`,
    };
    return { theme, paint };
  }

  test("select mode and edit mode redraw in the new colours, without invalidate()", () => {
    const { theme, paint } = switchablePaint();
    const prompt = openPrompt(gitCommitRequest(), { paint });
    expect(prompt.lines().join("\n")).toContain("<dark:border>");
    theme.name = "light";
    const select = prompt.lines().join("\n");
    expect(select).not.toContain("<dark:");
    expect(select).toContain("<light:border>╭");
    expect(select).toContain("<light:accent><b>! Authorization required");
    expect(select).toContain("<light:warning><b>git commit</b></>");
    prompt.press("2");
    expect(prompt.lines().join("\n")).toContain("<light:dim>Note to agent</>");
    theme.name = "dark";
    const edit = prompt.lines().join("\n");
    expect(edit).not.toContain("<light:");
    expect(edit).toContain("<dark:dim>Note to agent</>");
    expect(edit).toContain("<dark:dim>enter</> run");
  });
});

describe("focus", () => {
  const CURSOR_MARKER = "\x1b_pi:c\x07";

  test("the field being typed in has the terminal's cursor while the prompt is focused", () => {
    const prompt = openPrompt();
    prompt.press(KEYS.tab);
    expect(prompt.lines().some((line) => line.includes(CURSOR_MARKER))).toBe(true);
    prompt.prompt.focused = false;
    expect(prompt.lines().some((line) => line.includes(CURSOR_MARKER))).toBe(false);
    prompt.press(KEYS.shiftTab, KEYS.down, KEYS.enter);
    expect(prompt.lines().some((line) => line.includes(CURSOR_MARKER))).toBe(false);
    prompt.prompt.focused = true;
    expect(prompt.lines().filter((line) => line.includes(CURSOR_MARKER))).toHaveLength(1);
    prompt.press(KEYS.tab);
    const withCursor = prompt.body().filter((_, index) => prompt.lines()[index + 1]?.includes(CURSOR_MARKER));
    expect(withCursor).toEqual([">"]);
  });
});

describe("where the call comes from: the origin, and the script on demand", () => {
  const ORIGIN = "Made by a codemode script the agent wrote.";
  const SCRIPT = 'const r = await tools.bash({ command: "git commit" });\nreturn r.output;';
  const nested = (overrides: Partial<PromptRequest> = {}) => gitCommitRequest({ origin: ORIGIN, script: SCRIPT, ...overrides });
  const CHOICES = ["→ 1. Authorize", "  2. Edit", "  3. Abort"];
  const COMMAND = [`bash: git commit -m "$(cat <<'EOF'`, "fix wordign in readme", "EOF", `)"`];
  const selectHintsWith = (last: string) => ["↑↓ select  enter confirm  tab add note  shift+tab close  esc abort", last];

  test("the origin is one dim line under the title; with a script, a hint says how to see it", () => {
    expect(openPrompt(nested()).body()).toEqual([
      "! Authorization required: Git interference",
      "Made by a codemode script the agent wrote.",
      "",
      "Git staging is reserved for the Approver.",
      "",
      ...COMMAND,
      "",
      ...CHOICES,
      "",
      ...selectHintsWith("ctrl+s don't ask again  ctrl+o show script"),
    ]);
    expect(openPrompt(nested(), { paint: tagged }).lines().join("\n")).toContain(
      "<dim>Made by a codemode script the agent wrote.</dim>",
    );
  });

  test("without a script there is no hint, and ctrl+o does nothing", () => {
    const prompt = openPrompt(nested({ script: undefined }));
    const before = prompt.body();
    expect(before.slice(-2)).toEqual(selectHintsWith("ctrl+s don't ask again"));
    prompt.press(KEYS.ctrlO);
    expect(prompt.body()).toEqual(before);
    expect(prompt.outcomes).toEqual([]);
  });

  test("ctrl+o shows the script in the command's place, and again the command", () => {
    const prompt = openPrompt(nested());
    prompt.press(KEYS.ctrlO);
    expect(prompt.body()).toEqual([
      "! Authorization required: Git interference",
      "Made by a codemode script the agent wrote.",
      "",
      "Git staging is reserved for the Approver.",
      "",
      'script: const r = await tools.bash({ command: "git commit" });',
      "return r.output;",
      "",
      ...CHOICES,
      "",
      ...selectHintsWith("ctrl+s don't ask again  ctrl+o show command"),
    ]);
    expect(prompt.lines().join("\n")).not.toContain("fix wordign");
    prompt.press(KEYS.ctrlO);
    expect(prompt.body().slice(5, 9)).toEqual(COMMAND);
    expect(prompt.body().at(-1)).toBe("ctrl+s don't ask again  ctrl+o show script");
  });

  test("the script is labelled in the accent colour and nothing in it is highlighted", () => {
    const prompt = openPrompt(nested({ script: "git commit" }), { paint: tagged });
    prompt.press(KEYS.ctrlO);
    const text = prompt.lines().join("\n");
    expect(text).toContain("<accent>script:</accent> git commit");
    expect(text).not.toContain("<warning>");
  });

  test("the choices keep working while the script shows", () => {
    const moved = openPrompt(nested());
    moved.press(KEYS.ctrlO, KEYS.down);
    expect(moved.body().find((line) => line.startsWith("→"))).toBe("→ 2. Edit");
    moved.press("3");
    expect(moved.outcomes).toEqual([{ kind: "abort", note: undefined }]);

    const noted = openPrompt(nested());
    noted.press(KEYS.ctrlO, KEYS.tab);
    noted.type("ok");
    noted.press(KEYS.ctrlO);
    expect(noted.body()).toContain("     note: > ok");
    expect(noted.body().slice(5, 9)).toEqual(COMMAND);
    noted.press(KEYS.ctrlO, KEYS.enter);
    expect(noted.outcomes).toEqual([{ kind: "authorize", note: "ok" }]);

    const editing = openPrompt(nested());
    editing.press(KEYS.ctrlO, "2");
    expect(editing.body().slice(2, 4)).toEqual(["Command", "─".repeat(76)]);
    editing.press(KEYS.esc);
    expect(editing.body()[5]).toBe('script: const r = await tools.bash({ command: "git commit" });');
  });

  test("a long script scrolls with the page keys, apart from the command's position", () => {
    const script = Array.from({ length: 40 }, (_, i) => `await step(${i + 1});`).join("\n");
    const detail = Array.from({ length: 40 }, (_, i) => `echo ${i + 1}`).join("\n");
    const prompt = openPrompt(nested({ script, detail, highlights: [] }), { rows: 24 });
    const window = () => prompt.body().slice(5, 15);
    prompt.press(KEYS.pageDown);
    expect(window().slice(0, 2)).toEqual(["↑ 7 more lines", "echo 8"]);
    prompt.press(KEYS.ctrlO);
    expect(window()).toEqual([
      "script: await step(1);",
      "await step(2);",
      "await step(3);",
      "await step(4);",
      "await step(5);",
      "await step(6);",
      "await step(7);",
      "await step(8);",
      "await step(9);",
      "↓ 31 more lines",
    ]);
    prompt.press(KEYS.pageDown, KEYS.pageDown, KEYS.pageDown);
    expect(window().slice(0, 2)).toEqual(["↑ 21 more lines", "await step(22);"]);
    prompt.press(KEYS.pageUp);
    expect(window().slice(0, 2)).toEqual(["↑ 14 more lines", "await step(15);"]);
    prompt.press(KEYS.ctrlO);
    expect(window().slice(0, 2)).toEqual(["↑ 7 more lines", "echo 8"]);
    prompt.press(KEYS.ctrlO);
    expect(window().slice(0, 2)).toEqual(["↑ 14 more lines", "await step(15);"]);
  });

  test("every character of the script and the origin is shown, none sent", () => {
    const prompt = openPrompt(nested({ origin: "Made by\x1b[2J x", script: "echo \x1b[31mred\tx\u202Eevil\u200B" }));
    prompt.press(KEYS.ctrlO);
    const text = prompt.lines().join("\n");
    expect(text).not.toContain("\x1b[2J");
    expect(text).not.toContain("\x1b[31m");
    expect(text).not.toContain("\u202E");
    expect(prompt.body()[1]).toBe("Made by⟨ESC⟩[2J x");
    expect(prompt.body()).toContain("script: echo ⟨ESC⟩[31mred⟨TAB⟩x⟨U+202E⟩evil⟨U+200B⟩");
  });

  test("the key follows pi's app.tools.expand binding", () => {
    const prompt = openPrompt(nested(), { keys: keybindings({ "app.tools.expand": "ctrl+e" }) });
    expect(prompt.body().at(-1)).toBe("ctrl+s don't ask again  ctrl+e show script");
    prompt.press(KEYS.ctrlO);
    expect(prompt.body()[5]).toBe(COMMAND[0]);
    prompt.press("\x05");
    expect(prompt.body()[5]).toBe('script: const r = await tools.bash({ command: "git commit" });');
  });

  test("short terminals: the origin gives way after the hints, before the title shrinks to a row", () => {
    const FIVE_LINES = "echo one\necho two\necho three\necho four\necho five";
    const prompt = openPrompt(nested({ guidance: "Check the message.", detail: FIVE_LINES, highlights: [] }), { rows: 10 });
    expect(prompt.body()).toEqual([
      "! Authorization required: Git interference",
      "Made by a codemode script the agent wrote.",
      "bash: echo one",
      "↓ 4 more lines",
      ...CHOICES,
      "↑↓ select  enter confirm  tab add note  shift+tab close  esc abort",
    ]);
    prompt.resize(9);
    expect(prompt.body()).toEqual([
      "! Authorization required: Git interference",
      "Made by a codemode script the agent wrote.",
      "bash: echo one",
      "↓ 4 more lines",
      ...CHOICES,
    ]);
    prompt.resize(8);
    expect(prompt.body()).toEqual(["! Authorization required: Git interference", "bash: echo one", "↓ 4 more lines", ...CHOICES]);
    prompt.resize(12);
    prompt.press(KEYS.tab);
    prompt.type("fine");
    prompt.resize(7);
    expect(prompt.body()).toEqual([
      "! Authorization required: Git interference",
      "→ 1. Authorize",
      "     note: > fine",
      "  2. Edit",
      "  3. Abort",
    ]);
  });

  test("a narrow terminal wraps the origin; cut short, it ends in the marker", () => {
    const prompt = openPrompt(nested({ description: undefined }), { width: 34, rows: 40 });
    expect(prompt.body(34).slice(0, 4)).toEqual([
      "! Authorization required: Git",
      "interference",
      "Made by a codemode script the",
      "agent wrote.",
    ]);
    prompt.resize(10);
    expect(prompt.body(34).slice(0, 4)).toEqual([
      "! Authorization required: Git",
      "interference",
      "Made by a codemode script the…",
      'bash: git commit -m "$(cat',
    ]);
  });
});

describe("the fail-safe timeout's countdown", () => {
  const CHOICES = ["→ 1. Authorize", "  2. Edit", "  3. Abort"];
  const HINTS = ["↑↓ select  enter confirm  tab add note  shift+tab close  esc abort", "ctrl+s don't ask again"];

  test("a dim line above the hints says how long is left, counting down each second", () => {
    const prompt = openPrompt(gitCommitRequest(), { timeoutMs: 60_000 });
    expect(prompt.body()).toEqual([
      "! Authorization required: Git interference",
      "",
      "Git staging is reserved for the Approver.",
      "",
      `bash: git commit -m "$(cat <<'EOF'`,
      "fix wordign in readme",
      "EOF",
      `)"`,
      "",
      ...CHOICES,
      "",
      "Aborts in 60 s if nobody answers",
      ...HINTS,
    ]);
    expect(openPrompt(gitCommitRequest(), { timeoutMs: 60_000, paint: tagged }).lines().join("\n")).toContain(
      "<dim>Aborts in 60 s if nobody answers</dim>",
    );
    prompt.advance(699);
    expect(prompt.body()).toContain("Aborts in 60 s if nobody answers");
    prompt.advance(1);
    expect(prompt.body()).toContain("Aborts in 59 s if nobody answers");
    prompt.advance(58_000);
    expect(prompt.body()).toContain("Aborts in 1 s if nobody answers");
  });

  test("its timer asks for a render each time the seconds change, and stops at the deadline", () => {
    const prompt = openPrompt(gitCommitRequest(), { timeoutMs: 3_000 });
    const renders = () => prompt.calls.filter((call) => call === "render").length;
    const before = renders();
    prompt.advance(699);
    expect(renders()).toBe(before);
    prompt.advance(1);
    expect(renders()).toBe(before + 1);
    prompt.advance(2_000);
    expect(renders()).toBe(before + 3);
    expect(prompt.body()).toContain("Aborts in 0 s if nobody answers");
    expect(prompt.pendingTimers()).toBe(0);
  });

  test("answering or disposing of the prompt clears its timer", () => {
    const answered = openPrompt(gitCommitRequest(), { timeoutMs: 60_000 });
    expect(answered.pendingTimers()).toBe(1);
    answered.press(KEYS.enter);
    expect(answered.pendingTimers()).toBe(0);
    const disposed = openPrompt(gitCommitRequest(), { timeoutMs: 60_000 });
    disposed.prompt.dispose();
    expect(disposed.pendingTimers()).toBe(0);
  });

  test("without the timeout: no line, no timer", () => {
    const prompt = openPrompt();
    expect(prompt.body().join("\n")).not.toContain("Aborts in");
    expect(prompt.pendingTimers()).toBe(0);
  });

  test("edit mode shows it too, above its hints", () => {
    const prompt = openPrompt(gitCommitRequest(), { timeoutMs: 60_000 });
    prompt.press("2");
    expect(prompt.body().slice(-4)).toEqual([
      "",
      "Aborts in 60 s if nobody answers",
      "enter run  shift+enter newline  tab switch field",
      "ctrl+g external editor  ctrl+r restore command  esc back",
    ]);
    prompt.advance(1_700);
    expect(prompt.body().at(-3)).toBe("Aborts in 58 s if nobody answers");
  });

  test("short terminals: it gives way after the title shrinks to a row, before notes kept on other choices", () => {
    const FIVE_LINES = "echo one\necho two\necho three\necho four\necho five";
    const request = gitCommitRequest({ detail: FIVE_LINES, highlights: [] });
    const prompt = openPrompt(request, { rows: 14, width: 44, timeoutMs: 60_000 });
    prompt.press(KEYS.tab);
    prompt.type("fine");
    prompt.press(KEYS.shiftTab);
    expect(prompt.body(44)).toEqual([
      "! Authorization required: Git",
      "interference",
      "bash: echo one",
      "↓ 4 more lines",
      "→ 1. Authorize",
      "     note: fine",
      "  2. Edit",
      "  3. Abort",
      "Aborts in 60 s if nobody answers",
      "↑↓ select  enter confirm  tab add note",
      "shift+tab close  esc abort",
      "ctrl+s don't ask again",
    ]);
    prompt.resize(11);
    expect(prompt.body(44)).toEqual([
      "! Authorization required: Git",
      "interference",
      "bash: echo one",
      "↓ 4 more lines",
      "→ 1. Authorize",
      "     note: fine",
      "  2. Edit",
      "  3. Abort",
      "Aborts in 60 s if nobody answers",
    ]);
    prompt.resize(10);
    expect(prompt.body(44)).toEqual([
      "! Authorization required: Git…",
      "bash: echo one",
      "↓ 4 more lines",
      "→ 1. Authorize",
      "     note: fine",
      "  2. Edit",
      "  3. Abort",
      "Aborts in 60 s if nobody answers",
    ]);
    prompt.resize(9);
    expect(prompt.body(44)).toEqual([
      "! Authorization required: Git…",
      "bash: echo one",
      "↓ 4 more lines",
      "→ 1. Authorize",
      "     note: fine",
      "  2. Edit",
      "  3. Abort",
    ]);
    prompt.resize(8);
    expect(prompt.body(44)).toEqual(["! Authorization required: Git…", "bash: echo one", "↓ 4 more lines", ...CHOICES]);
  });
});

describe("select mode: a grant for the rule that asked", () => {
  const RULE = "Bash(git commit:*)";
  const granting = (overrides: Partial<PromptRequest> = {}) =>
    gitCommitRequest({ grantRule: RULE, grantScopes: ["branch", "project", "user"], ...overrides });
  const COMMAND = [`bash: git commit -m "$(cat <<'EOF'`, "fix wordign in readme", "EOF", `)"`];
  const TOP = ["! Authorization required: Git interference", "", "Git staging is reserved for the Approver.", ""];
  const STEP = ["Authorize, and don't ask again for", RULE, "→ 1. this branch", "  2. this project", "  3. everywhere"];
  const STEP_HINTS = "↑↓ select  enter authorize and save  esc back";

  test("the hints name the key and the exact rule; without a rule there is neither, and ctrl+t does nothing", () => {
    expect(openPrompt(granting()).body().slice(-2)).toEqual([
      "↑↓ select  enter confirm  tab add note  shift+tab close  esc abort",
      "ctrl+s don't ask again  ctrl+t don't ask again for Bash(git commit:*)",
    ]);
    const without = openPrompt();
    const before = without.body();
    expect(before.join("\n")).not.toContain("ctrl+t");
    without.press(KEYS.ctrlT);
    expect(without.body()).toEqual(before);
    expect(without.outcomes).toEqual([]);
    const noScopes = openPrompt(gitCommitRequest({ grantRule: RULE }));
    noScopes.press(KEYS.ctrlT);
    expect(noScopes.body().join("\n")).not.toContain("ctrl+t");
    expect(noScopes.body()).toEqual(before);
  });

  test("ctrl+t opens the grant step in the choices' place: the rule, then the scopes; enter saves it for this branch", () => {
    const prompt = openPrompt(granting());
    prompt.press(KEYS.ctrlT);
    expect(prompt.body()).toEqual([...TOP, ...COMMAND, "", ...STEP, "", STEP_HINTS]);
    expect(prompt.outcomes).toEqual([]);
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: undefined, grant: { rule: RULE, scope: "branch" } }]);
  });

  test("↓/j and ↑/k pick the scope, wrapping; digits pick without saving; enter saves the one picked", () => {
    const prompt = openPrompt(granting());
    const picked = () => prompt.body().find((line) => line.startsWith("→"));
    prompt.press(KEYS.ctrlT, KEYS.down);
    expect(picked()).toBe("→ 2. this project");
    prompt.press("j");
    expect(picked()).toBe("→ 3. everywhere");
    prompt.press("j");
    expect(picked()).toBe("→ 1. this branch");
    prompt.press("k");
    expect(picked()).toBe("→ 3. everywhere");
    prompt.press(KEYS.up, "2");
    expect(picked()).toBe("→ 2. this project");
    prompt.press("3", "4", "1", "3");
    expect(picked()).toBe("→ 3. everywhere");
    expect(prompt.outcomes).toEqual([]);
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: undefined, grant: { rule: RULE, scope: "user" } }]);

    const project = openPrompt(granting());
    project.press(KEYS.ctrlT, "2", KEYS.enter);
    expect(project.outcomes).toEqual([{ kind: "authorize", note: undefined, grant: { rule: RULE, scope: "project" } }]);
  });

  test("without the project scope (a project pi doesn't trust) the step offers two", () => {
    const prompt = openPrompt(granting({ grantScopes: ["branch", "user"] }));
    prompt.press(KEYS.ctrlT);
    expect(prompt.body().slice(9, 13)).toEqual([
      "Authorize, and don't ask again for",
      RULE,
      "→ 1. this branch",
      "  2. everywhere",
    ]);
    prompt.press("3", KEYS.down, KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: undefined, grant: { rule: RULE, scope: "user" } }]);
  });

  test("esc (or ctrl+c) goes back to the choices as they were, drafts and all; nothing is saved", () => {
    const prompt = openPrompt(granting());
    prompt.press(KEYS.tab);
    prompt.type("fine");
    prompt.press(KEYS.down);
    const before = prompt.body();
    prompt.press(KEYS.ctrlT, KEYS.down, KEYS.esc);
    expect(prompt.body()).toEqual(before);
    prompt.press(KEYS.ctrlT, KEYS.ctrlC);
    expect(prompt.body()).toEqual(before);
    expect(prompt.outcomes).toEqual([]);
    prompt.type("x");
    expect(prompt.body()).toContain("     note: > x");
    prompt.press(KEYS.up, KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: "fine" }]);
  });

  test("the note drafted on Authorize travels with the grant; ctrl+t is no text while drafting; other drafts stay behind", () => {
    const prompt = openPrompt(granting());
    prompt.press(KEYS.tab);
    prompt.type("ok for commits");
    prompt.press(KEYS.up);
    prompt.type("not this");
    prompt.press(KEYS.ctrlT);
    expect(prompt.body().join("\n")).not.toContain("note:");
    prompt.type("k");
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: "ok for commits", grant: { rule: RULE, scope: "user" } }]);
  });

  test("no field has the cursor in the step; back in the choices, the draft has it again", () => {
    const CURSOR_MARKER = "\x1b_pi:c\x07";
    const prompt = openPrompt(granting());
    prompt.press(KEYS.tab, KEYS.ctrlT);
    expect(prompt.lines().some((line) => line.includes(CURSOR_MARKER))).toBe(false);
    prompt.press(KEYS.esc);
    expect(prompt.lines().filter((line) => line.includes(CURSOR_MARKER))).toHaveLength(1);
  });

  test("the step shows the command that runs, not an edit left on the Edit choice", () => {
    const prompt = openPrompt(granting());
    prompt.press("2");
    prompt.type(" --amend");
    prompt.press(KEYS.esc);
    expect(prompt.body()[7]).toBe(`)" --amend`);
    prompt.press(KEYS.ctrlT);
    expect(prompt.body().slice(4, 8)).toEqual(COMMAND);
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: undefined, grant: { rule: RULE, scope: "branch" } }]);
  });

  test("every character of the rule is shown in the hint and the step; the outcome carries the rule as it is", () => {
    const rule = "Bash(echo '\x1b[2J\u202e':*)";
    const prompt = openPrompt(granting({ grantRule: rule }));
    expect(prompt.body().at(-1)).toBe("ctrl+t don't ask again for Bash(echo '⟨ESC⟩[2J⟨U+202E⟩':*)");
    prompt.press(KEYS.ctrlT);
    const text = prompt.lines().join("\n");
    expect(text).not.toContain("\x1b[2J");
    expect(text).not.toContain("\u202e");
    expect(prompt.body()[10]).toBe("Bash(echo '⟨ESC⟩[2J⟨U+202E⟩':*)");
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: undefined, grant: { rule, scope: "branch" } }]);
  });

  test("the rule is bold and the scope picked is in the accent colour", () => {
    const prompt = openPrompt(granting(), { paint: tagged });
    prompt.press(KEYS.ctrlT);
    const text = prompt.lines().join("\n");
    expect(text).toContain("<b>Bash(git commit:*)</b>");
    expect(text).toContain("<accent>→ 1. this branch</accent>");
  });

  test("page keys and ctrl+o work in the step as in the choices", () => {
    const script = "await tools.bash({ command: 'git commit' });";
    const detail = Array.from({ length: 40 }, (_, i) => `echo ${i + 1}`).join("\n");
    const prompt = openPrompt(granting({ detail, highlights: [], script }), { rows: 24 });
    prompt.press(KEYS.ctrlT, KEYS.pageDown);
    expect(prompt.body().slice(4, 6)).toEqual(["↑ 7 more lines", "echo 8"]);
    prompt.press(KEYS.ctrlO);
    expect(prompt.body()[4]).toBe("script: await tools.bash({ command: 'git commit' });");
    expect(prompt.body().at(-1)).toBe(STEP_HINTS);
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: undefined, grant: { rule: RULE, scope: "branch" } }]);
  });

  test("typed-ahead ctrl+t opens nothing; in edit mode it does nothing", () => {
    const arming = openPrompt(granting(), { arming: true });
    arming.press(KEYS.ctrlT);
    arming.advance(300);
    expect(arming.body()).toContain("→ 1. Authorize");
    const editing = openPrompt(granting());
    editing.press("2", KEYS.ctrlT);
    expect(editing.body()).toContain("Note to agent");
    expect(editing.body().join("\n")).not.toContain("this branch");
    expect(editing.outcomes).toEqual([]);
  });

  test("the hints wrap between hints like the others; narrower than the grant's hint, the step still shows the whole rule", () => {
    expect(openPrompt(granting()).body(50).slice(-4)).toEqual([
      "↑↓ select  enter confirm  tab add note",
      "shift+tab close  esc abort",
      "ctrl+s don't ask again",
      "ctrl+t don't ask again for Bash(git commit:*)",
    ]);
    const prompt = openPrompt(granting());
    expect(prompt.body(44).at(-1)).toStartWith("ctrl+t don't ask again for Bash(git c");
    prompt.press(KEYS.ctrlT);
    expect(prompt.body(30).slice(-10)).toEqual([
      "Authorize, and don't ask",
      "again for",
      RULE,
      "→ 1. this branch",
      "  2. this project",
      "  3. everywhere",
      "",
      "↑↓ select",
      "enter authorize and save",
      "esc back",
    ]);
  });
});

describe("the grant step in short terminals keeps the rule and its scopes", () => {
  const FIVE_LINES = "echo one\necho two\necho three\necho four\necho five";
  const TITLE = "! Authorization required: Git interference";
  const ORIGIN = "Made by a codemode script the agent wrote.";
  const COUNTDOWN = "Aborts in 60 s if nobody answers";
  const RULE_AND_SCOPES = ["Bash(git commit:*)", "→ 1. this branch", "  2. this project", "  3. everywhere"];
  const HEADED = ["Authorize, and don't ask again for", ...RULE_AND_SCOPES];

  test("enter saves nothing while the terminal is too small to show the whole rule and its scopes", () => {
    const rule = "Bash(git -C some/long/path/to/a/repository commit:*)";
    const prompt = openPrompt(gitCommitRequest({ grantRule: rule, grantScopes: ["branch", "project", "user"] }), { rows: 6 });
    prompt.press(KEYS.ctrlT);
    expect(prompt.lines(24)).toHaveLength(6);
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([]);
    prompt.resize(40);
    prompt.lines(24);
    prompt.press(KEYS.enter);
    expect(prompt.outcomes).toEqual([{ kind: "authorize", note: undefined, grant: { rule, scope: "branch" } }]);
  });

  test("what gives way, height by height: as in the choices, the heading just before the command", () => {
    const request = gitCommitRequest({
      guidance: "Check the message.",
      detail: FIVE_LINES,
      highlights: [],
      origin: ORIGIN,
      grantRule: "Bash(git commit:*)",
      grantScopes: ["branch", "project", "user"],
    });
    const prompt = openPrompt(request, { rows: 14, timeoutMs: 60_000 });
    prompt.press(KEYS.ctrlT);
    const at = (rows: number) => {
      prompt.resize(rows);
      expect(prompt.lines().length).toBeLessThanOrEqual(rows);
      return prompt.body();
    };
    expect(at(14)).toEqual([
      TITLE,
      ORIGIN,
      "Check the message.",
      "bash: echo one",
      "↓ 4 more lines",
      ...HEADED,
      COUNTDOWN,
      "↑↓ select  enter authorize and save  esc back",
    ]);
    expect(at(12)).toEqual([TITLE, ORIGIN, "bash: echo one", "↓ 4 more lines", ...HEADED, COUNTDOWN]);
    expect(at(11)).toEqual([TITLE, "bash: echo one", "↓ 4 more lines", ...HEADED, COUNTDOWN]);
    expect(at(10)).toEqual([TITLE, "bash: echo one", "↓ 4 more lines", ...HEADED]);
    expect(at(9)).toEqual([TITLE, "bash: echo one", "↓ 4 more lines", ...RULE_AND_SCOPES]);
    expect(at(8)).toEqual([TITLE, "bash: echo one", ...RULE_AND_SCOPES]);
    expect(at(7)).toEqual([TITLE, ...RULE_AND_SCOPES]);
    expect(at(6)).toEqual(RULE_AND_SCOPES);
    prompt.press(KEYS.down, KEYS.enter);
    expect(prompt.outcomes).toEqual([
      { kind: "authorize", note: undefined, grant: { rule: "Bash(git commit:*)", scope: "project" } },
    ]);
  });

  test("a rule that wraps keeps every row of it, down to a terminal that holds just it and the scopes", () => {
    const rule = "Bash(git -C /home/someone/projects/pi-permission-hooks commit:*)";
    const request = gitCommitRequest({ detail: FIVE_LINES, highlights: [], grantRule: rule, grantScopes: ["branch", "user"] });
    const prompt = openPrompt(request, { rows: 8, width: 40 });
    prompt.press(KEYS.ctrlT);
    const ROWS = [
      "Bash(git -C",
      "/home/someone/projects/pi-permission",
      "-hooks commit:*)",
      "→ 1. this branch",
      "  2. everywhere",
    ];
    expect(prompt.body(40)).toEqual(["! Authorization required: Git…", ...ROWS]);
    prompt.resize(7);
    expect(prompt.body(40)).toEqual(ROWS);
  });
});
