// RPC clients answer prompts through pi's select, editor and input dialogs: `pi --mode rpc`
// driven over stdin/stdout by a test client, with the scripted model.
import { afterEach, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import * as present from "../../lib/presenter.ts";
import { type PiRpc, type RpcMessage, type ScriptStep, startPiRpc, textOf } from "./harness.ts";
import { describeEachPi } from "./prompt.ts";

const DIST = join(import.meta.dir, "../../dist/hooks.js");
const HOOK = "Gate";
const ASK_MODULE = `export default (api) => api.onToolUse({
  name: "${HOOK}",
  description: "Every command is asked for.",
  handler: ({ tool }) => tool.name === "bash" && api.request({ guidance: "Have a look." }),
});
`;

function bash(command: string) {
  return { name: "bash", arguments: { command } };
}

function dialog(method: string) {
  return (message: RpcMessage) => message.type === "extension_ui_request" && message.method === method;
}

/** What the client was notified of, in order. */
function notices(rpc: PiRpc): unknown[] {
  return rpc
    .messages()
    .filter(dialog("notify"))
    .map((message) => message.message);
}

/** The texts of the assistant messages the client saw end. */
function assistantTexts(rpc: PiRpc): string[] {
  return rpc.messages().flatMap((message) => {
    const ended = message.type === "message_end" ? (message.message as { role: string; content: unknown }) : undefined;
    if (ended?.role !== "assistant" || !Array.isArray(ended.content)) return [];
    return ended.content.flatMap((part: { type: string; text?: string }) => (part.type === "text" ? [part.text ?? ""] : []));
  });
}

/** A stopped turn: the agent reads why the call was blocked with the next prompt. */
async function nextPromptSees(rpc: PiRpc): Promise<string | undefined> {
  const before = rpc.records().length;
  rpc.send({ id: "p2", type: "prompt", message: "carry on" });
  await rpc.next((message) => message.type === "agent_end" && rpc.records().length > before);
  const blocked = rpc
    .records()
    .at(-1)
    ?.messages.find((message) => message.role === "toolResult");
  return blocked && textOf(blocked);
}

describeEachPi("RPC clients", (suite) => {
  let pi: PiRpc | undefined;
  afterEach(() => pi?.kill());

  async function start(script: ScriptStep[], settings: Record<string, unknown> = {}) {
    pi = await startPiRpc({
      version: suite.version,
      script,
      extensions: [DIST],
      files: { "agent/permissions/gate.js": ASK_MODULE },
      settings,
    });
    pi.send({ id: "p1", type: "prompt", message: "go" });
    return pi;
  }

  /** The tool result the model read on its `call`-th call. */
  async function toolResultOn(rpc: PiRpc, call: number) {
    await rpc.next((message) => message.type === "agent_end", { timeoutMs: 30_000 });
    const records = rpc.records();
    const result = records[call - 1]?.messages.findLast((message) => message.role === "toolResult");
    if (result?.role !== "toolResult") throw new Error(`no tool result on model call ${call}: ${records.length} calls`);
    return { text: textOf(result), isError: result.isError };
  }

  test("the select carries the prompt; Edit, a new command, a note: the edited command runs and the agent reads the edit note", async () => {
    const rpc = await start([{ toolCalls: [bash("echo original > ran.txt")] }, { text: "ok" }]);
    const select = await rpc.next(dialog("select"));
    expect(select.title).toBe(
      present.rpcPromptTitle({
        nameOfHook: HOOK,
        description: "Every command is asked for.",
        guidance: "Have a look.",
        toolName: "bash",
        detail: "echo original > ran.txt",
      }),
    );
    expect(select.options).toEqual([
      "1. Authorize",
      "2. Edit…",
      "3. Abort",
      "4. Authorize, with a note to the agent…",
      "5. Abort, with a note to the agent…",
      "6. Authorize, don't ask again",
    ]);
    rpc.send({ type: "extension_ui_response", id: select.id, value: "2. Edit…" });
    const editor = await rpc.next(dialog("editor"));
    expect(editor.prefill).toBe("echo original > ran.txt");
    expect(editor.title).toBe(present.rpcEditorTitle(HOOK));
    rpc.send({ type: "extension_ui_response", id: editor.id, value: "echo edited > edited.txt" });
    const input = await rpc.next(dialog("input"));
    expect(input.title).toBe(present.rpcNoteTitle("Edit"));
    rpc.send({ type: "extension_ui_response", id: input.id, value: "only this file" });

    const result = await toolResultOn(rpc, 2);
    // pi 1.x says "(no output)" after it.
    expect(result.text).toStartWith(present.agentEditNote(HOOK, "echo edited > edited.txt", "only this file"));
    expect(result.isError).toBe(false);
    expect(existsSync(join(rpc.cwd, "edited.txt"))).toBe(true);
    expect(existsSync(join(rpc.cwd, "ran.txt"))).toBe(false);
    expect(notices(rpc)).toEqual([present.notifyEdited(HOOK)]);
  });

  test("pi 1.x: a codemode script's call says so under the title, and shows the script on request", async () => {
    if (suite.version.startsWith("0.")) return;
    const code = 'await tools.bash({ command: "echo from-a-script" });';
    const rpc = await start([{ toolCalls: [{ name: "codemode", arguments: { code } }] }, { text: "ok" }], {
      defaultTools: ["+codemode"],
    });
    const select = await rpc.next(dialog("select"));
    expect(select.title).toBe(
      present.rpcPromptTitle({
        nameOfHook: HOOK,
        origin: present.promptOrigin("codemode"),
        description: "Every command is asked for.",
        guidance: "Have a look.",
        toolName: "bash",
        detail: "echo from-a-script",
      }),
    );
    expect(select.title).toStartWith(`! Authorization required: ${HOOK}\nMade by a codemode script the agent wrote.\n\n`);
    const show = (select.options as string[]).at(-1);
    expect(show).toBe(`7. ${present.rpcChoice.script}`);
    rpc.send({ type: "extension_ui_response", id: select.id, value: show });
    const script = await rpc.next(dialog("select"));
    expect(script.title).toBe(present.rpcScriptTitle(HOOK, code));
    expect(script.options).toEqual([present.RPC_BACK]);
    rpc.send({ type: "extension_ui_response", id: script.id, value: present.RPC_BACK });
    const again = await rpc.next(dialog("select"));
    expect(again.title).toBe(select.title);
    rpc.send({ type: "extension_ui_response", id: again.id, value: "1. Authorize" });
    await rpc.next((message) => message.type === "agent_end");
  });

  test("cancelling the select is an Abort: blocked, and the turn stops", async () => {
    const rpc = await start([{ toolCalls: [bash("echo gate > aborted.txt")] }, { text: "nobody asked" }]);
    const select = await rpc.next(dialog("select"));
    rpc.send({ type: "extension_ui_response", id: select.id, cancelled: true });
    await rpc.next((message) => message.type === "agent_end");
    expect(notices(rpc)).toEqual([present.notifyAborted(HOOK, false)]);
    expect(assistantTexts(rpc)).not.toContain("nobody asked");
    expect(existsSync(join(rpc.cwd, "aborted.txt"))).toBe(false);
    expect(await nextPromptSees(rpc)).toBe(present.agentAbort(HOOK));
  });

  test("Abort with a note through the input dialog: the agent reads the note, the turn goes on", async () => {
    const rpc = await start([{ toolCalls: [bash("echo gate > aborted.txt")] }, { text: "understood" }]);
    const select = await rpc.next(dialog("select"));
    rpc.send({ type: "extension_ui_response", id: select.id, value: "5. Abort, with a note to the agent…" });
    const input = await rpc.next(dialog("input"));
    expect(input.title).toBe(present.rpcNoteTitle("Abort"));
    rpc.send({ type: "extension_ui_response", id: input.id, value: "use notes.txt" });
    const result = await toolResultOn(rpc, 2);
    expect(result).toEqual({ text: present.agentAbort(HOOK, "use notes.txt"), isError: true });
  });

  test("the fail-safe timeout: nobody answers, the call is aborted with the agent told why, and the client told", async () => {
    const rpc = await start([{ toolCalls: [bash("echo gate > late.txt")] }, { text: "nobody asked" }], {
      permissionHooks: { timeoutSeconds: 1 },
    });
    const select = await rpc.next(dialog("select"));
    expect(select.timeout).toBeGreaterThan(0);
    expect(select.timeout).toBeLessThanOrEqual(1_000);
    await rpc.next((message) => message.type === "agent_end");
    expect(notices(rpc)).toEqual([present.notifyTimedOut(HOOK, 1)]);
    expect(assistantTexts(rpc)).not.toContain("nobody asked");
    expect(existsSync(join(rpc.cwd, "late.txt"))).toBe(false);
    expect(await nextPromptSees(rpc)).toBe(present.agentTimedOut(HOOK));
  });

  test("a grant chosen over RPC: the rule as the select's last option, a select of the scopes, and the next such call runs unasked", async () => {
    pi = await startPiRpc({
      version: suite.version,
      script: [{ toolCalls: [bash("git init -q one")] }, { toolCalls: [bash("git init -q two")] }, { text: "both" }],
      extensions: [DIST],
      files: {
        "agent/permissions/init.js": `export default (api) => api.matchCommand({ name: "git init", program: "git", subcommands: ["init"] });`,
      },
    });
    const rpc = pi;
    rpc.send({ id: "p1", type: "prompt", message: "go" });
    const select = await rpc.next(dialog("select"));
    const grant = "7. Authorize, don't ask again for Bash(git init:*)…";
    expect(select.options).toEqual([
      "1. Authorize",
      "2. Edit…",
      "3. Abort",
      "4. Authorize, with a note to the agent…",
      "5. Abort, with a note to the agent…",
      "6. Authorize, don't ask again",
      grant,
    ]);
    rpc.send({ type: "extension_ui_response", id: select.id, value: grant });
    const scopes = await rpc.next(dialog("select"));
    expect(scopes.title).toBe(present.rpcGrantTitle("git init", "Bash(git init:*)"));
    expect(scopes.options).toEqual(["1. this branch", "2. this project", "3. everywhere"]);
    rpc.send({ type: "extension_ui_response", id: scopes.id, value: "1. this branch" });
    await rpc.next((message) => message.type === "agent_end", { timeoutMs: 30_000 });
    expect(existsSync(join(rpc.cwd, "one", ".git"))).toBe(true);
    expect(existsSync(join(rpc.cwd, "two", ".git"))).toBe(true);
    expect(rpc.messages().filter(dialog("select"))).toHaveLength(2);
    expect(notices(rpc)).toEqual([present.notifyGranted("Bash(git init:*)", "branch", undefined)]);
  });
});
