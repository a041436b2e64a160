// Permission modules and rule files that travel with a pi package: a local package installed with
// `pi install <path>` gates a call, its scope is shown, a module made later that its manifest's glob
// matches gates without /reload, and its settings entry's filter turns it off.
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as present from "../../lib/presenter.ts";
import { type PiSandbox, runPiPrint, type ScriptStep } from "./harness.ts";
import { describeEachPi, promptReady, toolResult } from "./prompt.ts";

const DIST = join(import.meta.dir, "../../dist/hooks.js");
const HOOK = "Deploy gate";

/**
 * A package providing one module through its manifest and nothing else: `"extensions": []`, or pi
 * 1.x loads a local folder without pi resources as an extension.
 */
const PACKAGE_FILES: Record<string, string> = {
  "package.json": JSON.stringify({
    name: "deploy-gates",
    keywords: ["pi-package"],
    pi: { extensions: [], permissions: ["gates"] },
  }),
  "gates/deploy.js": `export default (api) => api.onToolUse({
  name: ${JSON.stringify(HOOK)},
  description: "Touching a file is a deployment here.",
  tools: ["bash"],
  handler: ({ tool }) => tool.commands.some((command) => command.programName === "touch") && api.request(),
});
`,
};

const touching = (file: string): ScriptStep[] => [
  { toolCalls: [{ name: "bash", arguments: { command: `touch ${file}` } }] },
  { text: `touched ${file}` },
];

/** Writes the package beside the project and installs it as a user would; returns the source pi recorded. */
function installPackage(sandbox: PiSandbox, files = PACKAGE_FILES, folder = "deploy-gates"): string {
  const dir = join(sandbox.root, folder);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  const output = execFileSync(process.execPath, ["--no-install", sandbox.install.cli, "install", dir], {
    cwd: sandbox.cwd,
    env: sandbox.env,
    encoding: "utf8",
    timeout: 30_000,
  });
  expect(output).toContain("Installed");
  return settingsOf(sandbox).packages[0];
}

function settingsOf(sandbox: PiSandbox) {
  return JSON.parse(readFileSync(join(sandbox.agentDir, "settings.json"), "utf8"));
}

describeEachPi("package permissions", (suite) => {
  test("a package's module gates a call; the prompt and the dry run name the package", async () => {
    let source = "";
    const pi = await suite.start({
      script: touching("deployed.txt"),
      extensions: [DIST],
      setup: (sandbox) => {
        source = installPackage(sandbox);
      },
    });
    pi.prompt("deploy");
    const screen = await promptReady(pi, HOOK);
    expect(screen).toContain(present.promptHookScope(`package:${source}`)!);
    pi.send("Enter");
    expect((await toolResult(pi)).isError).toBe(false);
    expect(existsSync(join(pi.cwd, "deployed.txt"))).toBe(true);

    const dryRun = await runPiPrint({
      version: suite.version,
      prompt: "/permissions test touch x",
      extensions: [DIST],
      setup: (sandbox) => void installPackage(sandbox),
    });
    try {
      expect(`${dryRun.stdout}${dryRun.stderr}`).toContain(
        `Decided by ${HOOK} (package:${source} module ~/deploy-gates/gates/deploy.js): asks`,
      );
    } finally {
      dryRun.sandbox.remove();
    }
  });

  test("a module made in the package's root that its manifest's glob matches gates the next call, without /reload", async () => {
    let root = "";
    const pi = await suite.start({
      script: touching("deployed.txt"),
      extensions: [DIST],
      settings: { tuiMode: "regular" },
      setup: (sandbox) => {
        root = join(sandbox.root, "root-gates");
        installPackage(
          sandbox,
          {
            "package.json": JSON.stringify({
              name: "root-gates",
              keywords: ["pi-package"],
              pi: { extensions: [], permissions: ["gate-*.js"] },
            }),
            "gate-quiet.js": `export default (api) => api.onToolUse({ name: "Quiet gate", handler() {} });\n`,
          },
          "root-gates",
        );
      },
    });
    await pi.waitFor("permissions 1/1");
    writeFileSync(join(root, "gate-deploy.js"), PACKAGE_FILES["gates/deploy.js"]!);
    await pi.waitFor("permissions 2/2");
    pi.prompt("deploy");
    await promptReady(pi, HOOK);
    pi.send("Enter");
    expect((await toolResult(pi)).isError).toBe(false);
  });

  test('the package\'s settings entry with "permissions": [] turns them off; without it they gate', async () => {
    const run = (filter: boolean) =>
      runPiPrint({
        version: suite.version,
        prompt: "deploy",
        script: touching("deployed.txt"),
        extensions: [DIST],
        setup: (sandbox) => {
          const source = installPackage(sandbox);
          if (!filter) return;
          const settings = settingsOf(sandbox);
          settings.packages = [{ source, permissions: [] }];
          writeFileSync(join(sandbox.agentDir, "settings.json"), JSON.stringify(settings));
        },
      });
    const gated = await run(false);
    const filtered = await run(true);
    try {
      expect(JSON.stringify(gated.records[1]?.messages)).toContain(JSON.stringify(present.agentNoUi(HOOK)).slice(1, -1));
      expect(existsSync(join(gated.sandbox.cwd, "deployed.txt"))).toBe(false);
      expect(existsSync(join(filtered.sandbox.cwd, "deployed.txt"))).toBe(true);
      expect(`${filtered.stdout}${filtered.stderr}`).not.toContain(HOOK);
    } finally {
      gated.sandbox.remove();
      filtered.sandbox.remove();
    }
  });
});
