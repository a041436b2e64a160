import { describe, expect, test } from "bun:test";
import * as present from "../lib/presenter.ts";
import type { PromptOutcome } from "../lib/prompt-overlay.ts";
import { askThroughDialogs, type Dialogs } from "../lib/rpc-prompt.ts";
import { gitCommitRequest } from "./support/prompt-harness.ts";

type Answer = string | undefined;

/** pi's dialogs as an RPC client answers them: each call takes the next scripted answer. */
function client(...answers: Answer[]) {
  const asked: { method: string; title: string; options?: string[]; prefill?: string; timeout?: number }[] = [];
  const notices: string[] = [];
  const next = () => Promise.resolve(answers.shift());
  const ui: Dialogs = {
    select: (title, options, opts) => {
      asked.push({ method: "select", title, options, ...(opts?.timeout === undefined ? {} : { timeout: opts.timeout }) });
      return next();
    },
    editor: (title, prefill) => {
      asked.push({ method: "editor", title, ...(prefill === undefined ? {} : { prefill }) });
      return next();
    },
    input: (title, _placeholder, opts) => {
      asked.push({ method: "input", title, ...(opts?.timeout === undefined ? {} : { timeout: opts.timeout }) });
      return next();
    },
    notify: (message) => void notices.push(message),
  };
  return { ui, asked, notices };
}

const CHOICES = [
  "1. Authorize",
  "2. Edit…",
  "3. Abort",
  "4. Authorize, with a note to the agent…",
  "5. Abort, with a note to the agent…",
  "6. Authorize, don't ask again",
];
const request = gitCommitRequest({ guidance: "Check the message." });
const noTimeout = () => undefined;

function ask(ui: Dialogs, signal = new AbortController().signal, remaining: () => number | undefined = noTimeout) {
  return askThroughDialogs(ui, request, signal, remaining);
}

describe("the select", () => {
  test("its title is the prompt's text, its options every choice, numbered", async () => {
    const { ui, asked } = client("1. Authorize");
    await ask(ui);
    expect(asked).toEqual([
      {
        method: "select",
        title: present.rpcPromptTitle({
          nameOfHook: "Git interference",
          description: "Git staging is reserved for the Approver.",
          guidance: "Check the message.",
          toolName: "bash",
          detail: `git commit -m "$(cat <<'EOF'\nfix wordign in readme\nEOF\n)"`,
        }),
        options: CHOICES,
      },
    ]);
  });

  test("every character of the detail and the Author's labels is visible", async () => {
    const { ui, asked } = client(undefined);
    const hidden = gitCommitRequest({
      detail: "echo \x1b[2Jhi\u202e",
      labels: { authorize: "Go\x07", edit: "Edit", abort: "Stop", dontAsk: "always" },
      editable: false,
    });
    await askThroughDialogs(ui, hidden, new AbortController().signal, noTimeout);
    expect(asked[0]?.title).toEndWith("bash: echo ⟨ESC⟩[2Jhi⟨U+202E⟩");
    expect(asked[0]?.options).toEqual([
      "1. Go⟨U+0007⟩",
      "2. Stop",
      "3. Go⟨U+0007⟩, with a note to the agent…",
      "4. Stop, with a note to the agent…",
      "5. Go⟨U+0007⟩, always",
    ]);
  });

  test("each choice, and cancel", async () => {
    const cases: [Answer, PromptOutcome][] = [
      ["1. Authorize", { kind: "authorize" }],
      ["3. Abort", { kind: "abort" }],
      ["6. Authorize, don't ask again", { kind: "authorize", dontAskAgain: true }],
      [undefined, { kind: "abort" }],
      ["not an option", { kind: "abort" }],
    ];
    for (const [answer, outcome] of cases) expect(await ask(client(answer).ui)).toEqual(outcome);
  });

  test("fail closed: an answer that is none of the options, however close to one, is an Abort", async () => {
    const answers = ["", "Authorize", "1.", "1. authorize", " 1. Authorize", "1. Authorize ", "7. Authorize", "0. Authorize"];
    for (const answer of answers) expect(await ask(client(answer).ui)).toEqual({ kind: "abort" });
    const uneditable = gitCommitRequest({ editable: false });
    const offered = client("2. Edit…");
    expect(await askThroughDialogs(offered.ui, uneditable, new AbortController().signal, noTimeout)).toEqual({ kind: "abort" });
    expect(offered.asked).toHaveLength(1);
  });

  test("the time left goes to the client as the dialog's countdown", async () => {
    const { ui, asked } = client("4. Authorize, with a note to the agent…", "ok");
    let left = 5_000;
    await ask(ui, new AbortController().signal, () => (left -= 1_000));
    expect(asked.map((dialog) => dialog.timeout)).toEqual([4_000, 3_000]);
  });
});

