/**
 * Real-pi end-to-end harness: installs pinned pi versions, runs pi (under Bun) in a detached tmux
 * session or in print mode, with a scripted model (fixtures/faux-model.ts) that records every
 * context it is called with.
 *
 * Sandbox layout (one fresh temp dir per run):
 *   <root>/            HOME
 *   <root>/agent/      PI_CODING_AGENT_DIR (settings.json selects the faux model)
 *   <root>/project/    default cwd: a fresh git repo
 *   <root>/e2e/        script.json, records.jsonl, tmux.conf, tmux.sock
 */
import { execFile, execFileSync, spawn } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { ModelCallRecord, RecordedMessage, ScriptStep } from "./fixtures/script-types.ts";

export type { ModelCallRecord, RecordedMessage, ScriptStep, ScriptToolCall } from "./fixtures/script-types.ts";

export const PI_VERSIONS: string[] = parseVersions(process.env.PI_E2E_VERSIONS) ?? ["0.80.3", "1.6.0"];

export const FAUX_PROVIDER = "e2e-faux";
export const FAUX_MODEL = "faux-1";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const CACHE_DIR = join(REPO_ROOT, ".cache");
const FAUX_EXTENSION = join(REPO_ROOT, "tests/e2e/fixtures/faux-model.ts");
const PI_PACKAGES = ["pi-coding-agent", "pi-ai", "pi-tui", "pi-agent-core"].map((p) => `@earendil-works/${p}`);
const INSTALL_LOCK_STALE_MS = 10 * 60_000;
const POLL_MS = 50;
const DEFAULT_WAIT_MS = 15_000;
/** pi needs Node ≥ 22.19; the newest 22.x on the registry when this was written. */
const NODE_VERSION = "22.23.5";

/** Where Bun looks for packages to auto-install: nothing listens there (the discard port). */
export const NO_REGISTRY = "http://127.0.0.1:9/";

const execFileAsync = promisify(execFile);

// ---------------------------------------------------------------------------------------------
// Install

export interface PiInstall {
  version: string;
  /** Install prefix: <repo>/.cache/pi-<version> */
  dir: string;
  /** node_modules/@earendil-works/pi-coding-agent inside the prefix */
  packageDir: string;
  /** The package's `pi` command, as npm links it (pi 1.x: a bundle that embeds its packages); run it with Bun or Node */
  cli: string;
}

/** Installs pi `version` into the repo cache on first use (lock-guarded, atomic), then reuses it. */
export async function installPi(version: string): Promise<PiInstall> {
  const dir = join(CACHE_DIR, `pi-${version}`);
  const packageDir = join(dir, "node_modules/@earendil-works/pi-coding-agent");
  const manifest = join(packageDir, "package.json");
  await installCached(dir, Object.fromEntries(PI_PACKAGES.map((name) => [name, version])), manifest);
  const bin = (JSON.parse(readFileSync(manifest, "utf8")) as { bin: { pi: string } }).bin.pi;
  return { version, dir, packageDir, cli: join(packageDir, bin) };
}

/**
 * Node, the other runtime pi supports, from the npm registry's per-platform package; cached like pi.
 * Returns the path of its `node` binary.
 */
export async function installNode(): Promise<string> {
  const name = `node-${process.platform}-${process.arch}`;
  const dir = join(CACHE_DIR, `node-${NODE_VERSION}`);
  const bin = join(dir, "node_modules", name, "bin/node");
  await installCached(dir, { [name]: NODE_VERSION }, bin);
  return bin;
}

async function installCached(dir: string, dependencies: Record<string, string>, marker: string): Promise<void> {
  const installed = () => existsSync(join(dir, ".complete")) && existsSync(marker);
  if (installed()) return;
  mkdirSync(CACHE_DIR, { recursive: true });
  const releaseLock = await acquireLock(`${dir}.lock`);
  try {
    if (!installed()) await npmInstall(dir, dependencies);
  } finally {
    releaseLock();
  }
}

