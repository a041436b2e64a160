// `bun run demo` end to end: the script starts the devDependency pi itself; tmux plays the Approver.
import { afterAll, afterEach, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { FIRST_MESSAGE } from "../../scripts/demo-model.ts";
import { killAll, type PiSession, startPi } from "./harness.ts";

const REPO_ROOT = resolve(import.meta.dir, "../..");
const DEMO = [process.execPath, join(REPO_ROOT, "scripts/demo.ts")];
const DEV_PI_VERSION: string = JSON.parse(
  readFileSync(join(REPO_ROOT, "node_modules/@earendil-works/pi-coding-agent/package.json"), "utf8"),
).version;
const TIMEOUT = 60_000;

let pi: PiSession | undefined;
const scratchDirs: string[] = [];

afterEach(() => {
  pi?.kill();
  pi = undefined;
  for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
afterAll(killAll);

test(
  "the Approver edits the typo out of the commit message",
  async () => {
    const demoDir = scratch();
    pi = await startDemo({ PI_HOOKS_DEMO_DIR: demoDir });
    pi.send("Enter");

    await pi.waitFor("Authorization required: Git interference");
    await pi.waitFor("esc abort");
    pi.send("2");
    await pi.waitFor("Note to agent");
    // The editor opens with the cursor after the command's last line, `)"`; the message is two lines up.
    pi.send("Up", "Up", "C-a", "C-k");
    pi.type("fix wording in readme");
    await pi.waitFor("│ fix wording in readme");
    pi.send("Enter");
    await pi.waitFor("That's the demo.");

    const repo = join(demoDir, "repo");
    const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" });
    expect(git("log", "-1", "--format=%B").trim()).toBe("fix wording in readme");
    expect(git("status", "--porcelain")).toBe("");
    const transcript = pi.screen({ history: true });
    expect(transcript).toContain("Blocked by permission hook Git interference");
    expect(transcript).toContain("Edited by user via permission hook Git interference");
  },
  TIMEOUT,
);

test(
  "quitting the demo removes its temp dir",
  async () => {
    const tmp = scratch();
    pi = await startDemo({ TMPDIR: tmp });
    const demoDirs = () => readdirSync(tmp).filter((name) => name.startsWith("pi-hooks-demo-"));
    expect(demoDirs()).toHaveLength(1);

    pi.send("C-c"); // clears the prefilled message
    await pi.waitForGone(FIRST_MESSAGE);
    pi.send("C-c", "C-c"); // twice in a row quits
    expect(await pi.waitForExit()).toBe(0);
    expect(demoDirs()).toEqual([]);
  },
  TIMEOUT,
);

/** Runs `bun run demo` in tmux; it is ready once the demo model has prefilled the first message. */
function startDemo(env: Record<string, string>): Promise<PiSession> {
  return startPi({ version: DEV_PI_VERSION, command: DEMO, env, readyPattern: FIRST_MESSAGE });
}

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), "pi-hooks-demo-test-"));
  scratchDirs.push(dir);
  return dir;
}
