import { beforeEach, describe, expect, test } from "bun:test";
import { Enablement } from "../lib/enablement.ts";
import { Gatekeeper } from "../lib/gatekeeper.ts";
import * as present from "../lib/presenter.ts";
import type { PromptOutcome } from "../lib/prompt-overlay.ts";
import {
  bashCall,
  bashResult,
  codemodeMessage,
  codemodeResult,
  fakeApprover,
  fakeSession,
  nestedBashCall,
  nestedBashResult,
  useAgentDir,
} from "./support/fake-session.ts";

// "Ask" asks about every call; "Commit" blocks commits; "Other" asks about `other`, after Ask.
useAgentDir({
  "0-labels.js": `export default (api) => api.onToolUse({
  name: "Labels",
  handler: ({ tool }) =>
    (tool.command === "labels" && api.request({ authorizeLabel: "Go", editLabel: "Fix", abortLabel: "Stop", dontAskLabel: "trust it" })) ||
    (tool.command === "old labels" && api.request({ approveLabel: "Yes", rejectLabel: "No" })),
});`,
  "0-parent.js": `export default (api) => api.onToolUse({
  name: "Parent",
  handler: ({ tool, parent }) => tool.command === "who made me" && api.block(JSON.stringify(parent ?? null)),
});`,
  "a-commit.js": `export default (api) => api.onToolUse({
  name: "Commit",
  handler: ({ tool }) => tool.name === "bash" && tool.command.startsWith("git commit") && api.block("no commits"),
});`,
  "b-ask.js": `export default (api) => api.onToolUse({
  name: "Ask",
  description: "Asks about every command.",
  handler: () => api.request({ guidance: "Look closely.", highlight: "rm" }),
});`,
  "c-other.js": `export default (api) => api.onToolUse({
  name: "Other",
  handler: ({ tool }) => tool.name === "bash" && tool.command === "other" && api.request(),
});`,
});

let session: ReturnType<typeof fakeSession>;
let approver: ReturnType<typeof fakeApprover>;
let entries: unknown[];
let gatekeeper: Gatekeeper;

beforeEach(async () => {
  session = fakeSession();
  approver = fakeApprover();
  entries = [];
  gatekeeper = new Gatekeeper(new Enablement({ appendEntry: (_type, data) => entries.push(data) }), approver.show);
  gatekeeper.load(session.ctx);
  await gatekeeper.loaded();
});

function call(id: string, command: string) {
  return gatekeeper.onToolCall(bashCall(id, command), session.ctx);
}

async function answerNext(outcome: PromptOutcome) {
  const prompt = await approver.next();
  prompt.answer(outcome);
  return prompt;
}