async function npmInstall(dir: string, dependencies: Record<string, string>): Promise<void> {
  const staging = `${dir}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, "package.json"), JSON.stringify({ private: true, dependencies }, null, 2));
  try {
    await execFileAsync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], {
      cwd: staging,
      maxBuffer: 16 * 1024 * 1024,
    });
    writeFileSync(join(staging, ".complete"), `${JSON.stringify(dependencies)}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`npm install of ${Object.keys(dependencies).join(", ")} failed: ${(error as Error).message}`);
  }
}

/** mkdir-based cross-process lock; taken over when its owner died or it is older than INSTALL_LOCK_STALE_MS. */
async function acquireLock(lockDir: string): Promise<() => void> {
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, "pid"), String(process.pid));
      return () => rmSync(lockDir, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (isStale(lockDir)) rmSync(lockDir, { recursive: true, force: true });
      else await sleep(500);
    }
  }
}

function isStale(lockDir: string): boolean {
  try {
    if (Date.now() - statSync(lockDir).mtimeMs > INSTALL_LOCK_STALE_MS) return true;
    const owner = Number(readFileSync(join(lockDir, "pid"), "utf8"));
    return owner > 0 && !isAlive(owner);
  } catch {
    return false; // lock just released, or its pid file not written yet
  }
}

// ---------------------------------------------------------------------------------------------
// Sandbox shared by interactive and print runs

export interface PiRunOptions {
  version: string;
  /** The runtime pi runs on: Bun (default) or Node (installed from the registry on first use). */
  runtime?: "bun" | "node";
  /** Scripted model responses; step N answers model call N, then the model says "done". */
  script?: ScriptStep[];
  /** Working directory for pi; default: a fresh git repo at <root>/project (removed on kill). */
  cwd?: string;
  /** Files to create, keyed by path relative to the sandbox root (= HOME), e.g. "agent/permissions/x.ts". */
  files?: Record<string, string | Uint8Array>;
  /** Files to create in the working directory, keyed by relative path. */
  projectFiles?: Record<string, string | Uint8Array>;
  /** Extension paths passed with `-e` (after the faux model). */
  extensions?: string[];
  /** Extension files copied into <agentDir>/extensions/ (auto-discovered by pi). */
  agentExtensions?: string[];
  /** Merged over the harness defaults in <agentDir>/settings.json. */
  settings?: Record<string, unknown>;
  env?: Record<string, string>;
  /** Extra pi CLI arguments. */
  args?: string[];
  /** Runs this instead of pi (e.g. a script that starts pi itself), with the sandbox env and cwd. */
  command?: string[];
  /** Runs once the sandbox exists, before pi starts: e.g. `pi install`, or files that need sandbox paths. */
  setup?: (sandbox: PiSandbox) => void | Promise<void>;
}

export interface PiSandbox {
  install: PiInstall;
  root: string;
  home: string;
  agentDir: string;
  cwd: string;
  scriptPath: string;
  recordPath: string;
  env: Record<string, string>;
  /** bun + pi arguments, without the mode-specific ones. */
  command: string[];
  /** Rewrites the model script; pi re-reads it on every model call. */
  setScript(steps: ScriptStep[]): void;
  /** Parsed model-call records so far. */
  records(): ModelCallRecord[];
  /** Removes the sandbox (idempotent). */
  remove(): void;
}

async function createSandbox(options: PiRunOptions): Promise<PiSandbox> {
  const install = await installPi(options.version);
  const root = mkdtempSync(join(tmpdir(), "pi-e2e-"));
  const agentDir = join(root, "agent");
  const e2eDir = join(root, "e2e");
  const ownsCwd = options.cwd === undefined;
  const cwd = options.cwd ?? join(root, "project");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(e2eDir, { recursive: true });
  if (ownsCwd) createGitRepo(cwd);

  writeFiles(root, options.files);
  writeFiles(cwd, options.projectFiles);
  copyAgentExtensions(agentDir, options.agentExtensions);
  writeSettings(agentDir, options.settings);

  const scriptPath = join(e2eDir, "script.json");
  const recordPath = join(e2eDir, "records.jsonl");
  const setScript = (steps: ScriptStep[]) => writeFileSync(scriptPath, JSON.stringify({ steps }, null, 2));
  setScript(options.script ?? []);
  writeFileSync(recordPath, "");

  let removed = false;
  const sandbox: PiSandbox = {
    install,
    root,
    home: root,
    agentDir,
    cwd,
    scriptPath,
    recordPath,
    env: piEnv({ home: root, agentDir, scriptPath, recordPath, extra: options.env }),
    command:
      options.command ??
      piCommand(install, options, copyFauxModel(e2eDir, install), options.runtime === "node" ? await installNode() : undefined),
    setScript,
    records: () => readRecords(recordPath),
    remove() {
      if (removed) return;
      removed = true;
      liveSandboxes.delete(sandbox);
      rmSync(root, { recursive: true, force: true });
    },
  };
  try {
    await options.setup?.(sandbox);
  } catch (error) {
    sandbox.remove();
    throw error;
  }
  return sandbox;
}

