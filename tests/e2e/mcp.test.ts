// pi 1.x MCP tools, from a real stdio server configured in pi's own mcp.json: hooks see the server
// and tool, the prompt names them and lists the arguments, and the outcomes hold as for any tool.
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as present from "../../lib/presenter.ts";
import type { PiSession, ScriptStep } from "./harness.ts";
import { describeEachPi, promptReady, toolResult } from "./prompt.ts";

const DIST = join(import.meta.dir, "../../dist/hooks.js");
const SERVER = join(import.meta.dir, "fixtures/mcp-server.ts");
const HOOK = "notes server";

/** The README's module: asks before any tool of one MCP server. */
const NOTES_MODULE = `import type { PermissionsAPI } from "pi-permission-hooks";

export default function (api: PermissionsAPI) {
  api.onToolUse({
    name: "${HOOK}",
    description: "Ask before any tool of the notes MCP server.",
    handler: ({ tool }) => "server" in tool && tool.server === "notes" && api.request({ guidance: \`Its \${tool.tool} tool.\` }),
  });
}
`;

const ADD_NOTE = { name: "mcp__notes__add_note", arguments: { title: "Groceries", body: "milk\neggs" } };

describeEachPi("MCP tools", (suite) => {
  // pi 0.80 has no MCP support; every other suite runs there unchanged.
  if (suite.version.startsWith("0.")) return;

  async function start(then: ScriptStep[]): Promise<PiSession> {
    const pi = await suite.start({
      script: [{ toolCalls: [ADD_NOTE] }, ...then],
      extensions: [DIST],
      files: { "agent/permissions/notes.ts": NOTES_MODULE },
      setup(sandbox) {
        const notes = {
          command: process.execPath,
          args: [SERVER],
          env: { NOTES_LOG: join(sandbox.cwd, "notes.log") },
          exposure: "direct",
        };
        writeFileSync(join(sandbox.agentDir, "mcp.json"), JSON.stringify({ mcpServers: { notes } }));
      },
    });
    pi.prompt("go");
    await promptReady(pi, HOOK);
    return pi;
  }

  test("the prompt names the server and tool and lists the arguments; Authorize runs it", async () => {
    const pi = await start([{ text: "ok" }]);
    const screen = pi.screen();
    for (const line of [
      "Its add_note tool.",
      "mcp__notes__add_note: MCP server notes, tool add_note",
      "  body: |",
      "    milk",
      "    eggs",
      '  title: "Groceries"',
    ]) {
      expect(screen).toContain(line);
    }
    expect(screen).not.toContain("Edit");
    pi.send("Enter");
    const { text, isError } = await toolResult(pi);
    expect(isError).toBe(false);
    expect(text).toBe("added Groceries");
    expect(readFileSync(join(pi.cwd, "notes.log"), "utf8")).toBe("Groceries: milk\neggs\n");
  });

  test("Abort blocks it: the server is never called, the agent reads the rejection with the note", async () => {
    const pi = await start([{ text: "understood" }]);
    pi.send("Up", "Tab");
    pi.type("no groceries today");
    pi.send("Enter");
    const { text, isError } = await toolResult(pi);
    expect(isError).toBe(true);
    expect(text).toBe(present.agentAbort(HOOK, "no groceries today"));
    expect(existsSync(join(pi.cwd, "notes.log"))).toBe(false);
    await pi.waitFor("understood");
  });
});
