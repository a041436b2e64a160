/**
 * `bun run demo`: real pi in this terminal, with the bundle, examples/git-interference.ts and a
 * scripted model, inside a throwaway git repo. No API key, no network; the temp dir goes at exit.
 *
 * PI_HOOKS_DEMO_DIR=<dir> runs the demo in <dir> instead of a temp dir, and leaves it there.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DEMO_MODEL, DEMO_PROVIDER } from "./demo-model.ts";

const REPO_ROOT = resolve(import.meta.dir, "..");
const PI_CLI = join(REPO_ROOT, "node_modules/@earendil-works/pi-coding-agent/dist/cli.js");
const PASSED_ENV = [
  "PATH",
  "TERM",
  "COLORTERM",
  "TERM_PROGRAM",
  "TERM_PROGRAM_VERSION",
  "TMUX",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  "TMPDIR",
  "EDITOR",
  "VISUAL",
];

const keptDir = process.env.PI_HOOKS_DEMO_DIR;
const root = keptDir ? resolve(keptDir) : mkdtempSync(join(tmpdir(), "pi-hooks-demo-"));
const removeRoot = () => {
  if (!keptDir) rmSync(root, { recursive: true, force: true });
};
process.on("exit", removeRoot);

const agentDir = join(root, "agent");
const repo = join(root, "repo");
prepareAgentDir();
createRepo();
const pi = startPi();
forwardSignals(pi);
pi.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

function prepareAgentDir(): void {
  mkdirSync(join(agentDir, "permissions"), { recursive: true });
  copyFileSync(join(REPO_ROOT, "examples/git-interference.ts"), join(agentDir, "permissions/git-interference.ts"));
  const settings = { defaultProvider: DEMO_PROVIDER, defaultModel: DEMO_MODEL, quietStartup: true };
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify(settings, null, 2));
}

function createRepo(): void {
  mkdirSync(repo, { recursive: true });
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("config", "user.name", "Demo");
  git("config", "user.email", "demo@example.invalid");
  writeFileSync(join(repo, "README.md"), "# Demo project\n\nA throwaway repo for the pi-permission-hooks demo.\n");
  git("add", "README.md");
  git("commit", "-q", "-m", "Initial commit");
}

function startPi(): ChildProcess {
  const extensions = [join(REPO_ROOT, "dist/hooks.js"), join(REPO_ROOT, "scripts/demo-model.ts")];
  // --no-install: Bun never fetches a missing package from the registry. --no-session: nothing to resume later.
  const args = ["--no-install", PI_CLI, "--no-session", ...extensions.flatMap((path) => ["-e", path])];
  return spawn(process.execPath, args, { cwd: repo, env: piEnv(), stdio: "inherit" });
}

function piEnv(): Record<string, string> {
  const passed = Object.fromEntries(
    PASSED_ENV.flatMap((key) => (process.env[key] === undefined ? [] : [[key, process.env[key] as string]])),
  );
  return {
    ...passed,
    HOME: root,
    PI_CODING_AGENT_DIR: agentDir,
    PI_OFFLINE: "1",
    PI_SKIP_VERSION_CHECK: "1",
    PI_TELEMETRY: "0",
    // Bun keeps its transpiler cache under HOME; reusing the repo's makes startup faster.
    BUN_RUNTIME_TRANSPILER_CACHE_PATH: join(REPO_ROOT, ".cache/bun-transpiler"),
  };
}

/** pi owns the terminal: a signal that reaches this process goes on to pi, and exit follows pi's. */
function forwardSignals(child: ChildProcess): void {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => child.kill(signal));
  }
}
