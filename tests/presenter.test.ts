import { describe, expect, test } from "bun:test";
import * as present from "../lib/presenter.ts";
import {
  agentAbort,
  agentAuthorizeNote,
  agentEditNote,
  agentHookBlock,
  agentHookFailure,
  agentNote,
  agentNoUi,
  choiceLine,
  DEFAULT_LABELS,
  displayPath,
  editHints,
  enabledCount,
  externalEditorFailure,
  FAILED_HEADING,
  failureRow,
  hookFailureGuidance,
  hookRow,
  type KeyNames,
  keyName,
  notifyAborted,
  notifyAllSwitched,
  notifyAuthorizedWithNote,
  notifyDontAskAgain,
  notifyEdited,
  notifyHookSwitched,
  notifyInternalError,
  notifyLoadError,
  notifyPiUnavailable,
  notifyUnknownHook,
  PERMISSIONS_TITLE,
  permissionsHints,
  permissionsStatus,
  permissionsSummary,
  plain,
  promptTitle,
  scrollMarker,
  selectHints,
  withNote,
} from "../lib/presenter.ts";
import { DEFAULT_KEY_NAMES } from "./support/key-names.ts";

const HEREDOC = "git commit -m \"$(cat <<'EOF'\nfix: the typo\n\nBody line.\nEOF\n)\"";

describe("agent edit note (the fixed format in docs/design.md)", () => {
  test("without a note: exactly the block", () => {
    // ```text
    // Edited by user via permission hook <hookName>
    //
    // The user edited this command before execution. The command that actually ran:
    // <edited command>
    // ```
    expect(agentEditNote("git commit", "git commit -m 'fixed'")).toBe(
      [
        "Edited by user via permission hook git commit",
        "",
        "The user edited this command before execution. The command that actually ran:",
        "git commit -m 'fixed'",
      ].join("\n"),
    );
  });

  test("with a note: the block, then the additional section", () => {
    // ```text
    // The user also provided context for how to proceed:
    // <note>
    // ```
    expect(agentEditNote("git commit", "git commit -m 'fixed'", "use the imperative mood")).toBe(
      [
        "Edited by user via permission hook git commit",
        "",
        "The user edited this command before execution. The command that actually ran:",
        "git commit -m 'fixed'",
        "",
        "The user also provided context for how to proceed:",
        "use the imperative mood",
      ].join("\n"),
    );
  });

  test("an empty note is omitted entirely", () => {
    expect(agentEditNote("h", "ls", "")).toBe(agentEditNote("h", "ls"));
    expect(agentEditNote("h", "ls", undefined)).not.toContain("also provided");
  });

  test("a multi-line command is carried verbatim", () => {
    expect(agentEditNote("git commit", HEREDOC)).toBe(
      `Edited by user via permission hook git commit\n\nThe user edited this command before execution. The command that actually ran:\n${HEREDOC}`,
    );
  });

  test("agentNote dispatches an edit note", () => {
    expect(agentNote({ kind: "edit", nameOfHook: "h", command: "ls -la" })).toBe(agentEditNote("h", "ls -la"));
    expect(agentNote({ kind: "edit", nameOfHook: "h", command: "ls -la", note: "n" })).toBe(agentEditNote("h", "ls -la", "n"));
  });
});

describe("agent approval and rejection", () => {
  test("approval note", () => {
    expect(agentAuthorizeNote("git push", "push to the fork, not origin")).toBe(
      "Approved by user via permission hook git push\n\nThe user provided context for how to proceed:\npush to the fork, not origin",
    );
  });

  test("agentNote dispatches an approval note", () => {
    expect(agentNote({ kind: "authorize", nameOfHook: "git push", note: "ok" })).toBe(agentAuthorizeNote("git push", "ok"));
  });

  test("rejection without a note: the turn stops", () => {
    expect(agentAbort("git add")).toBe(
      "Blocked by user via permission hook git add. The user stopped this turn; wait for their next message.",
    );
    expect(agentAbort("git add", "")).toBe(agentAbort("git add"));
  });

  test("rejection with a note: the note carries on", () => {
    expect(agentAbort("git add", "stage only src/")).toBe(
      "Blocked by user via permission hook git add.\n\nThe user provided context for how to proceed:\nstage only src/",
    );
  });

  test("hook block", () => {
    expect(agentHookBlock("no git add", "Stage files yourself.")).toBe(
      "Blocked by permission hook no git add: Stage files yourself.",
    );
  });

  test("no UI", () => {
    expect(agentNoUi("git commit")).toBe(
      "Blocked by permission hook git commit: it asks the user to approve this call, and no UI is available to ask.",
    );
  });

  test("hook failure without UI", () => {
    expect(agentHookFailure("git commit", "x is not defined")).toBe(
      "Blocked because permission hook git commit failed (x is not defined) and no UI is available to ask the user.",
    );
  });
});