describe("notes", () => {
  test("with a note: the input's text, trimmed; empty is no note", async () => {
    const withNote = client("4. Authorize, with a note to the agent…", "  fine  ");
    expect(await ask(withNote.ui)).toEqual({ kind: "authorize", note: "fine" });
    expect(withNote.asked[1]).toEqual({ method: "input", title: present.rpcNoteTitle("Authorize") });
    expect(await ask(client("5. Abort, with a note to the agent…", "use notes.txt").ui)).toEqual({
      kind: "abort",
      note: "use notes.txt",
    });
    expect(await ask(client("5. Abort, with a note to the agent…", " ").ui)).toEqual({ kind: "abort" });
  });

  test("notation the client types becomes the characters", async () => {
    expect(await ask(client("4. Authorize, with a note to the agent…", "tab⟨TAB⟩here").ui)).toEqual({
      kind: "authorize",
      note: "tab\there",
    });
  });

  test("cancelling the note goes back to the select", async () => {
    const { ui, asked } = client("4. Authorize, with a note to the agent…", undefined, "3. Abort");
    expect(await ask(ui)).toEqual({ kind: "abort" });
    expect(asked.map((dialog) => dialog.method)).toEqual(["select", "input", "select"]);
  });
});

describe("Edit", () => {
  test("the editor holds the command; a changed one and a note make an Edit", async () => {
    const { ui, asked } = client("2. Edit…", 'git commit -m "fix wording"', "reworded");
    expect(await ask(ui)).toEqual({ kind: "edit", command: 'git commit -m "fix wording"', note: "reworded" });
    expect(asked.slice(1)).toEqual([
      { method: "editor", title: present.rpcEditorTitle("Git interference"), prefill: request.detail },
      { method: "input", title: present.rpcNoteTitle("Edit") },
    ]);
  });

  test("the command unchanged is an Authorize", async () => {
    expect(await ask(client("2. Edit…", request.detail, "").ui)).toEqual({ kind: "authorize" });
    expect(await ask(client("2. Edit…", request.detail, "as is").ui)).toEqual({ kind: "authorize", note: "as is" });
  });

  test("the editor shows control characters as notation and turns notation back", async () => {
    const { ui, asked } = client("2. Edit…", "printf 'a⟨TAB⟩b'", "");
    const tabbed = gitCommitRequest({ detail: "printf 'a\tb\x1b'" });
    expect(await askThroughDialogs(ui, tabbed, new AbortController().signal, noTimeout)).toEqual({
      kind: "edit",
      command: "printf 'a\tb'",
    });
    expect(asked[1]?.prefill).toBe("printf 'a⟨TAB⟩b⟨ESC⟩'");
  });

  test("a blank command runs nothing: the client is told, and the select comes back", async () => {
    const { ui, asked, notices } = client("2. Edit…", "  \n", "1. Authorize");
    expect(await ask(ui)).toEqual({ kind: "authorize" });
    expect(notices).toEqual([present.EMPTY_COMMAND_WARNING]);
    expect(asked.map((dialog) => dialog.method)).toEqual(["select", "editor", "select"]);
  });

  test("cancelling the editor or the note goes back to the select", async () => {
    const { ui, asked } = client("2. Edit…", undefined, "2. Edit…", "ls", undefined, "1. Authorize");
    expect(await ask(ui)).toEqual({ kind: "authorize" });
    expect(asked.map((dialog) => dialog.method)).toEqual(["select", "editor", "select", "editor", "input", "select"]);
  });
});

