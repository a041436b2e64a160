// Attention in real pi: the signal a waiting prompt writes, seen in the raw output of the tmux
// pane pi runs in, and the event other extensions receive on pi's bus.
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ATTENTION_CHANNEL } from "../../lib/attention.ts";
import * as present from "../../lib/presenter.ts";
import { type PiSession, pollUntil } from "./harness.ts";
import { describeEachPi, promptReady } from "./prompt.ts";

const DIST = join(import.meta.dir, "../../dist/hooks.js");
const LISTENER = join(import.meta.dir, "fixtures/attention-listener.js");
const HOOK = "Gate";
const GATE_MODULE = `export default (api) => api.onToolUse({ name: "${HOOK}", handler: ({ tool }) => tool.name === "bash" && api.request() });\n`;
const MESSAGE = present.attentionMessage(HOOK, "bash");

/** Everything pi writes to its terminal from now on, as tmux receives it. */
function recordOutput(pi: PiSession): () => string {
  const file = join(pi.root, "e2e/pane-output");
  execFileSync("tmux", ["-S", join(pi.root, "e2e/tmux.sock"), "pipe-pane", "-o", "-t", "pi", `cat >> '${file}'`]);
  return () => (existsSync(file) ? readFileSync(file, "latin1") : "");
}

/** What is left of the output once OSC strings (ended by BEL or ST) and DCS strings are taken out. */
function outsideControlStrings(output: string): string {
  return output.replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, "").replace(/\x1bP[\s\S]*?\x1b\\/g, "");
}

describeEachPi("attention", (suite) => {
  async function waitingPrompt(settings: Record<string, unknown>) {
    const pi = await suite.start({
      script: [{ toolCalls: [{ name: "bash", arguments: { command: "echo hi" } }] }, { text: "done" }],
      extensions: [DIST],
      agentExtensions: [LISTENER],
      files: { "agent/permissions/gate.js": GATE_MODULE },
      settings,
    });
    const output = recordOutput(pi);
    pi.prompt("go");
    await promptReady(pi, HOOK);
    return { pi, output };
  }

  test("OSC 9, through tmux's passthrough, once the prompt has waited a second; and the event on pi's bus", async () => {
    const { pi, output } = await waitingPrompt({ permissionHooks: { attention: "osc9" } });
    const sequence = `\x1bPtmux;\x1b\x1b]9;${MESSAGE}\x07\x1b\\`;
    await pollUntil(
      5_000,
      () => output().includes(sequence),
      () => `no OSC 9 in ${JSON.stringify(output().slice(-400))}`,
    );
    const events = readFileSync(join(pi.home, "attention.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(events[0]).toEqual({ hookName: HOOK, toolName: "bash", detail: "echo hi", waitedMs: expect.any(Number) });
    expect(events[0].waitedMs).toBeGreaterThanOrEqual(1_000);
    expect(ATTENTION_CHANNEL).toBe("permission-hooks:attention");
    pi.send("1");
    await pi.waitForRecord(2);
  });

  test("auto in a terminal not known to show notifications: the bell", async () => {
    const { pi, output } = await waitingPrompt({});
    await pollUntil(
      5_000,
      () => outsideControlStrings(output()).includes("\x07"),
      () => `no bell in ${JSON.stringify(output().slice(-400))}`,
    );
    expect(output()).not.toContain("\x1b]9;");
    pi.send("1");
    await pi.waitForRecord(2);
  });

  test("off: no signal at all", async () => {
    const { pi, output } = await waitingPrompt({ permissionHooks: { attention: "off" } });
    await pollUntil(
      5_000,
      () => existsSync(join(pi.home, "attention.jsonl")),
      () => "no attention event",
    );
    expect(outsideControlStrings(output())).not.toContain("\x07");
    expect(output()).not.toContain(MESSAGE);
    pi.send("1");
    await pi.waitForRecord(2);
  });
});
