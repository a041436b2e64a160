// pi runs on Node ≥ 22.19 as well as Bun: the bundle, TypeScript permission modules and /reload
// must work there too. Node comes from the npm registry on first use.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as present from "../../lib/presenter.ts";
import { installNode, installPi, killAll, PI_VERSIONS, type PiSession, runPiPrint, startPi, textOf } from "./harness.ts";

const DIST = join(import.meta.dir, "../../dist/hooks.js");

function gateModule(description: string): string {
  return `import type { PermissionsAPI } from "pi-permission-hooks";
export default function (api: PermissionsAPI) {
  api.onToolUse({ name: "Gate", description: "${description}", handler: ({ tool }) => tool.name === "bash" && api.request() });
}
`;
}

afterAll(killAll);

describe.each(PI_VERSIONS)("pi %s on Node", (version) => {
  let pi: PiSession | undefined;
  beforeAll(async () => {
    await installPi(version);
    await installNode();
  }, 300_000);
  afterEach(() => {
    pi?.kill();
    pi = undefined;
  });

  test("print mode: a TypeScript module gates, and without UI the call is blocked", async () => {
    const run = await runPiPrint({
      version,
      runtime: "node",
      prompt: "go",
      extensions: [DIST],
      files: { "agent/permissions/gate.ts": gateModule("asks") },
      script: [{ toolCalls: [{ name: "bash", arguments: { command: "echo hi" } }] }, { text: "ok" }],
    });
    try {
      expect(run.exitCode).toBe(0);
      expect(run.stderr).not.toContain("ExperimentalWarning");
      const result = run.records[1]?.messages.find((message) => message.role === "toolResult");
      expect(result && textOf(result)).toBe(present.agentNoUi("Gate"));
    } finally {
      run.sandbox.remove();
    }
  });

  test("interactive: Edit runs the edited command; /reload picks up an edited module", async () => {
    pi = await startPi({
      version,
      runtime: "node",
      extensions: [DIST],
      files: { "agent/permissions/gate.ts": gateModule("first version") },
      script: [
        { toolCalls: [{ name: "bash", arguments: { command: "echo typo" } }] },
        { text: "ok" },
        { toolCalls: [{ name: "bash", arguments: { command: "echo again" } }] },
        { text: "ok" },
      ],
    });
    pi.prompt("go");
    await pi.waitFor("first version");
    await pi.waitFor("esc abort");
    pi.type("2");
    await pi.waitFor("Note to agent");
    pi.send("BSpace", "BSpace", "BSpace", "BSpace");
    pi.type("fixed");
    pi.send("Enter");
    await pi.waitForRecord(2);
    expect(textOf(pi.lastToolResults()[0]!)).toBe(`${present.agentEditNote("Gate", "echo fixed")}\n\nfixed\n`);
    await pi.waitFor(/^\s*ok\s*$/m);

    writeFileSync(join(pi.agentDir, "permissions/gate.ts"), gateModule("second version"));
    pi.prompt("/reload");
    await pi.waitFor("Reloaded");
    pi.prompt("again");
    await pi.waitFor("second version");
    await pi.waitFor("esc abort");
    pi.send("Enter");
    await pi.waitForRecord(4);
  });
});