describe("withNote", () => {
  test("note, blank line, then the tool output", () => {
    expect(withNote("NOTE", "output\nline 2")).toBe("NOTE\n\noutput\nline 2");
  });

  test("no output: just the note", () => {
    expect(withNote("NOTE", "")).toBe("NOTE");
  });

  test("output that is only whitespace is still output", () => {
    expect(withNote("NOTE", "\n")).toBe("NOTE\n\n\n");
  });

  test("composed with an edit note", () => {
    expect(withNote(agentEditNote("h", "echo hi"), "hi")).toBe(
      "Edited by user via permission hook h\n\nThe user edited this command before execution. The command that actually ran:\necho hi\n\nhi",
    );
  });
});

describe("notifications", () => {
  test("approved with note", () => {
    expect(notifyAuthorizedWithNote("git push")).toBe("Authorized (git push); your note goes to the agent with the result.");
  });

  test("edited", () => {
    expect(notifyEdited("git commit")).toBe("Ran your edited command (git commit); the agent is told what really ran.");
  });

  test("rejected with and without note", () => {
    expect(notifyAborted("git add", true)).toBe("Aborted (git add); your note goes to the agent.");
    expect(notifyAborted("git add", false)).toBe("Aborted (git add); the turn stops.");
  });

  test("load error", () => {
    expect(notifyLoadError("/home/u/.pi/agent/permissions/bad.ts", "Unexpected end of file")).toBe(
      "Permission module /home/u/.pi/agent/permissions/bad.ts failed to load: Unexpected end of file",
    );
  });

  test("internal error", () => {
    expect(notifyInternalError("checking a tool call", "boom")).toBe("pi-permission-hooks: checking a tool call failed: boom");
  });

  test("pi's own packages unavailable", () => {
    expect(notifyPiUnavailable("missing Editor")).toBe(
      "pi-permission-hooks can't use this pi's own packages (missing Editor), so it blocks every tool call.",
    );
  });
});

describe("the prompt", () => {
  test("title", () => {
    expect(promptTitle("git commit")).toBe("! Authorization required: git commit");
  });

  test("hook failure guidance", () => {
    expect(hookFailureGuidance("did not decide within 10 s")).toBe(
      "This hook failed while deciding (did not decide within 10 s), so you are asked instead.",
    );
  });

  test("choice lines: 1-based, arrow on the selected one, aligned otherwise", () => {
    expect(choiceLine(0, "Authorize", true)).toBe("→ 1. Authorize");
    expect(choiceLine(0, "Authorize", false)).toBe("  1. Authorize");
    expect(choiceLine(1, "Edit", true)).toBe("→ 2. Edit");
    expect(choiceLine(2, "Abort", false)).toBe("  3. Abort");
    expect(choiceLine(2, "Nope", true)).toBe("→ 3. Nope");
  });

  test("external editor failure", () => {
    expect(externalEditorFailure("vim exited with code 1")).toBe(
      "External editor failed: vim exited with code 1; nothing changed.",
    );
  });

  test("scroll markers, singular and plural", () => {
    expect(scrollMarker("up", 1)).toBe("↑ 1 more line");
    expect(scrollMarker("down", 1)).toBe("↓ 1 more line");
    expect(scrollMarker("up", 12)).toBe("↑ 12 more lines");
    expect(scrollMarker("down", 2)).toBe("↓ 2 more lines");
    expect(scrollMarker("down", 0)).toBe("↓ 0 more lines");
  });
});