function createGitRepo(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "ignore" });
  git("init", "-q");
  git("config", "user.email", "e2e@example.invalid");
  git("config", "user.name", "pi e2e");
}

function writeFiles(baseDir: string, files: Record<string, string | Uint8Array> = {}): void {
  for (const [relativePath, content] of Object.entries(files)) {
    if (isAbsolute(relativePath)) throw new Error(`file path must be relative: ${relativePath}`);
    const path = join(baseDir, relativePath);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
}

function copyAgentExtensions(agentDir: string, paths: string[] = []): void {
  if (paths.length === 0) return;
  const extensionsDir = join(agentDir, "extensions");
  mkdirSync(extensionsDir, { recursive: true });
  for (const path of paths) copyFileSync(path, join(extensionsDir, basename(path)));
}

function writeSettings(agentDir: string, overrides: Record<string, unknown> = {}): void {
  const settings = {
    defaultProvider: FAUX_PROVIDER,
    defaultModel: FAUX_MODEL,
    // No project-trust prompt, even if a test puts .pi/ resources into the project.
    defaultProjectTrust: "always",
    ...overrides,
  };
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify(settings, null, 2));
}

function piEnv(paths: {
  home: string;
  agentDir: string;
  scriptPath: string;
  recordPath: string;
  extra?: Record<string, string>;
}): Record<string, string> {
  const inherited = pick(process.env, ["PATH", "LANG", "LC_ALL", "TZ", "TMPDIR"]);
  return {
    ...inherited,
    HOME: paths.home,
    PI_CODING_AGENT_DIR: paths.agentDir,
    PI_E2E_SCRIPT: paths.scriptPath,
    PI_E2E_RECORD: paths.recordPath,
    // No update checks, catalog refreshes, telemetry or fd/rg downloads.
    PI_OFFLINE: "1",
    PI_SKIP_VERSION_CHECK: "1",
    PI_TELEMETRY: "0",
    // No Bun process started here installs a package at run time: pi runs with --no-install, and
    // any other Bun (a tool call's, a test's own command) finds no registry to fetch from.
    BUN_CONFIG_REGISTRY: NO_REGISTRY,
    // Bun keeps its transpiler cache under HOME; sharing it across sandboxes halves startup.
    BUN_RUNTIME_TRANSPILER_CACHE_PATH: join(CACHE_DIR, "bun-transpiler"),
    ...paths.extra,
  };
}

/**
 * The scripted model, copied beside the packages of the pi under test: however pi or the runtime
 * resolves its `@earendil-works/pi-ai` import, it finds that pi's, never the repo's or the registry's.
 */
function copyFauxModel(e2eDir: string, install: PiInstall): string {
  const copy = join(e2eDir, basename(FAUX_EXTENSION));
  copyFileSync(FAUX_EXTENSION, copy);
  symlinkSync(join(install.dir, "node_modules"), join(e2eDir, "node_modules"));
  return copy;
}

function piCommand(install: PiInstall, options: PiRunOptions, fauxModel: string, node?: string): string[] {
  const extensionArgs = [fauxModel, ...(options.extensions ?? [])].flatMap((path) => ["-e", resolve(path)]);
  const args = [install.cli, ...extensionArgs, ...(options.args ?? [])];
  // --no-install: never let Bun auto-install packages from the registry at run time.
  return node ? [node, ...args] : [bunPath(), "--no-install", ...args];
}

