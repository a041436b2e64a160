// The authoring skill in a real pi session: the package installed with `pi install`, the Approver
// types `/skill:permission-author <policy>`, and pi hands the model the skill with the policy. The
// model is scripted to do what the skill says (write a rule file in the user's scope, prove it with
// `pi -p "/permissions test …"`); pi, the skill's expansion, the tools and every dry run are real.
// The README's transcript is this session's on the newest pi, rendered by `transcript` below.
import { expect, test } from "bun:test";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type ModelCallRecord, PI_VERSIONS, type PiSandbox, type RecordedMessage, type ScriptStep, textOf } from "./harness.ts";
import { describeEachPi } from "./prompt.ts";

const REPO = join(import.meta.dir, "../..");
/** What `pi install` of the package needs: its manifest, the bundle and the skill. */
const PACKAGE_FILES = ["package.json", "dist/hooks.js", "skills/permission-author/SKILL.md"];
const POLICY = "ask before the agent pushes to main, and never let it force-push";
const RULE_FILE = "permissions/push-to-main.json";
/** The user's agent folder as the README shows it; the sandbox's is `agent` in a temporary HOME. */
const SHOWN_AGENT_DIR = "~/.pi/agent";
const SANDBOX_AGENT_DIR = "~/agent";

const RULES = `{
  "permissions": {
    "ask": [
      { "rule": "Bash(git * push * main *)", "guidance": "Pushing to main: check the branch is reviewed." },
      { "rule": "Bash(git * push * *:main *)", "guidance": "Pushing to main: check the branch is reviewed." }
    ],
    "deny": [
      { "rule": "Bash(git * push * --force*)", "reason": "Force-pushing is not allowed; ask the user." },
      { "rule": "Bash(git * push * -f*)", "reason": "Force-pushing is not allowed; ask the user." },
      { "rule": "Bash(git * push * -*f *)", "reason": "Force-pushing is not allowed; ask the user." },
      { "rule": "Bash(git * push * +*)", "reason": "Force-pushing is not allowed; ask the user." }
    ]
  },
  "examples": {
    "ask": ["git push origin main", "cd repo && git push -u origin main", "git push origin HEAD:main", "git -C repo push origin main"],
    "deny": [
      "git push origin main --force",
      "git push -f origin feature",
      "git push -uf origin feature",
      "git push --force-with-lease origin feature",
      "git push origin +main"
    ],
    "pass": ["git push origin feature", "git push --follow-tags origin feature", "git push origin main-backup", "echo \\"git push origin main\\"", "git log main"]
  }
}
`;

const DRY_RUNS = [
  'pi -p "/permissions test git push origin main"',
  'pi -p "/permissions test git push origin main --force"',
  'pi -p "/permissions test git push origin feature"',
  `pi -p '/permissions test echo "git push origin main"'`,
].join("\n");

const SUMMARY = `I wrote ${SHOWN_AGENT_DIR}/${RULE_FILE}: it applies in every project. Its examples passed when it loaded, and the dry runs agree:

| command                      | expected | dry run                 |
| ---------------------------- | -------- | ----------------------- |
| git push origin main         | ask      | asks you                |
| git push origin main --force | deny     | blocks the call         |
| git push origin feature      | pass     | no hook or rule decides |
| echo "git push origin main"  | pass     | no hook or rule decides |

/permissions lists it, and switches it off for this branch if it gets in the way.`;

function script(agentDir: string): ScriptStep[] {
  return [
    {
      text: "A rule file says this without code. It goes in your permissions folder, so it holds in every project.",
      toolCalls: [{ name: "write", arguments: { path: join(agentDir, RULE_FILE), content: RULES } }],
    },
    {
      text: "Now the proof: a dry run of what must and must not be caught.",
      toolCalls: [{ name: "bash", arguments: { command: DRY_RUNS } }],
    },
    { text: SUMMARY },
  ];
}