describe("hints", () => {
  const DEFAULT_KEYS = DEFAULT_KEY_NAMES;
  const DONT_ASK = DEFAULT_LABELS.dontAsk;

  test("select hints as [key, action] pairs: the spec's five, then don't ask again", () => {
    expect(selectHints(DEFAULT_KEYS, DONT_ASK)).toEqual([
      ["↑↓", "select"],
      ["enter", "confirm"],
      ["tab", "add note"],
      ["shift+tab", "close"],
      ["esc", "abort"],
      ["ctrl+s", "don't ask again"],
    ]);
    expect(selectHints(DEFAULT_KEYS, "trust it").at(-1)).toEqual(["ctrl+s", "trust it"]);
  });

  test("the user's remapped keys show up", () => {
    const keys: KeyNames = {
      up: "k",
      down: "j",
      confirm: "ctrl+m",
      submit: "ctrl+enter",
      newLine: "enter",
      tab: "ctrl+i",
      cancel: "ctrl+c",
      external: "ctrl+e",
      dontAsk: "ctrl+s",
    };
    expect(selectHints(keys, DONT_ASK)).toEqual([
      ["k/j", "select"],
      ["ctrl+m", "confirm"],
      ["ctrl+i", "add note"],
      ["shift+tab", "close"],
      ["ctrl+c", "abort"],
      ["ctrl+s", "don't ask again"],
    ]);
    expect(editHints(keys)).toEqual([
      [
        ["ctrl+enter", "run"],
        ["enter", "newline"],
        ["ctrl+i", "switch field"],
      ],
      [
        ["ctrl+e", "external editor"],
        ["ctrl+r", "restore command"],
        ["ctrl+c", "back"],
      ],
    ]);
  });

  test("arrows read as ↑↓ only when both are the arrow keys", () => {
    expect(selectHints({ ...DEFAULT_KEYS, up: "k" }, DONT_ASK)[0]).toEqual(["k/↓", "select"]);
    expect(selectHints({ ...DEFAULT_KEYS, down: "ctrl+n" }, DONT_ASK)[0]).toEqual(["↑/ctrl+n", "select"]);
  });

  test("edit hints: two groups, each starting a line", () => {
    expect(editHints(DEFAULT_KEYS)).toEqual([
      [
        ["enter", "run"],
        ["shift+enter", "newline"],
        ["tab", "switch field"],
      ],
      [
        ["ctrl+g", "external editor"],
        ["ctrl+r", "restore command"],
        ["esc", "back"],
      ],
    ]);
  });

  test("the plain paint changes nothing", () => {
    expect(plain.fg("warning", "text")).toBe("text");
    expect(plain.bold("text")).toBe("text");
  });
});

describe("styling enters only at the edge", () => {
  test("no text function emits escape sequences or markup of its own", () => {
    const texts = [
      agentEditNote("h", "c", "n"),
      agentAuthorizeNote("h", "n"),
      agentAbort("h"),
      agentAbort("h", "n"),
      agentHookBlock("h", "r"),
      agentNoUi("h"),
      agentHookFailure("h", "e"),
      notifyAuthorizedWithNote("h"),
      notifyEdited("h"),
      notifyAborted("h", true),
      notifyAborted("h", false),
      notifyLoadError("f", "e"),
      notifyInternalError("w", "e"),
      promptTitle("h"),
      hookFailureGuidance("e"),
      choiceLine(0, "l", true),
      scrollMarker("up", 3),
      externalEditorFailure("r"),
      ...selectHints(DEFAULT_KEY_NAMES, "d").flat(),
    ];
    for (const text of texts) {
      expect(text).not.toContain("\x1b");
      expect(text).not.toMatch(/<\/?[a-z]+>/);
    }
  });

  test("what the Author or agent wrote is passed through unchanged (no escaping, no styling)", () => {
    expect(agentHookBlock("h<dim>", "a\x1b[31mb")).toBe("Blocked by permission hook h<dim>: a\x1b[31mb");
    expect(promptTitle("")).toBe("! Authorization required: ");
  });
});