function bunPath(): string {
  return process.versions.bun ? process.execPath : join(REPO_ROOT, "node_modules/.bin/bun");
}

function readRecords(recordPath: string): ModelCallRecord[] {
  if (!existsSync(recordPath)) return [];
  return readFileSync(recordPath, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as ModelCallRecord];
      } catch {
        return []; // a line still being written
      }
    });
}

// ---------------------------------------------------------------------------------------------
// Print mode

export interface PrintOptions extends PiRunOptions {
  prompt: string;
  timeoutMs?: number;
}

export interface PrintResult {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  records: ModelCallRecord[];
  durationMs: number;
  /** The sandbox, still on disk so the test can inspect files; call sandbox.remove() (or killAll()). */
  sandbox: PiSandbox;
}

/** Runs `pi -p <prompt>` to completion (no tmux). */
export async function runPiPrint(options: PrintOptions): Promise<PrintResult> {
  const sandbox = await createSandbox(options);
  liveSandboxes.add(sandbox);
  const [bin, ...args] = sandbox.command;
  const started = Date.now();
  const child = spawn(bin, [...args, "-p", options.prompt], {
    cwd: sandbox.cwd,
    env: sandbox.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exitCode = await collectExit(child, options.timeoutMs ?? 30_000, () => `stdout:\n${stdout}\nstderr:\n${stderr}`).catch(
    (error) => {
      sandbox.remove();
      throw error;
    },
  );
  return { stdout, stderr, exitCode, records: sandbox.records(), durationMs: Date.now() - started, sandbox };
}

function collectExit(child: ReturnType<typeof spawn>, timeoutMs: number, describe: () => string): Promise<number | null> {
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      killProcessTree(child.pid);
      reject(new Error(`pi -p did not exit within ${timeoutMs}ms\n${describe()}`));
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolvePromise(code);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Interactive mode in tmux

export interface StartOptions extends PiRunOptions {
  width?: number;
  height?: number;
  /** Screen text that means pi is ready for input; default: the faux model in the footer. null: don't wait. */
  readyPattern?: string | RegExp | null;
  readyTimeoutMs?: number;
}

export interface WaitOptions {
  timeoutMs?: number;
}

export interface ScreenOptions {
  /** Keep colors/attributes as escape sequences (capture-pane -e). */
  escapes?: boolean;
  /** Include the tmux scrollback, not just the visible screen. */
  history?: boolean;
}

export interface PiSession extends PiSandbox {
  version: string;
  /** Milliseconds from spawning pi until readyPattern was on screen (0 if not waited). */
  startupMs: number;
  /** tmux key names, e.g. "Enter", "Escape", "Tab", "BTab", "C-r", "Up", "Down". */
  send(...keys: string[]): void;
  /** Literal text (send-keys -l). */
  type(text: string): void;
  /** Resizes the terminal, as a user dragging the window would. */
  resize(width: number, height: number): void;
  /** Types a user message and presses Enter. */
  prompt(text: string): void;
  screen(options?: ScreenOptions): string;
  /** Polls the screen until it matches; returns that screen. */
  waitFor(pattern: string | RegExp, options?: WaitOptions & ScreenOptions): Promise<string>;
  /** Polls the screen until it no longer matches. */
  waitForGone(pattern: string | RegExp, options?: WaitOptions & ScreenOptions): Promise<string>;
  /** Waits until the model has been called at least `count` times; returns all records. */
  waitForRecord(count: number, options?: WaitOptions): Promise<ModelCallRecord[]>;
  /** The tool results at the end of the latest model context (what the model was just told). */
  lastToolResults(): Extract<RecordedMessage, { role: "toolResult" }>[];
  /** Exit status of pi once it has exited, else undefined. */
  exitCode(): number | undefined;
  waitForExit(options?: WaitOptions): Promise<number>;
  /** Kills tmux + pi and removes the sandbox. Idempotent. */
  kill(): void;
}

/** Starts interactive pi in a detached tmux session of fixed size and waits until it is ready. */
export async function startPi(options: StartOptions): Promise<PiSession> {
  const sandbox = await createSandbox(options);
  const session = createSession(sandbox, options);
  liveSandboxes.add(session);
  try {
    const started = Date.now();
    startTmux(session, options.width ?? 120, options.height ?? 40);
    const readyPattern = options.readyPattern === undefined ? new RegExp(`${FAUX_MODEL}\\s*$`, "m") : options.readyPattern;
    if (readyPattern !== null) {
      await session.waitFor(readyPattern, { timeoutMs: options.readyTimeoutMs ?? 20_000 });
      session.startupMs = Date.now() - started;
    }
    return session;
  } catch (error) {
    session.kill();
    throw error;
  }
}

function createSession(sandbox: PiSandbox, options: StartOptions): PiSession {
  const socket = join(sandbox.root, "e2e/tmux.sock");
  const tmux = (...args: string[]) => execFileSync("tmux", ["-S", socket, ...args], { encoding: "utf8" });
  const target = "pi";
  let killed = false;

  const session: PiSession = {
    ...sandbox,
    version: options.version,
    startupMs: 0,
    send: (...keys) => void tmux("send-keys", "-t", target, ...keys),
    type: (text) => void tmux("send-keys", "-t", target, "-l", text),
    resize: (width, height) => void tmux("resize-window", "-t", target, "-x", String(width), "-y", String(height)),
    prompt(text) {
      session.type(text);
      session.send("Enter");
    },
    screen({ escapes = false, history = false } = {}) {
      return tmux("capture-pane", "-p", "-t", target, ...(escapes ? ["-e"] : []), ...(history ? ["-S", "-"] : []));
    },
    waitFor: (pattern, opts = {}) =>
      pollScreen(session, opts, `screen to match ${pattern}`, (screen) => matches(screen, pattern)),
    waitForGone: (pattern, opts = {}) =>
      pollScreen(session, opts, `screen to stop matching ${pattern}`, (screen) => !matches(screen, pattern)),
    async waitForRecord(count, { timeoutMs = DEFAULT_WAIT_MS } = {}) {
      await pollUntil(
        timeoutMs,
        () => sandbox.records().length >= count,
        () =>
          `Timed out after ${timeoutMs}ms waiting for ${count} model call(s); got ${sandbox.records().length}.\n` +
          lastScreenReport(session),
      );
      return sandbox.records();
    },
    lastToolResults: () => trailingToolResults(sandbox.records().at(-1)),
    exitCode() {
      const format = "#{pane_dead}|#{pane_dead_status}|#{pane_dead_signal}|#{pid}";
      const [dead, status, signal, serverPid] = tmux("display-message", "-p", "-t", target, format).trim().split("|");
      // tmux marks the pane dead at pty EOF, and learns the status a moment later.
      if (dead !== "1") return undefined;
      if (status) return Number(status);
      if (signal) return 128 + Number(signal);
      // Under load tmux 3.3a can miss the SIGCHLD and leave pi a zombie with no status: nudge it.
      process.kill(Number(serverPid), "SIGCHLD");
      return undefined;
    },
    async waitForExit({ timeoutMs = DEFAULT_WAIT_MS } = {}) {
      await pollUntil(
        timeoutMs,
        () => session.exitCode() !== undefined,
        () => `Timed out after ${timeoutMs}ms waiting for pi to exit.\n${lastScreenReport(session)}`,
      );
      return session.exitCode() as number;
    },
    kill() {
      if (killed) return;
      killed = true;
      liveSandboxes.delete(session);
      killTmux(tmux, target);
      sandbox.remove();
    },
  };
  return session;
}

function startTmux(session: PiSession, width: number, height: number): void {
  const e2eDir = join(session.root, "e2e");
  const conf = join(e2eDir, "tmux.conf");
  writeFileSync(
    conf,
    [
      "set -g status off", // the pane gets the full height
      "set -g remain-on-exit on", // keep the last screen and exit status when pi exits
      "set -g history-limit 10000",
      "set -s escape-time 0",
      "set -s extended-keys on", // pi warns without it (modified Enter keys)
    ].join("\n"),
  );
  // The tmux server is started with the sandbox env only, so pi inherits nothing else.
  execFileSync(
    "tmux",
    [
      "-S",
      join(e2eDir, "tmux.sock"),
      "-f",
      conf,
      "new-session",
      "-d",
      "-s",
      "pi",
      "-x",
      String(width),
      "-y",
      String(height),
      "-c",
      session.cwd,
      "--",
      ...session.command,
    ],
    { env: session.env, stdio: "pipe" },
  );
}

function killTmux(tmux: (...args: string[]) => string, target: string): void {
  let panePid: number | undefined;
  try {
    panePid = Number(tmux("display-message", "-p", "-t", target, "#{pane_pid}").trim()) || undefined;
  } catch {
    // server already gone
  }
  // Snapshot before the kill: pi runs tool commands in their own process groups, so they survive
  // tmux's SIGHUP and would be re-parented away from pi.
  const processTree = panePid ? [panePid, ...descendantsOf(panePid)] : [];
  try {
    tmux("kill-server");
  } catch {
    // already gone
  }
  killProcesses(processTree);
}

/** SIGKILLs a process and everything it started (snapshot taken first). */
function killProcessTree(pid: number | undefined): void {
  if (pid) killProcesses([pid, ...descendantsOf(pid)]);
}

function killProcesses(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already exited
    }
  }
}

function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  const table = execFileSync("ps", ["-eo", "pid=,ppid="], { encoding: "utf8" });
  for (const line of table.trim().split("\n")) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const found: number[] = [];
  const visit = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      visit(child);
    }
  };
  visit(root);
  return found;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The text blocks of a recorded message, joined by newlines. */