/** Installs the package as a user would, and puts `pi` on the PATH the agent's bash tool sees. */
function setUp(sandbox: PiSandbox): void {
  const packageDir = join(sandbox.root, "pi-permission-hooks");
  for (const file of PACKAGE_FILES) {
    mkdirSync(dirname(join(packageDir, file)), { recursive: true });
    copyFileSync(join(REPO, file), join(packageDir, file));
  }
  const installed = Bun.spawnSync([process.execPath, "--no-install", sandbox.install.cli, "install", packageDir], {
    cwd: sandbox.cwd,
    env: sandbox.env,
  });
  expect(installed.stdout.toString()).toContain("Installed");

  const bin = join(sandbox.root, "bin");
  mkdirSync(bin);
  // The dry runs are pi's own, in print mode, outside the scripted session's record.
  const quoted = sandbox.command.map((part) => `'${part}'`).join(" ");
  writeFileSync(join(bin, "pi"), `#!/bin/sh\nexec env -u PI_E2E_SCRIPT -u PI_E2E_RECORD ${quoted} "$@"\n`);
  chmodSync(join(bin, "pi"), 0o755);
  sandbox.env.PATH = `${bin}:${sandbox.env.PATH}`;
  sandbox.setScript(script(sandbox.agentDir));
}

describeEachPi("the authoring skill", (suite) => {
  test("/skill:permission-author hands the model the skill; what it writes loads and the dry runs prove it", async () => {
    const pi = await suite.start({ setup: setUp });
    pi.prompt(`/skill:permission-author ${POLICY}`);
    const records = await pi.waitForRecord(3);

    const request = records[0]!.messages.findLast((message) => message.role === "user")!;
    expect(textOf(request)).toContain("# Writing permission hooks from a policy");
    expect(textOf(request)).toContain(POLICY);
    expect(readFileSync(join(pi.agentDir, RULE_FILE), "utf8")).toBe(RULES);

    const dryRuns = textOf(records[2]!.messages.findLast((message) => message.role === "toolResult")!);
    const decisions = dryRuns.split("Dry run of ").slice(1);
    expect(decisions.map((report) => report.split("\n")[2])).toEqual([
      `Decided by push-to-main.json (user rule file ${SANDBOX_AGENT_DIR}/${RULE_FILE}): asks you`,
      `Decided by push-to-main.json (user rule file ${SANDBOX_AGENT_DIR}/${RULE_FILE}): blocks the call`,
      "No hook or rule decides: the call would run.",
      "No hook or rule decides: the call would run.",
    ]);

    // The README shows the newest pi's session (pi 0.80's write tool words its result differently).
    if (suite.version !== PI_VERSIONS.at(-1)) return;
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    expect(readme).toContain(`A session in pi ${suite.version}, with the package installed by \`pi install\``);
    expect(readme).toContain(`\`\`\`text\n${transcript(records[2]!, pi)}\n\`\`\``);
  });
});

/** The session as the README shows it: what the Approver typed, then each message, the sandbox's paths as a user's. */
function transcript(record: ModelCallRecord, sandbox: PiSandbox): string {
  const lines = [`you: /skill:permission-author ${POLICY}`];
  for (const message of record.messages.slice(1)) lines.push("", ...messageLines(message));
  lines.push("", `agent: ${SUMMARY}`);
  return lines
    .join("\n")
    .replaceAll(sandbox.agentDir, SHOWN_AGENT_DIR)
    .replaceAll(`${SANDBOX_AGENT_DIR}/`, `${SHOWN_AGENT_DIR}/`)
    .replaceAll(sandbox.home, "~");
}

function messageLines(message: RecordedMessage): string[] {
  if (message.role === "toolResult") return [`  ⎿ ${textOf(message).trimEnd().replaceAll("\n", "\n    ")}`];
  if (message.role === "user") return [`you: ${textOf(message)}`];
  return message.content.flatMap((block) => {
    if (block.type === "text") return [`agent: ${block.text}`];
    if (block.type !== "toolCall") return [];
    const { path, content, command } = block.arguments as { path?: string; content?: string; command?: string };
    if (block.name === "write") return [`● write ${path}`, `    ${String(content).trimEnd().replaceAll("\n", "\n    ")}`];
    return [`● ${block.name}`, `    ${String(command).replaceAll("\n", "\n    ")}`];
  });
}