describe("closed from outside", () => {
  test("an aborted signal ends the prompt without an outcome, even while the editor, which pi can't dismiss, is open", async () => {
    const controller = new AbortController();
    const ui: Dialogs = {
      select: () => Promise.resolve("2. Edit…"),
      editor: () => new Promise(() => {}),
      input: () => Promise.resolve(undefined),
      notify: () => {},
    };
    const outcome = askThroughDialogs(ui, request, controller.signal, noTimeout);
    await Promise.resolve();
    controller.abort();
    expect(await outcome).toBeUndefined();
  });

  test("a select dismissed by the signal is no answer", async () => {
    const controller = new AbortController();
    const ui: Dialogs = {
      select: (_title, _options, opts) =>
        new Promise((resolve) => opts?.signal?.addEventListener("abort", () => resolve(undefined))),
      editor: () => Promise.resolve(undefined),
      input: () => Promise.resolve(undefined),
      notify: () => {},
    };
    const outcome = askThroughDialogs(ui, request, controller.signal, noTimeout);
    controller.abort();
    expect(await outcome).toBeUndefined();
  });
});

describe("a call a codemode script made", () => {
  const SCRIPT = 'await tools.bash({ command: "git commit" });\nreturn "\x1b[2J";';
  const fromScript = gitCommitRequest({ origin: present.promptOrigin("codemode"), script: SCRIPT });
  const SHOW = "7. Show the script that made this call…";

  test("the origin under the title; the script one choice away, in a select whose one option goes back", async () => {
    const { ui, asked } = client(SHOW, present.RPC_BACK, "1. Authorize");
    expect(await askThroughDialogs(ui, fromScript, new AbortController().signal, noTimeout)).toEqual({ kind: "authorize" });
    expect(asked[0]?.title).toStartWith(
      "! Authorization required: Git interference\nMade by a codemode script the agent wrote.\n\n",
    );
    expect(asked[0]?.options).toEqual([...CHOICES, SHOW]);
    expect(asked[1]).toEqual({
      method: "select",
      title: present.rpcScriptTitle("Git interference", 'await tools.bash({ command: "git commit" });\nreturn "⟨ESC⟩[2J";'),
      options: [present.RPC_BACK],
    });
    expect(asked.map((dialog) => dialog.method)).toEqual(["select", "select", "select"]);
  });

  test("cancelling the script's select goes back too; closed from outside, it is no answer", async () => {
    const { ui } = client(SHOW, undefined, "3. Abort");
    expect(await askThroughDialogs(ui, fromScript, new AbortController().signal, noTimeout)).toEqual({ kind: "abort" });
    const controller = new AbortController();
    const closing: Dialogs = {
      select: (_title, options) => {
        if (options.includes(present.RPC_BACK)) controller.abort();
        return Promise.resolve(options.includes(SHOW) ? SHOW : present.RPC_BACK);
      },
      editor: () => Promise.resolve(undefined),
      input: () => Promise.resolve(undefined),
      notify: () => {},
    };
    expect(await askThroughDialogs(closing, fromScript, controller.signal, noTimeout)).toBeUndefined();
  });

  test("a call the agent made itself offers no script", async () => {
    const { ui, asked } = client("1. Authorize");
    await ask(ui);
    expect(asked[0]?.options).not.toContain(SHOW);
  });
});