describe("keyName", () => {
  test.each([
    [undefined, "esc", "esc"],
    ["", "tab", "tab"],
    ["escape", "x", "esc"],
    ["up", "x", "↑"],
    ["down", "x", "↓"],
    ["ctrl+g", "x", "ctrl+g"],
    ["k", "x", "k"],
    ["enter", "x", "enter"],
    ["shift+up", "x", "shift+up"],
    ["ctrl+escape", "x", "ctrl+escape"],
    ["pageUp", "x", "pageUp"],
  ])("keyName(%j, %j) → %j", (id, fallback, shown) => {
    expect(keyName(id, fallback)).toBe(shown);
  });
});

describe("managing hooks", () => {
  test("footer status: enabled of loaded; none without hooks", () => {
    expect(permissionsStatus(3, 4)).toBe("permissions 3/4");
    expect(permissionsStatus(0, 1)).toBe("permissions 0/1");
    expect(permissionsStatus(0, 0)).toBeUndefined();
  });

  test("don't ask again says how to undo it", () => {
    expect(notifyDontAskAgain("git commit")).toBe(
      "Authorized; git commit won't ask again on this branch. /permissions enable git commit turns it back on.",
    );
  });

  test("switching one hook, or all", () => {
    expect(notifyHookSwitched("git add", false)).toBe(
      "Permission hook git add is off for this branch; /permissions enable git add turns it back on.",
    );
    expect(notifyHookSwitched("git add", true)).toBe("Permission hook git add is on.");
    expect(notifyAllSwitched(false, "alt+p")).toBe("All permission hooks are off for this branch; alt+p turns them back on.");
    expect(notifyAllSwitched(false, "/permissions enable")).toBe(
      "All permission hooks are off for this branch; /permissions enable turns them back on.",
    );
    expect(notifyAllSwitched(true, "alt+p")).toBe("All permission hooks are on.");
  });

  test("command texts", () => {
    expect(notifyUnknownHook("git pus", ["git add", "git push"])).toBe(
      'No permission hook is named "git pus". Loaded: git add, git push.',
    );
  });

  test("the list: title, count, rows, failures, hints", () => {
    expect(PERMISSIONS_TITLE).toBe("Permission hooks");
    expect(enabledCount(3, 4)).toBe("3 of 4 on");
    expect(hookRow("git add", true, true)).toBe("→ [x] git add");
    expect(hookRow("git add", false, false)).toBe("  [ ] git add");
    expect(FAILED_HEADING).toBe("Failed to load");
    expect(failureRow("~/x.ts")).toBe("  ✗ ~/x.ts");
    expect(permissionsHints(DEFAULT_KEY_NAMES)).toEqual([
      ["↑↓", "move"],
      ["space", "toggle"],
      ["g", "toggle all"],
      ["enter", "save"],
      ["esc", "close"],
    ]);
  });

  test("paths under home read as ~", () => {
    expect(displayPath("/home/u/.pi/agent/permissions/x.ts", "/home/u")).toBe("~/.pi/agent/permissions/x.ts");
    expect(displayPath("/home/u/.pi/x.ts", "/home/u/")).toBe("~/.pi/x.ts");
    expect(displayPath("/home/user2/x.ts", "/home/u")).toBe("/home/user2/x.ts");
    expect(displayPath("/srv/x.ts", "/home/u")).toBe("/srv/x.ts");
    expect(displayPath("/x.ts", "/")).toBe("/x.ts");
    expect(displayPath("C:\\Users\\u\\p\\x.ts", "C:\\Users\\u")).toBe("~\\p\\x.ts");
  });

  test("the list as text, without the TUI", () => {
    expect(
      permissionsSummary(
        [
          { name: "git add", enabled: true, scope: "user", source: "/a/git.ts" },
          { name: "rm", enabled: false, scope: "project", source: "/p/rm.ts" },
        ],
        [{ file: "/a/bad.ts", error: "boom" }],
      ),
    ).toBe(
      [
        "Permission hooks (1 of 2 on):",
        "  [x] git add (user) /a/git.ts",
        "  [ ] rm (project) /p/rm.ts",
        "Failed to load:",
        "  ✗ /a/bad.ts: boom",
      ].join("\n"),
    );
    expect(permissionsSummary([], [])).toBe("No permission hooks are loaded.");
  });
});

