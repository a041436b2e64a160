// The decision log in real pi: /permissions log after several outcomes, through /reload (TUI)
// and a resumed session (RPC switch_session), and the audit file.
import { afterEach, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import * as present from "../../lib/presenter.ts";
import { type PiRpc, pollUntil, type RpcMessage, startPiRpc } from "./harness.ts";
import { describeEachPi, promptReady } from "./prompt.ts";

const DIST = join(import.meta.dir, "../../dist/hooks.js");
const HOOK = "Gate";
const GATE_MODULE = `export default (api) => api.onToolUse({
  name: "${HOOK}",
  handler: ({ tool }) =>
    tool.name === "bash" && (tool.command.includes("block-me") ? api.block("not this") : tool.command.includes("gate") && api.request()),
});
`;
const TIME = "\\d\\d:\\d\\d:\\d\\d";

function bash(command: string) {
  return { name: "bash", arguments: { command } };
}

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

describeEachPi("the decision log", (suite) => {
  let rpc: PiRpc | undefined;
  afterEach(() => rpc?.kill());

  test("/permissions log lists this branch's decisions, and still does after /reload", async () => {
    const pi = await suite.start({
      script: [
        { toolCalls: [bash("echo gate one")] },
        { toolCalls: [bash("echo block-me")] },
        { toolCalls: [bash("echo gate two")] },
        { text: "done" },
      ],
      extensions: [DIST],
      files: { "agent/permissions/gate.js": GATE_MODULE },
      settings: { tuiMode: "regular" },
    });
    pi.prompt("go");
    await promptReady(pi, HOOK);
    pi.send("1");
    await pi.waitForRecord(3);
    await promptReady(pi, HOOK);
    pi.send("Down", "Down", "Tab");
    pi.type("not now");
    pi.send("Enter");
    await pi.waitForRecord(4);
    await pi.waitFor("done");

    const heading = "Permission decisions on this branch (3):";
    pi.prompt("/permissions log");
    const screen = await pi.waitFor(heading);
    expect(screen).toMatch(new RegExp(`${TIME}  Authorized \\(by you\\)  ${HOOK}  bash: echo gate one`));
    expect(screen).toMatch(new RegExp(`${TIME}  Blocked \\(by the hook\\)  ${HOOK}  bash: echo block-me`));
    expect(screen).toMatch(new RegExp(`${TIME}  Aborted \\(by you, with a note\\)  ${HOOK}  bash: echo gate two`));

    // /reload draws the transcript afresh from the session, without earlier notices.
    pi.prompt("/reload");
    await pi.waitFor("Reloaded");
    const before = count(pi.screen({ history: true }), heading);
    pi.prompt("/permissions log");
    await pollUntil(
      15_000,
      () => count(pi.screen({ history: true }), heading) > before,
      () => `the log once more after /reload:\n${pi.screen({ history: true })}`,
    );
  });

  test("a resumed session has its decisions; a new one has none; the audit file takes them all", async () => {
    rpc = await startPiRpc({
      version: suite.version,
      script: [{ toolCalls: [bash("echo gate one")] }, { text: "done" }],
      extensions: [DIST],
      files: { "agent/permissions/gate.js": GATE_MODULE, "audit/.keep": "" },
      settings: { permissionHooks: { auditFile: "~/audit/decisions.jsonl" } },
    });
    const client = rpc;
    const response = (command: string) => (message: RpcMessage) => message.type === "response" && message.command === command;
    const log = async () => {
      client.send({ type: "prompt", message: "/permissions log" });
      const notice = await client.next((message) => message.type === "extension_ui_request" && message.method === "notify");
      return notice.message as string;
    };

    client.send({ type: "prompt", message: "go" });
    const select = await client.next((message) => message.type === "extension_ui_request" && message.method === "select");
    client.send({ type: "extension_ui_response", id: select.id, value: "1. Authorize" });
    await client.next((message) => message.type === "agent_end");
    const decided = await log();
    expect(decided).toMatch(
      new RegExp(
        `^Permission decisions on this branch \\(1\\):\\n  ${TIME}  Authorized \\(by you\\)  ${HOOK}  bash: echo gate one$`,
      ),
    );

    client.send({ type: "get_state" });
    const state = (await client.next(response("get_state"))).data as { sessionFile: string };
    client.send({ type: "new_session" });
    await client.next(response("new_session"));
    expect(await log()).toBe(present.NO_DECISIONS);
    client.send({ type: "switch_session", sessionPath: state.sessionFile });
    await client.next(response("switch_session"));
    expect(await log()).toBe(decided);

    const audit = join(client.home, "audit/decisions.jsonl");
    expect(statSync(audit).mode & 0o777).toBe(0o600);
    const lines = readFileSync(audit, "utf8").trim().split("\n");
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      {
        time: expect.any(String),
        hook: HOOK,
        tool: "bash",
        detail: "echo gate one",
        outcome: "authorize",
        note: false,
        by: "approver",
        session: expect.any(String),
        cwd: client.cwd,
      },
    ]);
  });
});