export function textOf(message: RecordedMessage): string {
  const content = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
  return content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

function trailingToolResults(record: ModelCallRecord | undefined) {
  const results: Extract<RecordedMessage, { role: "toolResult" }>[] = [];
  for (const message of [...(record?.messages ?? [])].reverse()) {
    if (message.role !== "toolResult") break;
    results.unshift(message);
  }
  return results;
}

async function pollScreen(
  session: PiSession,
  { timeoutMs = DEFAULT_WAIT_MS, ...screenOptions }: WaitOptions & ScreenOptions,
  what: string,
  done: (screen: string) => boolean,
): Promise<string> {
  let screen = "";
  const check = () => {
    screen = session.screen(screenOptions);
    if (done(screen)) return true;
    if (safeExitCode(session) === undefined) return false;
    // pi exited: the screen can no longer change, so fail now rather than at the deadline.
    screen = session.screen(screenOptions);
    if (done(screen)) return true;
    throw new Error(`pi exited while waiting for ${what}.\n${lastScreenReport(session, screen)}`);
  };
  await pollUntil(
    timeoutMs,
    check,
    () => `Timed out after ${timeoutMs}ms waiting for ${what}.\n${lastScreenReport(session, screen)}`,
  );
  return screen;
}

function lastScreenReport(session: PiSession, screen?: string): string {
  let text = screen;
  try {
    text ??= session.screen();
  } catch (error) {
    text = `<no screen: ${(error as Error).message}>`;
  }
  const exit = safeExitCode(session);
  const exitNote = exit === undefined ? "" : ` (pi exited with ${exit})`;
  return `Last screen of pi ${session.version}${exitNote}:\n${"─".repeat(40)}\n${text.trimEnd()}\n${"─".repeat(40)}`;
}

function safeExitCode(session: PiSession): number | undefined {
  try {
    return session.exitCode();
  } catch {
    return undefined;
  }
}

function matches(screen: string, pattern: string | RegExp): boolean {
  return typeof pattern === "string" ? screen.includes(pattern) : pattern.test(screen);
}

/** Polls `done` every 50 ms; throws `describeTimeout()` once `timeoutMs` have passed. */
export async function pollUntil(timeoutMs: number, done: () => boolean, describeTimeout: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(describeTimeout());
    await sleep(POLL_MS);
  }
}

