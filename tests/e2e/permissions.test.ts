// Managing hooks in real pi: /permissions, per-branch enablement, don't ask again, toggle-all.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as present from "../../lib/presenter.ts";
import { type PiSession, type ScriptStep, textOf } from "./harness.ts";
import { describeEachPi } from "./prompt.ts";

const DIST = join(import.meta.dir, "../../dist/hooks.js");

/** Gate asks for every bash call that mentions `gate`; Other never decides. */
const GATE_MODULE = `export default function (api) {
  api.onToolUse({
    name: "Gate",
    description: "Commands that mention gate are asked for.",
    handler: ({ tool }) => tool.name === "bash" && tool.command.includes("gate") && api.request(),
  });
}
`;
const OTHER_MODULE = `export default (api) => api.onToolUse({ name: "Other", description: "Never decides.", handler() {} });`;

function bash(command: string) {
  return { toolCalls: [{ name: "bash", arguments: { command } }] };
}

describeEachPi("managing hooks", (suite) => {
  async function start(script: ScriptStep[], files: Record<string, string> = {}, projectFiles: Record<string, string> = {}) {
    const pi = await suite.start({
      script,
      extensions: [DIST],
      files: { "agent/permissions/gate.js": GATE_MODULE, ...files },
      projectFiles,
    });
    return pi;
  }

  /** Waits until the prompt for Gate is armed (its hints are shown). */
  async function promptShown(session: PiSession) {
    await session.waitFor("Authorization required: Gate");
    await session.waitFor("esc abort");
  }

  test("a hook switched off in /permissions lets its calls run unprompted; /tree back before the change switches it on", async () => {
    const session = await start([
      { text: "first answer" },
      bash("echo gate | tee off.txt"),
      { text: "ran it" },
      bash("echo gate | tee on.txt"),
      { text: "asked and ran" },
    ]);
    session.prompt("hello");
    await session.waitFor("first answer");
    await session.waitFor("permissions 1/1");

    session.prompt("/permissions");
    await session.waitFor("space toggle");
    session.send("Space");
    await session.waitFor("[ ] Gate");
    session.send("Enter");
    await session.waitFor("permissions 0/1");

    session.prompt("go");
    await session.waitFor("ran it");
    expect(readFileSync(join(session.cwd, "off.txt"), "utf8")).toBe("gate\n");
    expect(session.screen({ history: true })).not.toContain("Authorization required");

    session.prompt("/tree");
    await session.waitFor("Session Tree");
    session.type("first answer");
    await session.waitFor("(1/1)");
    session.send("Enter");
    await session.waitFor("Summarize branch?");
    session.send("Enter");
    await session.waitFor("permissions 1/1");

    session.prompt("again");
    await promptShown(session);
    session.send("Enter");
    await session.waitFor("asked and ran");
    expect(readFileSync(join(session.cwd, "on.txt"), "utf8")).toBe("gate\n");
  });

  test("ctrl+s: this call runs with its note, the next identical one runs unprompted, the footer and a notify say so", async () => {
    const session = await start([bash("echo gate | tee -a log.txt"), bash("echo gate | tee -a log.txt"), { text: "both ran" }]);
    await session.waitFor("permissions 1/1");
    session.prompt("go");
    await promptShown(session);
    expect(session.screen()).toContain("ctrl+s don't ask again");
    session.send("Tab");
    session.type("fine for today");
    session.send("C-s");
    await session.waitFor("both ran");
    await session.waitFor("permissions 0/1");
    await session.waitFor(present.notifyDontAskAgain("Gate").slice(0, 50));
    expect(readFileSync(join(session.cwd, "log.txt"), "utf8")).toBe("gate\ngate\n");
    const [first, second] = session
      .records()
      .slice(1, 3)
      .map((record) => record.messages.filter((m) => m.role === "toolResult").at(-1));
    expect(first && textOf(first)).toBe(`${present.agentAuthorizeNote("Gate", "fine for today")}\n\ngate\n`);
    expect(second && textOf(second)).toBe("gate\n");
    expect(session.screen()).not.toContain("Authorization required");
  });

  test("the list shows every hook's scope, description and source, and every broken module with its error; esc saves nothing", async () => {
    const session = await start(
      [],
      {
        "agent/permissions/a-syntax.ts": "export default function (api) { api.onToolUse({ name: ",
        "agent/permissions/b-throws.js": `throw new Error("kaput at import");`,
      },
      { ".pi/permissions/proj.js": OTHER_MODULE.replace('"Other"', '"Proj"') },
    );
    await session.waitFor("permissions 2/2");
    session.prompt("/permissions");
    const screen = await session.waitFor("Failed to load");
    expect(screen).toContain("Permission hooks  2 of 2 on");
    expect(screen).toContain("→ [x] Proj  project");
    expect(screen).toContain("~/project/.pi/permissions/proj.js");
    expect(screen).toContain("  [x] Gate  user");
    expect(screen).toContain("Commands that mention gate are asked for.");
    expect(screen).toContain("~/agent/permissions/gate.js");
    expect(screen).toContain("✗ ~/agent/permissions/a-syntax.ts");
    expect(screen).toContain("✗ ~/agent/permissions/b-throws.js");
    expect(screen).toMatch(/│\s+kaput at import\s+│/);
    session.send("Space", "Down", "Space");
    await session.waitFor("0 of 2 on");
    session.send("Escape");
    await session.waitForGone("Failed to load");
    expect(session.screen()).toContain("permissions 2/2");
  });

  test("/permissions disable <name>, completed with tab; /reload keeps it; /permissions enable switches all back on", async () => {
    const session = await start([bash("echo gate | tee reloaded.txt"), { text: "ran after reload" }], {
      "agent/permissions/other.js": OTHER_MODULE,
    });
    await session.waitFor("permissions 2/2");
    session.type("/permissions dis");
    await session.waitFor(present.SUBCOMMAND_DESCRIPTIONS.disable);
    session.send("Tab");
    session.type(" ga");
    await session.waitFor("Commands that mention gate are asked for.");
    session.send("Tab");
    await session.waitFor("/permissions disable Gate");
    session.send("Enter");
    await session.waitFor(present.notifyHookSwitched("Gate", false).slice(0, 50));
    await session.waitFor("permissions 1/2");

    session.prompt("/reload");
    await session.waitFor("Reloaded");
    await session.waitFor("permissions 1/2");
    session.prompt("go");
    await session.waitFor("ran after reload");
    expect(existsSync(join(session.cwd, "reloaded.txt"))).toBe(true);

    session.prompt("/permissions enable");
    await session.waitFor(present.notifyAllSwitched(true, ""));
    await session.waitFor("permissions 2/2");
  });

  test("alt+p switches every hook off, and back on", async () => {
    const session = await start([bash("echo gate | tee toggled.txt"), { text: "ran unasked" }]);
    await session.waitFor("permissions 1/1");
    session.send("M-p");
    await session.waitFor(present.notifyAllSwitched(false, "alt+p").slice(0, 50));
    await session.waitFor("permissions 0/1");
    session.prompt("go");
    await session.waitFor("ran unasked");
    expect(existsSync(join(session.cwd, "toggled.txt"))).toBe(true);
    session.send("M-p");
    await session.waitFor(present.notifyAllSwitched(true, "alt+p"));
    await session.waitFor("permissions 1/1");
  });

  test("keybindings.json rebinds toggle-all, as it rebinds pi's own keys", async () => {
    const session = await start([], { "agent/keybindings.json": JSON.stringify({ "permissionHooks.toggleAll": "f9" }) });
    await session.waitFor("permissions 1/1");
    session.send("M-p", "F9");
    await session.waitFor(present.notifyAllSwitched(false, "f9").slice(-40));
    await session.waitFor("permissions 0/1");
  });

  test("/fork from after the change: the new session keeps the hook off", async () => {
    const session = await start([{ text: "first answer" }, { text: "second answer" }]);
    session.prompt("hello");
    await session.waitFor("first answer");
    session.prompt("/permissions disable");
    await session.waitFor("permissions 0/1");
    session.prompt("second");
    await session.waitFor("second answer");
    session.prompt("/fork");
    await session.waitFor("Fork from Message");
    session.send("Enter");
    await session.waitFor("Forked to new session");
    // The fork reloads extensions, the scripted model's call count with them.
    session.setScript([bash("echo gate | tee forked.txt"), { text: "ran in the fork" }]);
    session.send("Enter");
    await session.waitFor("ran in the fork");
    expect(existsSync(join(session.cwd, "forked.txt"))).toBe(true);
    expect(session.screen()).toContain("permissions 0/1");
  });
});
