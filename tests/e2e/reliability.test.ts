// What the Approver sees when things go wrong or get in the way, in real pi.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import * as present from "../../lib/presenter.ts";
import { installPi, killAll, PI_VERSIONS, type PiSession, startPi, textOf } from "./harness.ts";

const DIST = join(import.meta.dir, "../../dist/hooks.js");
const DIALOG = join(import.meta.dir, "fixtures/dialog-tool.ts");
const ASK_BASH = `export default (api) => api.onToolUse({ name: "Ask", handler: ({ tool }) => tool.name === "bash" && api.request() });`;

afterAll(killAll);

describe.each(PI_VERSIONS)("pi %s: reliability", (version) => {
  let pi: PiSession | undefined;
  beforeAll(() => installPi(version), 300_000);
  afterEach(() => {
    pi?.kill();
    pi = undefined;
  });

  test("a prompt never opens on top of another overlay; it waits for it to close", async () => {
    pi = await startPi({
      version,
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
    pi.send("Enter");
    await pi.waitForGone("OTHER DIALOG");
    await pi.waitFor("Authorization required: Ask");
    await pi.waitFor("esc abort");
    pi.send("Enter");
    await pi.waitForRecord(3);
    expect(existsSync(join(pi.cwd, "waited.txt"))).toBe(true);
  });

  test("broken permission modules: pi keeps working, each is reported once with its file and why", async () => {
    pi = await startPi({
      version,
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
    expect(pi.screen({ history: true }).split("b-throws.js failed to load").length - 1).toBe(1);
  });

  test("esc on the first of two queued prompts blocks both and shows no second prompt", async () => {
    pi = await startPi({
      version,
      extensions: [DIST],
      files: { "agent/permissions/ask.js": ASK_BASH },
      script: [
        { toolCalls: [
          { name: "bash", arguments: { command: "echo one > one.txt" }, id: "call-1" },
          { name: "bash", arguments: { command: "echo two > two.txt" }, id: "call-2" },
        ] },
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
      ["call-1", present.agentRejection("Ask")],
      ["call-2", present.agentRejection("Ask")],
    ]);
  });

  test("a resize while the prompt is open re-renders it to the new width", async () => {
    pi = await startPi({
      version,
      extensions: [DIST],
      files: { "agent/permissions/ask.js": ASK_BASH },
      script: [{ toolCalls: [{ name: "bash", arguments: { command: `echo ${"long-argument ".repeat(20)}` } }] }, { text: "ok" }],
    });
    pi.prompt("go");
    await pi.waitFor("esc abort");
    pi.resize(60, 30);
    await pi.waitFor(/╭─{20,}╮/);
    const screen = pi.screen();
    for (const line of screen.split("\n")) expect(Bun.stringWidth(line)).toBeLessThanOrEqual(60);
    expect(screen).toContain("Authorization required: Ask");
    pi.send("Enter");
    await pi.waitForRecord(2);
  });
});