describe("reasons, warnings and tool details", () => {
  test("exact texts", () => {
    expect(present.agentInternalError("boom")).toBe(
      "Blocked: pi-permission-hooks could not check this call (boom), so it did not run.",
    );
    expect(present.notifyPromptWaiting("Git")).toBe("A permission prompt (Git) is waiting for the open dialog to close.");
    expect(present.notifyLoadWarning("/p/a.ts", "w")).toBe("Permission module /p/a.ts: w");
    expect(present.problems.duplicateHookName("x")).toBe('hook name "x" is already taken; both hooks run');
    expect(present.problems.notLoadedWithin(10)).toBe("did not load within 10 s");
    expect(present.problems.notDecidedWithin(10)).toBe("did not decide within 10 s");
    expect(present.problems.notADecision('"maybe"')).toBe('returned "maybe", not a decision');
    expect(present.problems.editorNotFound("vim")).toBe("vim: command not found");
    expect(present.problems.editorExited("vim -f", 2)).toBe("vim -f exited with code 2");
    expect(present.problems.notEditable("read")).toBe("an edited command can't be given to the read tool");
    expect(present.problems.outcomeNotUnderstood('{"kind":"later"}')).toBe(
      'the prompt answered {"kind":"later"}, which is not an outcome',
    );
    expect(present.readDetail("a.ts", 10, 5)).toBe("a.ts (lines 10-14)");
    expect(present.readDetail("a.ts", 10, undefined)).toBe("a.ts (from line 10)");
    expect(present.readDetail("a.ts", undefined, undefined)).toBe("a.ts");
    expect(present.writeDetail("a.ts", 1)).toBe("a.ts (1 line)");
    expect(present.writeDetail("a.ts", 0)).toBe("a.ts (0 lines)");
    expect(present.editDetail("a.ts", 2, false)).toBe("a.ts (2 replacements)");
    expect(present.editDetail("a.ts", 1, true)).toBe("a.ts (replace all)");
    expect(present.searchDetail("TODO", "src")).toBe("TODO in src");
    expect(present.searchDetail("TODO", undefined)).toBe("TODO");
  });
});

describe("texts that had no exact test", () => {
  test("project trust", () => {
    expect(present.projectTrustTitle()).toBe("Trust this project's permission modules?");
    expect(present.projectTrustQuestion("/p/.pi/permissions")).toBe(
      "/p/.pi/permissions holds permission modules. They run as code with your permissions. Load them, and trust this project from now on?",
    );
    expect(present.notifyProjectModulesSkipped("/p/.pi/permissions")).toBe(
      "Permission modules in /p/.pi/permissions were not loaded: this project is not trusted.",
    );
  });

  test("where an internal failure happened", () => {
    expect(present.notifyInternalError(present.DURING.load, "boom")).toBe(
      "pi-permission-hooks: loading permission modules failed: boom",
    );
  });
});

describe("calls a codemode script makes, and MCP tools", () => {
  test("a relayed note names the agent's call, the call, its arguments, then the note unchanged", () => {
    const edit = present.agentEditNote("git commit", "git commit -qam 'fix wording'", "keep it short");
    expect(present.agentNestedNote("codemode", "bash", "git commit -qam 'fix wordign'", edit)).toBe(
      `Note on a call made by your codemode call: bash
git commit -qam 'fix wordign'

Edited by user via permission hook git commit

The user edited this command before execution. The command that actually ran:
git commit -qam 'fix wording'

The user also provided context for how to proceed:
keep it short`,
    );
    expect(present.agentNestedNote("codemode", "mcp__notes__add", '{"text":"milk"}', "N")).toBe(
      'Note on a call made by your codemode call: mcp__notes__add\n{"text":"milk"}\n\nN',
    );
  });

  test("an Abort's note is the rejection as for a direct call", () => {
    expect(present.agentNote({ kind: "abort", nameOfHook: "h" })).toBe(present.agentAbort("h"));
    expect(present.agentNote({ kind: "abort", nameOfHook: "h", note: "n" })).toBe(present.agentAbort("h", "n"));
  });

  test("where a call comes from, in the prompt", () => {
    expect(present.promptOrigin("codemode")).toBe("Made by a codemode script the agent wrote.");
    expect(present.promptOrigin("batch")).toBe("Made by the agent's batch call.");
    expect(present.promptOrigin("")).toBe("Made by another tool call, not by the agent directly.");
  });

  test("a call answered after its script ended", () => {
    expect(present.notifyParentEnded("Gate", "codemode")).toBe(
      "Not run (Gate): the codemode script that made this call had already ended.",
    );
    expect(present.notifyParentEnded("Gate", "batch")).toBe(
      "Not run (Gate): the batch call that made this call had already ended.",
    );
    expect(present.agentParentEnded("")).toBe("Blocked: the tool call that made this call had already ended.");
  });

  test("an MCP call's detail: server and tool, then each argument on its own line", () => {
    expect(present.mcpDetail("notes", "add", [])).toBe("MCP server notes, tool add");
    expect(
      present.mcpDetail("notes", "add", [
        ["body", { lines: "one\ntwo" }],
        ["n", { json: "3" }],
      ]),
    ).toBe("MCP server notes, tool add\n  body: |\n    one\n    two\n  n: 3");
  });
});