describe("a grant for the rule that asked", () => {
  const RULE = "Bash(git commit:*)";
  const granting = gitCommitRequest({ grantRule: RULE, grantScopes: ["branch", "project", "user"] });
  const GRANT = "7. Authorize, don't ask again for Bash(git commit:*)…";
  const SCOPES = ["1. this branch", "2. this project", "3. everywhere"];

  function askGrant(ui: Dialogs, grantRequest = granting) {
    return askThroughDialogs(ui, grantRequest, new AbortController().signal, noTimeout);
  }

  test("offered after the other choices; then a select of the scopes under the exact rule", async () => {
    const { ui, asked } = client(GRANT, "1. this branch");
    expect(await askGrant(ui)).toEqual({ kind: "authorize", grant: { rule: RULE, scope: "branch" } });
    expect(asked[0]?.options).toEqual([...CHOICES, GRANT]);
    expect(asked[1]).toEqual({
      method: "select",
      title: "! Authorization required: Git interference\n\nAuthorize, and don't ask again for\nBash(git commit:*)",
      options: SCOPES,
    });
  });

  test("each scope", async () => {
    expect(await askGrant(client(GRANT, "2. this project").ui)).toEqual({
      kind: "authorize",
      grant: { rule: RULE, scope: "project" },
    });
    expect(await askGrant(client(GRANT, "3. everywhere").ui)).toEqual({
      kind: "authorize",
      grant: { rule: RULE, scope: "user" },
    });
  });

  test("cancelling the scope, or an answer that is none of them, goes back to the first select", async () => {
    const { ui, asked } = client(GRANT, undefined, GRANT, "4. nowhere", "1. Authorize");
    expect(await askGrant(ui)).toEqual({ kind: "authorize" });
    expect(asked.map((dialog) => dialog.options?.length)).toEqual([7, 3, 7, 3, 7]);
  });

  test("without a rule, or without scopes, no grant is offered; without the project scope, two", async () => {
    const none = client("1. Authorize");
    await askGrant(none.ui, gitCommitRequest({ grantScopes: ["branch", "user"] }));
    expect(none.asked[0]?.options).toEqual(CHOICES);
    const noScopes = client("1. Authorize");
    await askGrant(noScopes.ui, gitCommitRequest({ grantRule: RULE }));
    expect(noScopes.asked[0]?.options).toEqual(CHOICES);
    const two = client(GRANT, "2. everywhere");
    const untrusted = gitCommitRequest({ grantRule: RULE, grantScopes: ["branch", "user"] });
    expect(await askGrant(two.ui, untrusted)).toEqual({ kind: "authorize", grant: { rule: RULE, scope: "user" } });
    expect(two.asked[1]?.options).toEqual(["1. this branch", "2. everywhere"]);
  });

  test("every character of the rule and the labels is visible; the outcome carries the rule as it is", async () => {
    const rule = "Bash(echo '\x1b[2J':*)";
    const { ui, asked } = client("6. Go⟨U+0007⟩, don't ask again for Bash(echo '⟨ESC⟩[2J':*)…", "1. this branch");
    const hidden = gitCommitRequest({
      labels: { authorize: "Go\x07", edit: "Edit", abort: "Stop", dontAsk: "always" },
      editable: false,
      grantRule: rule,
      grantScopes: ["branch"],
    });
    expect(await askGrant(ui, hidden)).toEqual({ kind: "authorize", grant: { rule, scope: "branch" } });
    expect(asked[0]?.options?.at(-1)).toBe("6. Go⟨U+0007⟩, don't ask again for Bash(echo '⟨ESC⟩[2J':*)…");
    expect(asked[1]?.title).toEndWith("\nBash(echo '⟨ESC⟩[2J':*)");
  });

  test("the scope select carries the countdown; closed from outside, it is no answer", async () => {
    const { ui, asked } = client(GRANT, "1. this branch");
    let left = 5_000;
    await askThroughDialogs(ui, granting, new AbortController().signal, () => (left -= 1_000));
    expect(asked.map((dialog) => dialog.timeout)).toEqual([4_000, 3_000]);

    const controller = new AbortController();
    const closing: Dialogs = {
      select: (_title, options) => {
        if (options.includes(SCOPES[0] as string)) controller.abort();
        return Promise.resolve(options.includes(GRANT) ? GRANT : "1. this branch");
      },
      editor: () => Promise.resolve(undefined),
      input: () => Promise.resolve(undefined),
      notify: () => {},
    };
    expect(await askThroughDialogs(closing, granting, controller.signal, noTimeout)).toBeUndefined();
  });
});
