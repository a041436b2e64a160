// Rule files in real pi: deny, ask and allow, Edit over bash redirects, examples checked at load (README "Rules").
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import * as present from "../../lib/presenter.ts";
import { runPiPrint } from "./harness.ts";
import { describeEachPi, promptReady, toolResult } from "./prompt.ts";

const DIST = join(import.meta.dir, "../../dist/hooks.js");

function bash(command: string) {
  return { toolCalls: [{ name: "bash", arguments: { command } }] };
}

/** Asks for every git push, after rules.json in load order. */
const PUSH_MODULE = `export default (api) => api.onToolUse({
  name: "pushes",
  tools: ["bash"],
  handler: ({ tool }) => tool.commands.some((c) => c.programName === "git" && c.subcommand()?.text === "push") && api.request(),
});
`;

const RULES = {
  permissions: {
    deny: [{ rule: "Bash(rm -rf:*)", reason: "Never delete recursively." }, "Edit(./.env)", "Bash(touch no.txt)"],
    ask: [{ rule: "Bash(git push:*)", guidance: "Pushing publishes the branch." }, "Bash(touch:*)"],
    allow: ["Bash(touch ok.txt)", "Bash(touch no.txt)"],
  },
};

describeEachPi("rules", (suite) => {
  function start(script: Parameters<typeof suite.start>[0]["script"], rules: unknown = RULES) {
    return suite.start({ script, extensions: [DIST], files: { "agent/permissions/rules.json": JSON.stringify(rules) } });
  }

  test("a deny rule blocks a command inside a chain; the agent reads the rule and its reason", async () => {
    const pi = await start([bash("mkdir build && echo start && rm -rf build"), { text: "done" }]);
    pi.prompt("clean up");
    const result = await toolResult(pi);
    expect(result).toEqual({
      isError: true,
      text: present.agentHookBlock("rules.json", present.ruleDenyReason("Bash(rm -rf:*)", "Never delete recursively.")),
    });
    expect(existsSync(join(pi.cwd, "build"))).toBe(false);
    expect(pi.screen({ history: true })).not.toContain("Authorization required");
  });

  test("Edit(./.env) blocks a redirect into .env, from a cd'd subdirectory too", async () => {
    const pi = await start([
      bash("echo KEY=1 > .env"),
      bash("mkdir -p config && cd config && echo KEY=1 >> ../.env"),
      { text: "done" },
    ]);
    pi.prompt("write the env");
    expect(await toolResult(pi, 2)).toEqual({
      isError: true,
      text: present.agentHookBlock("rules.json", present.ruleDenyReason("Edit(./.env)", undefined)),
    });
    expect(await toolResult(pi, 3)).toEqual({
      isError: true,
      text: present.agentHookBlock("rules.json", present.ruleDenyReason("Edit(./.env)", undefined)),
    });
    expect(existsSync(join(pi.cwd, ".env"))).toBe(false);
  });

  test("an ask rule opens the prompt named after the rule file and the rule, the asking command highlighted", async () => {
    const pi = await start([bash("ls -la && git push origin main"), { text: "done" }]);
    pi.prompt("publish");
    const screen = await promptReady(pi, "rules.json");
    expect(screen).toContain(present.ruleAskGuidance("Bash(git push:*)", undefined));
    expect(screen).toContain("Pushing publishes the branch.");
    expect(screen).toContain("Rules: 3 deny, 2 ask, 2 allow");
    const styled = pi.screen({ escapes: true });
    expect(styled).toMatch(/\x1b\[[0-9;]*1[0-9;]*m(?:\x1b\[[0-9;]*m)*git push origin main/);
    expect(styled).not.toMatch(/\x1b\[[0-9;]*1[0-9;]*m(?:\x1b\[[0-9;]*m)*ls -la/);
    pi.send("Down", "Down", "Tab");
    pi.type("not today");
    pi.send("Enter");
    expect((await toolResult(pi)).text).toBe(present.agentAbort("rules.json", "not today"));
  });

  test("allow exempts a command from the file's ask rules, never from its deny rules", async () => {
    const pi = await start([bash("touch ok.txt"), bash("touch no.txt"), bash("touch other.txt"), { text: "done" }]);
    pi.prompt("touch files");
    expect(await toolResult(pi, 2)).toEqual({ isError: false, text: "(no output)" });
    expect(existsSync(join(pi.cwd, "ok.txt"))).toBe(true);
    expect(await toolResult(pi, 3)).toEqual({
      isError: true,
      text: present.agentHookBlock("rules.json", present.ruleDenyReason("Bash(touch no.txt)", undefined)),
    });
    await promptReady(pi, "rules.json");
    expect(pi.screen()).toContain(present.ruleAskGuidance("Bash(touch:*)", undefined));
    pi.send("Enter");
    await pi.waitFor("done");
    expect(existsSync(join(pi.cwd, "other.txt"))).toBe(true);
    expect(existsSync(join(pi.cwd, "no.txt"))).toBe(false);
  });

  test("an example the rules decide otherwise: the file doesn't load, one notice names the file, the example and the rule", async () => {
    const rules = { ...RULES, examples: { pass: ["git status"], ask: ["git push", "rm -rf x"] } };
    const pi = await start([], rules);
    const error = present.ruleProblems.exampleDecided("rm -rf x", "ask", "deny", "Bash(rm -rf:*)");
    await pi.waitFor("rules.json failed to load");
    expect(pi.screen().replace(/\s+/g, " ")).toContain(`rules.json failed to load: ${error}`);
    pi.prompt("/permissions");
    await pi.waitFor("Failed to load");
    expect(pi.screen()).toContain("✗ ~/agent/permissions/rules.json");
  });

  test("/permissions test: the deciding rule and the prompt it opens, what else matched; nothing runs, no model call", async () => {
    const pi = await suite.start({
      script: [],
      extensions: [DIST],
      files: { "agent/permissions/rules.json": JSON.stringify(RULES), "agent/permissions/z-push.js": PUSH_MODULE },
    });
    pi.prompt("/permissions test echo go > pushed.txt && git push origin main");
    const screen = (await pi.waitFor("Without a UI")).replace(/\s+/g, " ");
    for (const line of [
      "Dry run of bash: echo go > pushed.txt && git push origin main",
      "Decided by rules.json (user rule file ~/agent/permissions/rules.json): asks you",
      "! Authorization required: rules.json",
      "Asked by rule Bash(git push:*). Pushing publishes the branch.",
      "Highlighted: git push origin main",
      "Also matched, after it:",
      "pushes (user module ~/agent/permissions/z-push.js): asks you",
    ])
      expect(screen).toContain(line);
    expect(existsSync(join(pi.cwd, "pushed.txt"))).toBe(false);
    expect(pi.records()).toEqual([]);
  });

  test("/permissions test in print mode prints the report; a tool and its JSON arguments", async () => {
    const result = await runPiPrint({
      version: suite.version,
      prompt: '/permissions test write {"path": ".env", "content": "KEY=1"}',
      extensions: [DIST],
      files: { "agent/permissions/rules.json": JSON.stringify(RULES) },
    });
    try {
      expect(result.exitCode).toBe(0);
      expect(`${result.stdout}${result.stderr}`).toContain(
        [
          "Dry run of write: .env (1 line)",
          "Nothing runs.",
          "Decided by rules.json (user rule file ~/agent/permissions/rules.json): blocks the call",
          `    The agent reads: ${present.agentHookBlock("rules.json", present.ruleDenyReason("Edit(./.env)", undefined))}`,
        ].join("\n"),
      );
      expect(existsSync(join(result.sandbox.cwd, ".env"))).toBe(false);
      expect(result.records).toEqual([]);
    } finally {
      result.sandbox.remove();
    }
  });
});