describe("RPC clients", () => {
  test("the select's title: the prompt's parts, blank ones left out", () => {
    expect(
      present.rpcPromptTitle({ nameOfHook: "Git", description: "Asks.", guidance: " ", toolName: "bash", detail: "git commit" }),
    ).toBe("! Authorization required: Git\n\nAsks.\n\nbash: git commit");
    expect(present.rpcPromptTitle({ nameOfHook: "Git", toolName: "bash", detail: "ls" })).toBe(
      "! Authorization required: Git\n\nbash: ls",
    );
  });

  test("choices, the editor and the note", () => {
    expect(present.rpcChoice.numbered(1, present.rpcChoice.edit("Edit"))).toBe("2. Edit…");
    expect(present.rpcChoice.withNote("Abort")).toBe("Abort, with a note to the agent…");
    expect(present.rpcChoice.dontAsk("Authorize", "don't ask again")).toBe("Authorize, don't ask again");
    expect(present.rpcEditorTitle("Git")).toBe("Edit the command (Git); it runs as you leave it.");
    expect(present.rpcNoteTitle("Abort")).toBe("Note to agent with Abort; leave it empty for none.");
  });

  test("the script that made the call, one choice away", () => {
    expect(present.rpcChoice.script).toBe("Show the script that made this call…");
    expect(present.rpcScriptTitle("Git", "await tools.bash({ command: 'ls' });\nreturn 1;")).toBe(
      "! Authorization required: Git\n\nscript: await tools.bash({ command: 'ls' });\nreturn 1;",
    );
    expect(present.RPC_BACK).toBe("Back to the choices");
  });
});

describe("the fail-safe timeout", () => {
  test("the agent's reason and the Approver's notice", () => {
    expect(present.agentTimedOut("Git")).toBe(
      "Blocked by permission hook Git: nobody answered its prompt in time, so the call did not run. The turn stopped; wait for the user's next message.",
    );
    expect(present.notifyTimedOut("Git", 300)).toBe(
      "Nobody answered the permission prompt (Git) within 300 s: the call was aborted and the turn stopped.",
    );
  });
});

describe("attention", () => {
  test("the notification's title and text", () => {
    expect(present.ATTENTION_TITLE).toBe("pi: permission needed");
    expect(present.attentionMessage("Git", "bash")).toBe("Git asks you to approve a bash call.");
  });
});