describe("one call", () => {
  test("the prompt carries the deciding hook's request", async () => {
    const result = call("c1", "rm -r build");
    const prompt = await answerNext({ kind: "authorize" });
    expect(await result).toBeUndefined();
    expect(prompt.request).toEqual({
      nameOfHook: "Ask",
      description: "Asks about every command.",
      guidance: "Look closely.",
      toolName: "bash",
      detail: "rm -r build",
      highlights: [{ start: 0, end: 2 }],
      labels: { authorize: "Authorize", edit: "Edit", abort: "Abort", dontAsk: "don't ask again" },
      editable: true,
    });
  });

  test("the Author's labels, under the outcome names or the first release's", async () => {
    const labels = [];
    for (const command of ["labels", "old labels"]) {
      const result = call("c1", command);
      labels.push((await answerNext({ kind: "authorize" })).request.labels);
      await result;
    }
    expect(labels).toEqual([
      { authorize: "Go", edit: "Fix", abort: "Stop", dontAsk: "trust it" },
      { authorize: "Yes", edit: "Edit", abort: "No", dontAsk: "don't ask again" },
    ]);
  });

  test("a hook's block needs no prompt", async () => {
    expect(await call("c1", "git commit -m x")).toEqual({
      block: true,
      reason: present.agentHookBlock("Commit", "no commits"),
    });
    expect(approver.asked).toHaveLength(0);
  });

  test("without a UI, or in a mode with nobody to ask (JSON), a request blocks naming the hook", async () => {
    for (const ctx of [fakeSession({ hasUI: false }).ctx, fakeSession({ mode: "json" }).ctx]) {
      expect(await gatekeeper.onToolCall(bashCall("c1", "ls"), ctx)).toEqual({
        block: true,
        reason: present.agentNoUi("Ask"),
      });
    }
    expect(approver.asked).toHaveLength(0);
  });

  test("Authorize with a note: the note rides on that call's result only", async () => {
    const result = call("c1", "ls");
    await answerNext({ kind: "authorize", note: "fine" });
    expect(await result).toBeUndefined();
    expect(gatekeeper.onToolResult(bashResult("c2", "other output"))).toBeUndefined();
    expect(gatekeeper.onToolResult(bashResult("c1", "a b"))).toEqual({
      content: [{ type: "text", text: present.withNote(present.agentAuthorizeNote("Ask", "fine"), "a b") }],
    });
    expect(gatekeeper.onToolResult(bashResult("c1", "a b"))).toBeUndefined();
    expect(session.notices).toEqual([present.notifyAuthorizedWithNote("Ask")]);
  });

  test("a note not consumed by the end of the turn is dropped", async () => {
    const result = call("c1", "ls");
    await answerNext({ kind: "authorize", note: "fine" });
    await result;
    gatekeeper.onTurnEnd(session.ctx);
    expect(gatekeeper.onToolResult(bashResult("c1", "a b"))).toBeUndefined();
  });

  test("Edit writes the command back into the call, and the agent gets the edit note", async () => {
    const event = bashCall("c1", "rm -r build");
    const result = gatekeeper.onToolCall(event, session.ctx);
    await answerNext({ kind: "edit", command: "rm -r build/tmp", note: "only tmp" });
    expect(await result).toBeUndefined();
    expect(event.input).toEqual({ command: "rm -r build/tmp" });
    expect(gatekeeper.onToolResult(bashResult("c1", ""))).toEqual({
      content: [{ type: "text", text: present.agentEditNote("Ask", "rm -r build/tmp", "only tmp") }],
    });
    expect(session.notices).toEqual([present.notifyEdited("Ask")]);
  });

  test("an outcome the gatekeeper does not understand blocks the call", async () => {
    const result = call("c1", "ls");
    await answerNext({ kind: "later" } as unknown as PromptOutcome);
    expect(await result).toEqual({
      block: true,
      reason: present.agentInternalError(present.problems.outcomeNotUnderstood('{"kind":"later"}')),
    });
  });

  test("an Edit of a call that has no command to edit blocks it", async () => {
    const event = { type: "tool_call", toolCallId: "c1", toolName: "read", input: { path: "a" } } as const;
    const result = gatekeeper.onToolCall(event, session.ctx);
    await answerNext({ kind: "edit", command: "ls" });
    expect(await result).toEqual({ block: true, reason: present.agentInternalError(present.problems.notEditable("read")) });
    expect(event.input).toEqual({ path: "a" });
  });
});