// ---------------------------------------------------------------------------------------------
// Cleanup of anything a test forgot

const liveSandboxes = new Set<PiSandbox | PiSession>();

/** Kills every session and removes every sandbox still alive (for afterAll / afterEach). */
export function killAll(): void {
  for (const item of [...liveSandboxes]) {
    liveSandboxes.delete(item);
    if ("kill" in item) item.kill();
    else item.remove();
  }
}

process.on("exit", killAll);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    killAll();
    process.kill(process.pid, signal);
  });
}

// ---------------------------------------------------------------------------------------------
// Small utilities

function parseVersions(value: string | undefined): string[] | undefined {
  const versions = value?.split(/[\s,]+/).filter(Boolean);
  return versions?.length ? versions : undefined;
}

function pick(env: NodeJS.ProcessEnv, keys: string[]): Record<string, string> {
  return Object.fromEntries(keys.flatMap((key) => (env[key] === undefined ? [] : [[key, env[key] as string]])));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolvePromise) => setTimeout(resolvePromise, ms));
}

// ---------------------------------------------------------------------------------------------
// RPC mode: a client driving `pi --mode rpc` over stdin/stdout

/** One JSON line pi wrote to stdout: a response, an event, or an extension_ui_request. */
export type RpcMessage = { type: string; [key: string]: unknown };