describe("the decision log", () => {
  const time = new Date(2026, 0, 2, 3, 4, 5).toISOString();
  const decision = { time, hook: "Git", tool: "bash", detail: "git commit -m x", note: false } as const;

  test("one line per decision: local time, outcome, who, hook, tool and command", () => {
    expect(present.decisionLine({ ...decision, outcome: "authorize", by: "approver" })).toBe(
      "03:04:05  Authorized (by you)  Git  bash: git commit -m x",
    );
    expect(present.decisionLine({ ...decision, outcome: "authorize", by: "approver", note: true, dontAskAgain: true })).toBe(
      "03:04:05  Authorized (by you, with a note, don't ask again)  Git  bash: git commit -m x",
    );
    expect(present.decisionLine({ ...decision, outcome: "edit", edited: "git commit -m y", by: "approver" })).toBe(
      "03:04:05  Edited (by you)  Git  bash: git commit -m x → git commit -m y",
    );
    expect(present.decisionLine({ ...decision, outcome: "abort", by: "timeout" })).toBe(
      "03:04:05  Aborted (nobody answered)  Git  bash: git commit -m x",
    );
    expect(present.decisionLine({ ...decision, outcome: "block", by: "hook" })).toBe(
      "03:04:05  Blocked (by the hook)  Git  bash: git commit -m x",
    );
    expect(present.decisionLine({ ...decision, outcome: "block", by: "no UI" })).toBe(
      "03:04:05  Blocked (no UI to ask)  Git  bash: git commit -m x",
    );
    expect(present.decisionLine({ ...decision, outcome: "block", by: "script ended" })).toBe(
      "03:04:05  Blocked (its script had ended)  Git  bash: git commit -m x",
    );
    expect(present.decisionLine({ ...decision, outcome: "block", by: "turn stopped" })).toBe(
      "03:04:05  Blocked (the turn was stopped)  Git  bash: git commit -m x",
    );
  });

  test("a long or multi-line command shows its first line, cut at 80 characters", () => {
    const line = (detail: string) => present.decisionLine({ ...decision, detail, outcome: "block", by: "hook" });
    expect(line("cat <<EOF\nbody\nEOF")).toBe("03:04:05  Blocked (by the hook)  Git  bash: cat <<EOF …");
    expect(line("x".repeat(81))).toBe(`03:04:05  Blocked (by the hook)  Git  bash: ${"x".repeat(80)}…`);
    expect(line("x".repeat(80))).toBe(`03:04:05  Blocked (by the hook)  Git  bash: ${"x".repeat(80)}`);
  });

  test("the log: a heading, the latest 50", () => {
    expect(present.decisionLog([])).toBe("No permission decisions on this branch yet.");
    const one = { ...decision, outcome: "block", by: "hook" } as const;
    expect(present.decisionLog([one])).toBe(`Permission decisions on this branch (1):\n  ${present.decisionLine(one)}`);
    const many = present.decisionLog(Array.from({ length: 51 }, (_, index) => ({ ...one, hook: `h${index}` })));
    expect(many.split("\n")[0]).toBe("Permission decisions on this branch (the latest 50 of 51):");
    expect(many.split("\n").slice(1, 2)).toEqual([`  ${present.decisionLine({ ...one, hook: "h1" })}`]);
    expect(many.split("\n")).toHaveLength(51);
  });

  test("the audit file failing", () => {
    expect(present.notifyAuditFileFailed("/a.jsonl", "EACCES")).toBe(
      "The permission audit file /a.jsonl could not be written (EACCES); decisions are still recorded in the session.",
    );
  });

  test("/permissions log in the usage and completion", () => {
    expect(present.PERMISSIONS_USAGE).toBe(
      "Usage: /permissions  |  /permissions enable [hook]  |  /permissions disable [hook]  |  /permissions log  |  /permissions test <command> | <tool> <JSON>  |  /permissions grant <rule> [--project | --user]  |  /permissions revoke <rule>  |  /permissions new <name> [--project]",
    );
    expect(present.SUBCOMMAND_DESCRIPTIONS.log).toBe("Show this branch's permission decisions");
  });
});

describe("settings", () => {
  test("what is wrong with a setting", () => {
    const file = "/home/me/.pi/agent/settings.json";
    expect(present.notifySettingInvalid(file, "timeoutSeconds", present.settingProblems.seconds)).toBe(
      `${file}: "permissionHooks.timeoutSeconds" must be a whole number of seconds, at least 1; ignored.`,
    );
    expect(present.notifySettingInvalid(file, undefined, present.settingProblems.notAnObject)).toBe(
      `${file}: "permissionHooks" must be an object; ignored.`,
    );
    expect(present.settingProblems.oneOf(["auto", "off"])).toBe('must be one of "auto", "off"');
    expect(present.settingProblems.unknown).toBe("is not a setting");
    expect(present.settingProblems.path).toBe('must be an absolute path or start with "~/"');
    expect(present.DURING.settings).toBe("reading settings");
  });
});