describe("queued prompts", () => {
  test("shown one at a time, in the order the calls asked, each answer on its own call", async () => {
    const first = call("c1", "one");
    const second = call("c2", "two");
    const shownFirst = await approver.next();
    expect(approver.asked.map((prompt) => prompt.request.detail)).toEqual(["one"]);
    shownFirst.answer({ kind: "abort", note: "not this one" });
    await answerNext({ kind: "authorize" });
    expect(await first).toEqual({ block: true, reason: present.agentAbort("Ask", "not this one") });
    expect(await second).toBeUndefined();
    expect(approver.asked.map((prompt) => prompt.request.detail)).toEqual(["one", "two"]);
    expect(session.aborts).toBe(0);
  });

  test("Abort without a note stops the turn: queued prompts never show, later calls are blocked, the turn ends", async () => {
    const first = call("c1", "one");
    const second = call("c2", "two");
    await answerNext({ kind: "abort" });
    expect(await first).toEqual({ block: true, reason: present.agentAbort("Ask") });
    expect(await second).toEqual({ block: true, reason: present.agentAbort("Ask") });
    expect(await call("c3", "three")).toEqual({ block: true, reason: present.agentAbort("Ask") });
    expect(approver.asked).toHaveLength(1);
    expect(session.notices).toEqual([present.notifyAborted("Ask", false)]);

    expect(session.aborts).toBe(0);
    gatekeeper.onTurnEnd(session.ctx);
    expect(session.aborts).toBe(1);
    gatekeeper.onTurnEnd(session.ctx);
    expect(session.aborts).toBe(1);

    const nextTurn = call("c4", "four");
    await answerNext({ kind: "authorize" });
    expect(await nextTurn).toBeUndefined();
  });

  test("don't ask again while another prompt of the same hook waits: that one is not shown, the next hook decides", async () => {
    const first = call("c1", "one");
    const second = call("c2", "other");
    await answerNext({ kind: "authorize", dontAskAgain: true });
    expect(await first).toBeUndefined();
    expect(entries).toEqual([{ disabled: ["Ask"] }]);
    const byOther = await approver.next();
    expect(byOther.request.nameOfHook).toBe("Other");
    byOther.answer({ kind: "authorize" });
    expect(await second).toBeUndefined();
    expect(await call("c3", "three")).toBeUndefined();
    expect(approver.asked.map((prompt) => prompt.request.nameOfHook)).toEqual(["Ask", "Other"]);
    expect(session.notices).toEqual([present.notifyDontAskAgain("Ask")]);
  });

  test("an interrupted turn: the open prompt closes as blocked, queued ones never show", async () => {
    const first = call("c1", "one");
    const second = call("c2", "two");
    const open = await approver.next();
    session.interrupt();
    open.answer({ kind: "abort" });
    expect(await first).toEqual({ block: true, reason: present.agentAbort("Ask") });
    expect(await second).toEqual({ block: true, reason: present.agentAbort("Ask") });
    expect(approver.asked).toHaveLength(1);
    expect(session.notices).toEqual([]);
  });
});

describe("the session closes during a prompt", () => {
  test("the open prompt is cancelled, queued ones never show, no call runs, nothing is said", async () => {
    const first = call("c1", "one");
    const second = call("c2", "two");
    const open = await approver.next();
    gatekeeper.close();
    expect(open.cancelled).toBe(true);
    expect(await first).toEqual({ block: true, reason: present.agentAbort("Ask") });
    expect(await second).toEqual({ block: true, reason: present.agentAbort("Ask") });
    expect(approver.asked).toHaveLength(1);
    expect(session.notices).toEqual([]);
    expect(session.aborts).toBe(0);
  });

  test("a note given before the close never reaches a result after it", async () => {
    const result = call("c1", "ls");
    await answerNext({ kind: "authorize", note: "fine" });
    await result;
    gatekeeper.close();
    expect(gatekeeper.onToolResult(bashResult("c1", "a b"))).toBeUndefined();
  });
});