export interface PiRpc extends PiSandbox {
  version: string;
  /** Writes one command (or extension_ui_response) as a JSON line to pi's stdin. */
  send(message: Record<string, unknown>): void;
  /** Every message so far, in order. */
  messages(): RpcMessage[];
  /** The first message after the last one `next` returned that satisfies `match`; waits for it. */
  next(match: (message: RpcMessage) => boolean, options?: WaitOptions): Promise<RpcMessage>;
  /** Ends pi's stdin, as a client that disconnects. */
  disconnect(): void;
  /** Resolves with pi's exit code once it has exited. */
  exited(options?: WaitOptions): Promise<number | null>;
  /** Kills pi and removes the sandbox. Idempotent. */
  kill(): void;
}

/** Starts `pi --mode rpc` with the sandbox of the other modes; split on LF only, as the protocol asks. */
export async function startPiRpc(options: PiRunOptions): Promise<PiRpc> {
  const sandbox = await createSandbox(options);
  const [bin, ...args] = sandbox.command;
  const child = spawn(bin, [...args, "--mode", "rpc"], { cwd: sandbox.cwd, env: sandbox.env, stdio: ["pipe", "pipe", "pipe"] });
  const received: RpcMessage[] = [];
  let buffer = "";
  let stderr = "";
  let exitCode: number | null | undefined;
  let cursor = 0;
  let killed = false;
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffer += chunk;
    for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
      const line = buffer.slice(0, end).replace(/\r$/, "");
      buffer = buffer.slice(end + 1);
      if (line.trim() !== "") received.push(JSON.parse(line) as RpcMessage);
    }
  });
  child.stderr.on("data", (chunk) => (stderr += chunk));
  child.on("close", (code) => (exitCode = code));
  const report = () =>
    `pi ${options.version} --mode rpc${exitCode === undefined ? "" : ` (exited with ${exitCode})`}; last messages:\n` +
    `${received
      .slice(-8)
      .map((message) => JSON.stringify(message).slice(0, 400))
      .join("\n")}\nstderr:\n${stderr}`;
  const rpc: PiRpc = {
    ...sandbox,
    version: options.version,
    send: (message) => void child.stdin.write(`${JSON.stringify(message)}\n`),
    messages: () => [...received],
    async next(match, { timeoutMs = DEFAULT_WAIT_MS } = {}) {
      let found = -1;
      await pollUntil(
        timeoutMs,
        () => {
          found = received.findIndex((message, index) => index >= cursor && match(message));
          return found >= 0;
        },
        () => `Timed out after ${timeoutMs}ms waiting for an RPC message.\n${report()}`,
      );
      cursor = found + 1;
      return received[found] as RpcMessage;
    },
    disconnect: () => void child.stdin.end(),
    async exited({ timeoutMs = DEFAULT_WAIT_MS } = {}) {
      await pollUntil(
        timeoutMs,
        () => exitCode !== undefined,
        () => `Timed out after ${timeoutMs}ms waiting for pi to exit.\n${report()}`,
      );
      return exitCode ?? null;
    },
    kill() {
      if (killed) return;
      killed = true;
      liveSandboxes.delete(rpc);
      if (exitCode === undefined) killProcessTree(child.pid);
      sandbox.remove();
    },
  };
  liveSandboxes.add(rpc);
  return rpc;
}
