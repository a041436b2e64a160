// Live reload in real pi: a saved permission module decides the next call without /reload; a broken
// save is reported once and the previous version gates until the module loads again; a project not
// trusted is not asked about again.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as present from "../../lib/presenter.ts";
import type { PiSession, ScriptStep } from "./harness.ts";
import { describeEachPi, promptReady } from "./prompt.ts";

const DIST = join(import.meta.dir, "../../dist/hooks.js");
const HOOK = "Touch gate";

/** Asks before any touch, described by `description`; `extra` more hooks that never decide, to see the footer count move. */
function gate(description: string, extra = 0): string {
  const extras = Array.from({ length: extra }, (_, index) => `  api.onToolUse({ name: "Extra ${index}", handler() {} });\n`);
  return `export default function (api) {
  api.onToolUse({
    name: ${JSON.stringify(HOOK)},
    description: ${JSON.stringify(description)},
    handler: ({ tool }) => tool.name === "bash" && tool.command.startsWith("touch") && api.request(),
  });
${extras.join("")}}
`;
}

const touches = (...files: string[]): ScriptStep[] =>
  files.flatMap((file) => [
    { toolCalls: [{ name: "bash", arguments: { command: `touch ${file}` } }] },
    { text: `touched ${file}` },
  ]);

/** Asks for the next scripted touch and authorizes its prompt; returns the prompt's screen. */
async function authorize(pi: PiSession, file: string): Promise<string> {
  const calls = pi.records().length;
  pi.prompt(`touch ${file}`);
  const screen = await promptReady(pi, HOOK);
  pi.send("Enter");
  await pi.waitForRecord(calls + 2);
  return screen;
}

describeEachPi("live reload", (suite) => {
  async function start(script: ScriptStep[], runtime: "bun" | "node" = "bun") {
    return suite.start({
      script,
      runtime,
      extensions: [DIST],
      files: { "agent/permissions/gate.js": gate("First description.") },
      settings: { tuiMode: "regular" },
    });
  }

  for (const runtime of ["bun", "node"] as const)
    test(`a saved module decides the next call, without /reload (${runtime})`, async () => {
      const pi = await start(touches("one", "two"), runtime);
      expect(await authorize(pi, "one")).toContain("First description.");

      writeFileSync(join(pi.agentDir, "permissions/gate.js"), gate("Second description.", 1));
      await pi.waitFor("permissions 2/2");
      const screen = await authorize(pi, "two");
      expect(screen).toContain("Second description.");
      expect(pi.screen({ history: true })).not.toContain("Reloaded");
    });

  test("a broken save is reported once; the previous version gates until the module loads again", async () => {
    const pi = await start(touches("one", "two", "three"));
    await pi.waitFor("permissions 1/1");
    const file = join(pi.agentDir, "permissions/gate.js");

    writeFileSync(file, "export default function (api) {\n");
    await pi.waitFor("Its previous version keeps gating");
    expect(await authorize(pi, "one")).toContain("First description.");

    writeFileSync(file, gate("Still first.", 1));
    await pi.waitFor("permissions 2/2");
    expect(await authorize(pi, "two")).toContain("Still first.");
    const history = pi.screen({ history: true });
    expect(history.split("gate.js failed to load").length - 1).toBe(1);
  });

  test("a project whose modules were declined is not asked about again with each save, nor told again", async () => {
    const pi = await suite.start({
      extensions: [DIST],
      files: { "agent/permissions/gate.js": gate("First description.") },
      projectFiles: { ".pi/permissions/project.js": gate("Project description.") },
      settings: { tuiMode: "regular", defaultProjectTrust: "ask" },
    });
    await pi.waitFor(present.projectTrustTitle());
    pi.send("Escape");
    await pi.waitForGone(present.projectTrustTitle());
    await pi.waitFor("permissions 1/1");

    // The project's save and the user's are each a reload (or one together); the footer moves only once both loaded.
    writeFileSync(join(pi.cwd, ".pi/permissions/project.js"), gate("Project description, edited."));
    writeFileSync(join(pi.agentDir, "permissions/gate.js"), gate("Second description.", 1));
    await pi.waitFor("permissions 2/2");
    expect(pi.screen()).not.toContain(present.projectTrustTitle());
    expect(pi.screen({ history: true }).split("were not loaded").length - 1).toBe(1);
  });
});
