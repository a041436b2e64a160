// The ways into pi that the README documents, each against real pi: the bundle copied alone into
// the agent's extensions, `pi install` of a local clone, the `bun run dev` + /reload loop, and
// project modules that load only in a trusted project.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import * as present from "../../lib/presenter.ts";
import {
  installPi,
  killAll,
  PI_VERSIONS,
  type PiSandbox,
  type PiSession,
  pollUntil,
  runPiPrint,
  type ScriptStep,
  startPi,
} from "./harness.ts";

const REPO_ROOT = resolve(import.meta.dir, "../..");
const BUNDLE = join(REPO_ROOT, "dist/hooks.js");
const HOOK_NAME = "Touch gate";
const TIMEOUT = 60_000;
/** A build takes 11–15 s on an idle 2-core machine, more while other tests run. */
const BUILD_MS = 60_000;

/** A permission module that asks before any bash call that touches a file. */
function touchGate(description = "Creating files needs a yes."): string {
  return `export default function (api) {
  api.onToolUse({
    name: ${JSON.stringify(HOOK_NAME)},
    description: ${JSON.stringify(description)},
    handler({ tool }) {
      if (tool.name === "bash" && /\\btouch\\b/.test(tool.command)) return api.request();
    },
  });
}
`;
}

function touching(file: string): ScriptStep[] {
  return [{ toolCalls: [{ name: "bash", arguments: { command: `touch ${file}` } }] }, { text: `touched ${file}` }];
}

afterAll(killAll);