describe("calls a codemode script makes (pi 1.x nested calls)", () => {
  const SCRIPT = 'await tools.bash({ command: "rm -r build" });';

  beforeEach(() => {
    session = fakeSession({ branch: [codemodeMessage("cm", SCRIPT)] });
  });

  function nested(id: string, command: string, parent = "cm") {
    return gatekeeper.onToolCall(nestedBashCall(id, parent, command), session.ctx);
  }

  test("hooks learn which call of the agent's made the call, and the prompt says so", async () => {
    expect(await nested("cm/1", "who made me")).toEqual({
      block: true,
      reason: present.agentHookBlock("Parent", JSON.stringify({ name: "codemode", toolCallId: "cm", input: { code: SCRIPT } })),
    });
    expect(await call("c1", "who made me")).toEqual({ block: true, reason: present.agentHookBlock("Parent", "null") });
    const result = nested("cm/2", "ls");
    const prompt = await answerNext({ kind: "authorize" });
    await result;
    expect(prompt.request.origin).toBe(present.promptOrigin("codemode"));
    const direct = call("c2", "ls");
    expect((await answerNext({ kind: "authorize" })).request.origin).toBeUndefined();
    await direct;
  });

  test("a call made by a call the script made belongs to the agent's call at the root", async () => {
    gatekeeper.onToolCall({ ...bashCall("cm/1", "inner"), parentToolCallId: "cm" } as never, session.ctx);
    await answerNext({ kind: "authorize" });
    const result = nested("cm/1/1", "who made me", "cm/1");
    expect(await result).toEqual({
      block: true,
      reason: present.agentHookBlock("Parent", JSON.stringify({ name: "codemode", toolCallId: "cm", input: { code: SCRIPT } })),
    });
  });

  test("Edit with a note: the script's result carries the edit note, and so does the agent's, naming the call", async () => {
    const event = nestedBashCall("cm/1", "cm", "rm -r build");
    const result = gatekeeper.onToolCall(event, session.ctx);
    await answerNext({ kind: "edit", command: "rm -r build/tmp", note: "only tmp" });
    expect(await result).toBeUndefined();
    expect(event.input).toEqual({ command: "rm -r build/tmp" });
    const editNote = present.agentEditNote("Ask", "rm -r build/tmp", "only tmp");
    expect(gatekeeper.onToolResult(nestedBashResult("cm/1", "cm", "removed"))).toEqual({
      content: [{ type: "text", text: `${editNote}\n\nremoved` }],
      structuredContent: { output: "removed", truncated: false, exit_code: 0 },
    });
    expect(gatekeeper.onToolResult(codemodeResult("cm", "Script completed in 0.1s"))).toEqual({
      content: [
        {
          type: "text",
          text: `${present.agentNestedNote("codemode", "bash", "rm -r build", editNote)}\n\nScript completed in 0.1s`,
        },
      ],
    });
    expect(gatekeeper.onToolResult(codemodeResult("cm", "again"))).toBeUndefined();
    expect(session.notices).toEqual([present.notifyEdited("Ask")]);
  });

  test("two calls with notes: both reach the agent's result, in the order answered, each naming its call", async () => {
    const first = nested("cm/1", "one");
    await answerNext({ kind: "authorize", note: "fine" });
    await first;
    const second = nested("cm/2", "two");
    await answerNext({ kind: "edit", command: "two --dry-run" });
    await second;
    gatekeeper.onToolResult(nestedBashResult("cm/1", "cm", "1"));
    gatekeeper.onToolResult(nestedBashResult("cm/2", "cm", "2"));
    const text = gatekeeper.onToolResult(codemodeResult("cm", "out"))?.content[0];
    expect(text).toEqual({
      type: "text",
      text: [
        present.agentNestedNote("codemode", "bash", "one", present.agentAuthorizeNote("Ask", "fine")),
        present.agentNestedNote("codemode", "bash", "two", present.agentEditNote("Ask", "two --dry-run")),
        "out",
      ].join("\n\n"),
    });
  });

  test("a script that fails after an edited call: the notes still reach the agent with the failure", async () => {
    const result = nested("cm/1", "rm -r build");
    await answerNext({ kind: "edit", command: "rm -r build/tmp" });
    await result;
    gatekeeper.onToolResult(nestedBashResult("cm/1", "cm", ""));
    const failed = "Script failed in 0.2s\n\nScript error: Error: boom";
    expect(gatekeeper.onToolResult(codemodeResult("cm", failed, true))).toEqual({
      content: [
        {
          type: "text",
          text: `${present.agentNestedNote("codemode", "bash", "rm -r build", present.agentEditNote("Ask", "rm -r build/tmp"))}\n\n${failed}`,
        },
      ],
    });
  });

  test("Abort with a note: the script sees the rejection, the agent's result carries it, the turn goes on", async () => {
    const result = nested("cm/1", "rm -r build");
    await answerNext({ kind: "abort", note: "keep build" });
    expect(await result).toEqual({ block: true, reason: present.agentAbort("Ask", "keep build") });
    const after = nested("cm/2", "ls");
    await answerNext({ kind: "authorize" });
    expect(await after).toBeUndefined();
    expect(gatekeeper.onToolResult(codemodeResult("cm", "out"))?.content[0]).toEqual({
      type: "text",
      text: `${present.agentNestedNote("codemode", "bash", "rm -r build", present.agentAbort("Ask", "keep build"))}\n\nout`,
    });
    gatekeeper.onTurnEnd(session.ctx);
    expect(session.aborts).toBe(0);
  });

  test("Abort without a note: the script's later calls are blocked unasked, the agent reads why, the turn stops after", async () => {
    const result = nested("cm/1", "rm -r build");
    await answerNext({ kind: "abort" });
    expect(await result).toEqual({ block: true, reason: present.agentAbort("Ask") });
    expect(await nested("cm/2", "ls")).toEqual({ block: true, reason: present.agentAbort("Ask") });
    expect(approver.asked).toHaveLength(1);
    expect(gatekeeper.onToolResult(codemodeResult("cm", "out"))?.content[0]).toEqual({
      type: "text",
      text: `${present.agentNestedNote("codemode", "bash", "rm -r build", present.agentAbort("Ask"))}\n\nout`,
    });
    expect(session.aborts).toBe(0);
    gatekeeper.onTurnEnd(session.ctx);
    expect(session.aborts).toBe(1);
  });

  test("Authorize without a note: nothing is added anywhere", async () => {
    const result = nested("cm/1", "ls");
    await answerNext({ kind: "authorize" });
    await result;
    expect(gatekeeper.onToolResult(nestedBashResult("cm/1", "cm", "a"))).toBeUndefined();
    expect(gatekeeper.onToolResult(codemodeResult("cm", "out"))).toBeUndefined();
  });

  test("notes never reach another call: not another script's result, nor one after the turn ended", async () => {
    const result = nested("cm/1", "ls");
    await answerNext({ kind: "authorize", note: "fine" });
    await result;
    expect(gatekeeper.onToolResult(codemodeResult("other", "out"))).toBeUndefined();
    gatekeeper.onTurnEnd(session.ctx);
    expect(gatekeeper.onToolResult(nestedBashResult("cm/1", "cm", "a"))).toBeUndefined();
    expect(gatekeeper.onToolResult(codemodeResult("cm", "out"))).toBeUndefined();
  });

  test("answered after the script ended (pi cancels its pending calls): blocked, and the Approver is told", async () => {
    const result = nested("cm/1", "rm -r build");
    const prompt = await approver.next();
    expect(gatekeeper.onToolResult(codemodeResult("cm", "Script completed"))).toBeUndefined();
    prompt.answer({ kind: "edit", command: "rm -r build/tmp", note: "only tmp" });
    expect(await result).toEqual({ block: true, reason: present.agentParentEnded("codemode") });
    expect(session.notices).toEqual([present.notifyParentEnded("Ask", "codemode")]);
  });

  test("answered after the turn ended: blocked too; an Abort then doesn't stop the next turn", async () => {
    const result = nested("cm/1", "rm -r build");
    const prompt = await approver.next();
    gatekeeper.onToolResult(codemodeResult("cm", "Script completed"));
    gatekeeper.onTurnEnd(session.ctx);
    prompt.answer({ kind: "abort" });
    expect(await result).toEqual({ block: true, reason: present.agentParentEnded("codemode") });
    gatekeeper.onTurnEnd(session.ctx);
    expect(session.aborts).toBe(0);
    const next = call("c1", "ls");
    await answerNext({ kind: "authorize" });
    expect(await next).toBeUndefined();
  });

  test("the agent's own note on the codemode call comes first, then the notes about its calls", async () => {
    const own = gatekeeper.onToolCall(
      { type: "tool_call", toolCallId: "cm", toolName: "codemode", input: { code: SCRIPT } } as never,
      session.ctx,
    );
    await answerNext({ kind: "authorize", note: "go ahead" });
    await own;
    const result = nested("cm/1", "ls");
    await answerNext({ kind: "authorize", note: "fine" });
    await result;
    expect(gatekeeper.onToolResult(codemodeResult("cm", "out"))?.content[0]).toEqual({
      type: "text",
      text: [
        present.agentAuthorizeNote("Ask", "go ahead"),
        present.agentNestedNote("codemode", "bash", "ls", present.agentAuthorizeNote("Ask", "fine")),
        "out",
      ].join("\n\n"),
    });
  });
});