describe.each(PI_VERSIONS)("pi %s", (version) => {
  let pi: PiSession | undefined;
  const scratchDirs: string[] = [];

  beforeAll(async () => {
    await installPi(version);
  }, 300_000);

  afterEach(() => {
    pi?.kill();
    pi = undefined;
    for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  test(
    "dist/hooks.js copied alone into <agentDir>/extensions/ gates a bash call",
    async () => {
      pi = await startPi({
        version,
        agentExtensions: [BUNDLE],
        files: { "agent/permissions/touch.ts": touchGate() },
        script: touching("made.txt"),
      });
      expect(readdirSync(join(pi.agentDir, "extensions"))).toEqual(["hooks.js"]);

      await authorizeTouch(pi, "made.txt");
    },
    TIMEOUT,
  );

  test(
    "`pi install <local path>` of a clone records the path and gates a bash call",
    async () => {
      let installOutput = "";
      pi = await startPi({
        version,
        files: { "agent/permissions/touch.ts": touchGate() },
        script: touching("made.txt"),
        setup(sandbox) {
          const clone = join(sandbox.root, "pi-permission-hooks");
          copyClone(clone);
          installOutput = piCommand(sandbox, ["install", clone]);
        },
      });

      expect(installOutput).toContain("Installed");
      const settings = JSON.parse(readFileSync(join(pi.agentDir, "settings.json"), "utf8"));
      // A local path is recorded (relative to the settings file), not copied or npm-installed.
      expect(settings.packages.map((path: string) => resolve(pi!.agentDir, path))).toEqual([
        join(pi.root, "pi-permission-hooks"),
      ]);
      expect(existsSync(join(pi.root, "pi-permission-hooks/node_modules"))).toBe(false);
      expect(readdirSync(pi.agentDir).filter((name) => name === "npm" || name === "git")).toEqual([]);

      await authorizeTouch(pi, "made.txt");
    },
    TIMEOUT,
  );

  test(
    "dev loop: `bun run dev` rebuilds the bundle and /reload shows the edited source",
    async () => {
      const clone = scratch("pi-hooks-dev-");
      copyClone(clone);
      const watcher = await startWatcher(clone);
      try {
        pi = await startPi({
          version,
          extensions: [join(clone, "dist/hooks.js")],
          files: { "agent/permissions/touch.ts": touchGate() },
          script: touching("before.txt"),
        });
        const before = await authorizeTouch(pi, "before.txt");
        expect(before).not.toContain("Authorize now");

        const presenter = join(clone, "lib/presenter.ts");
        const source = readFileSync(presenter, "utf8");
        expect(source).toContain('authorize: "Authorize"');
        const built = readFileSync(join(clone, "dist/hooks.js"), "utf8");
        writeFileSync(presenter, source.replace('authorize: "Authorize"', 'authorize: "Authorize now"'));
        // The rebuild shows as a changed bundle; what it says, pi shows below.
        await pollUntil(
          BUILD_MS,
          () => readFileSync(join(clone, "dist/hooks.js"), "utf8") !== built,
          () => `bun run dev did not rebuild:\n${watcher.output()}`,
        );

        await reload(pi, touching("after.txt"));
        const after = await authorizeTouch(pi, "after.txt");
        expect(after).toContain("1. Authorize now");
      } finally {
        watcher.stop();
      }
    },
    // It waits for a whole build as well.
    2 * TIMEOUT,
  );

  // Under Bun the first load imports the folder's modules natively; Bun's resolver may not see a file
  // made since, and pi's loader imports it instead.
  const changes: [string, (permissions: string) => void][] = [
    ["edited", (permissions) => writeFileSync(join(permissions, "touch.ts"), touchGate("Second description."))],
    [
      "made, in place of the one removed,",
      (permissions) => {
        rmSync(join(permissions, "touch.ts"));
        writeFileSync(join(permissions, "touch-renamed.ts"), touchGate("Second description."));
      },
    ],
  ];
  for (const [what, change] of changes) {
    test(
      `/reload picks up a permission module ${what} between two prompts`,
      async () => {
        pi = await startPi({
          version,
          extensions: [BUNDLE],
          files: { "agent/permissions/touch.ts": touchGate("First description.") },
          script: touching("first.txt"),
        });
        expect(await authorizeTouch(pi, "first.txt")).toContain("First description.");

        change(join(pi.agentDir, "permissions"));
        await reload(pi, touching("second.txt"));
        expect(await authorizeTouch(pi, "second.txt")).toContain("Second description.");
      },
      2 * BUILD_MS + TIMEOUT,
    );
  }

  // `.pi/settings.json` makes pi resolve project trust itself; a project whose `.pi/` holds only
  // `permissions/` is one pi calls trusted without asking, so the extension asks (tests below).
  const projectWithModule = {
    ".pi/settings.json": "{}\n",
    ".pi/permissions/touch.ts": touchGate(),
  };

  test(
    "a project module is ignored while the project is untrusted",
    async () => {
      pi = await startPi({
        version,
        extensions: [BUNDLE],
        projectFiles: projectWithModule,
        settings: { defaultProjectTrust: "never" },
        script: touching("made.txt"),
      });
      pi.prompt("touch it");

      await pi.waitFor(/^\s*touched made\.txt\s*$/m);
      expect(existsSync(join(pi.cwd, "made.txt"))).toBe(true);
      expect(pi.screen({ history: true })).not.toContain("Authorization required");
    },
    TIMEOUT,
  );

  test(
    "a project module gates once the project is trusted",
    async () => {
      pi = await startPi({
        version,
        extensions: [BUNDLE],
        projectFiles: projectWithModule,
        settings: { defaultProjectTrust: "never" },
        script: touching("made.txt"),
        // The decision `/trust` (or the trust prompt) saves.
        setup: (sandbox) =>
          writeFileSync(join(sandbox.agentDir, "trust.json"), JSON.stringify({ [realpathSync(sandbox.cwd)]: true })),
      });

      await authorizeTouch(pi, "made.txt");
    },
    TIMEOUT,
  );

  test(
    "only .pi/permissions: the Approver is asked once; a yes loads them and is remembered",
    async () => {
      pi = await startPi({
        version,
        extensions: [BUNDLE],
        projectFiles: { ".pi/permissions/touch.ts": touchGate() },
        settings: { defaultProjectTrust: "ask" },
        script: touching("made.txt"),
      });
      await pi.waitFor(present.projectTrustTitle());
      pi.send("Enter");
      await pi.waitForGone(present.projectTrustTitle());
      await authorizeTouch(pi, "made.txt");
      const saved = JSON.parse(readFileSync(join(pi.agentDir, "trust.json"), "utf8"));
      expect(saved[realpathSync(pi.cwd)]).toBe(true);
    },
    TIMEOUT,
  );

  test(
    "only .pi/permissions, no UI to ask: not loaded, and said so",
    async () => {
      const run = await runPiPrint({
        version,
        prompt: "touch it",
        extensions: [BUNDLE],
        projectFiles: { ".pi/permissions/touch.ts": touchGate() },
        settings: { defaultProjectTrust: "ask" },
        script: touching("made.txt"),
      });
      try {
        expect(run.stderr).toContain(present.notifyProjectModulesSkipped(join(realpathSync(run.sandbox.cwd), ".pi/permissions")));
        expect(existsSync(join(run.sandbox.cwd, "made.txt"))).toBe(true);
      } finally {
        run.sandbox.remove();
      }
    },
    TIMEOUT,
  );

  function scratch(prefix: string): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    scratchDirs.push(dir);
    return dir;
  }
});

/** Asks for the scripted touch, waits for the prompt, authorizes it; returns the prompt's screen. */
async function authorizeTouch(pi: PiSession, file: string): Promise<string> {
  const calls = pi.records().length;
  pi.prompt(`touch ${file}`);
  await pi.waitFor(`Authorization required: ${HOOK_NAME}`);
  // The prompt ignores keys for its first moments; the full key hint means it listens.
  const screen = await pi.waitFor("esc abort");
  pi.send("Enter");
  await pi.waitForRecord(calls + 2);
  expect(existsSync(join(pi.cwd, file))).toBe(true);
  return screen;
}

/** `/reload` evaluates every extension afresh, the faux model too: its script restarts at step 1. */
async function reload(pi: PiSession, script: ScriptStep[]): Promise<void> {
  pi.setScript(script);
  pi.prompt("/reload");
  await pi.waitFor("Reloaded");
}

/** Copies what a clone of the repo has (tracked and new unignored files), so no node_modules. */
function copyClone(dest: string): void {
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
    cwd: REPO_ROOT,
    encoding: "utf8",
  })
    .split("\0")
    .filter((file) => file !== "" && existsSync(join(REPO_ROOT, file)));
  for (const file of files) {
    mkdirSync(dirname(join(dest, file)), { recursive: true });
    copyFileSync(join(REPO_ROOT, file), join(dest, file));
  }
}

/** Runs a pi subcommand (`install`, `list`, …) in the sandbox, with pi's own sandbox env. */
function piCommand(sandbox: PiSandbox, args: string[]): string {
  return execFileSync(process.execPath, ["--no-install", sandbox.install.cli, ...args], {
    cwd: sandbox.cwd,
    env: sandbox.env,
    encoding: "utf8",
    timeout: 30_000,
  });
}

interface Watcher {
  output(): string;
  stop(): void;
}

/** `bun run dev` in `dir`, once its first build is done. The clone has no node_modules: bun comes from ours. */
async function startWatcher(dir: string): Promise<Watcher> {
  const child: ChildProcess = spawn(process.execPath, ["run", "dev"], {
    cwd: dir,
    env: { PATH: `${join(REPO_ROOT, "node_modules/.bin")}:${process.env.PATH}`, HOME: dir },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group, so stop() also ends the `bun build` it starts
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const watcher: Watcher = {
    output: () => output,
    stop() {
      try {
        process.kill(-(child.pid as number), "SIGKILL");
      } catch {
        // already gone
      }
    },
  };
  try {
    await pollUntil(
      BUILD_MS,
      () => /built .*hooks\.js: \d+ bytes/.test(output),
      () => `bun run dev never finished its first build:\n${output}`,
    );
  } catch (error) {
    watcher.stop();
    throw error;
  }
  return watcher;
}
