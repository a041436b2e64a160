// Grants in real pi: saved for this branch and for the project with /permissions grant and at the
// prompt (ctrl+t, a scope), in force for what asked (a module's highlighted command, a rule file's
// ask), then revoked (README "Rules").
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as present from "../../lib/presenter.ts";
import { type PiSession, pollUntil } from "./harness.ts";
import { describeEachPi, promptReady } from "./prompt.ts";

const DIST = join(import.meta.dir, "../../dist/hooks.js");

/** Asks the agent to go, waits for the hook's prompt, and opens its grant step with ctrl+t. */
async function openGrantStep(pi: PiSession, hook: string): Promise<void> {
  await pi.waitFor("permissions 1/1");
  pi.prompt("go");
  await promptReady(pi, hook);
  pi.send("C-t");
  await pi.waitFor("enter authorize and save");
}

function bash(command: string) {
  return { toolCalls: [{ name: "bash", arguments: { command } }] };
}

/** Asks before every touch, highlighting the program. */
const TOUCH_MODULE = `export default (api) => api.matchCommand({ name: "touch", program: "touch" });`;

/** Asks before git init, highlighting the program and the subcommand: a grant at its prompt is Bash(git init:*). */
const INIT_MODULE = `export default (api) => api.matchCommand({ name: "git init", program: "git", subcommands: ["init"] });`;

/** What the screen shows, flattened: notices wrap. */
function flat(text: string): string {
  return text.replace(/\s+/g, " ");
}

describeEachPi("grants", (suite) => {
  async function waitForText(pi: Awaited<ReturnType<typeof suite.start>>, text: string) {
    await pollUntil(
      30_000,
      () => flat(pi.screen({ history: true })).includes(text),
      () => `"${text}" on screen:\n${pi.screen({ history: true })}`,
    );
  }

  test("for this branch: a module's command runs unasked, the log says by a grant; revoked, it asks again", async () => {
    const pi = await suite.start({
      script: [bash("touch a.txt"), { text: "done a" }, bash("touch b.txt"), { text: "done b" }],
      extensions: [DIST],
      files: { "agent/permissions/touch.js": TOUCH_MODULE },
      settings: { tuiMode: "regular" },
    });
    await pi.waitFor("permissions 1/1");
    pi.prompt("/permissions grant Bash(touch:*)");
    await waitForText(pi, present.notifyGranted("Bash(touch:*)", "branch", undefined));

    pi.prompt("go");
    await pi.waitFor("done a");
    expect(existsSync(join(pi.cwd, "a.txt"))).toBe(true);
    expect(pi.screen({ history: true })).not.toContain("Authorization required");
    pi.prompt("/permissions log");
    await waitForText(pi, "Authorized (by a grant, Bash(touch:*)) touch bash: touch a.txt");

    pi.prompt("/permissions revoke Bash(touch:*)");
    await waitForText(pi, present.notifyRevoked("Bash(touch:*)", ["this branch"]));
    pi.prompt("again");
    await promptReady(pi, "touch");
    expect(existsSync(join(pi.cwd, "b.txt"))).toBe(false);
    pi.send("Enter");
    await pi.waitFor("done b");
    expect(existsSync(join(pi.cwd, "b.txt"))).toBe(true);
  });

  test("for this project: saved in .pi/permissions/grants.json, in force after /reload; revoked from the file, it asks again", async () => {
    const rules = { permissions: { ask: ["Bash(touch:*)"] } };
    const pi = await suite.start({
      script: [bash("touch a.txt"), { text: "done a" }],
      extensions: [DIST],
      files: { "agent/permissions/rules.json": JSON.stringify(rules) },
      settings: { tuiMode: "regular" },
    });
    await pi.waitFor("permissions 1/1");
    pi.prompt("/permissions grant Bash(touch:*) --project");
    await waitForText(pi, "Granted Bash(touch:*) for this project (saved in");
    const file = join(pi.cwd, ".pi", "permissions", "grants.json");
    expect(readFileSync(file, "utf8")).toBe('{\n  "grants": [\n    "Bash(touch:*)"\n  ]\n}\n');

    pi.prompt("go");
    await pi.waitFor("done a");
    expect(existsSync(join(pi.cwd, "a.txt"))).toBe(true);

    pi.prompt("/permissions");
    await pi.waitFor("space toggle");
    expect(flat(pi.screen())).toContain("[x] Bash(touch:*)");
    expect(flat(pi.screen())).toContain("this project, ");
    pi.send("Escape");
    await pollUntil(
      15_000,
      () => !pi.screen().includes("space toggle"),
      () => `the overlay closed:\n${pi.screen()}`,
    );
    pi.setScript([bash("touch b.txt"), { text: "done b" }, bash("touch c.txt"), { text: "done c" }]);
    pi.prompt("/reload");
    await pi.waitFor("permissions 2/2");
    await pi.waitFor("Reloaded");
    pi.prompt("after reload");
    await pi.waitFor("done b");
    expect(existsSync(join(pi.cwd, "b.txt"))).toBe(true);
    expect(pi.screen({ history: true })).not.toContain("Authorization required");

    pi.prompt("/permissions revoke Bash(touch:*)");
    await waitForText(pi, "Revoked Bash(touch:*) (");
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ grants: [] });
    pi.prompt("once more");
    await promptReady(pi, "rules.json");
    pi.send("Enter");
    await pi.waitFor("done c");
    expect(existsSync(join(pi.cwd, "c.txt"))).toBe(true);
  });

  test("at the prompt: ctrl+t shows the rule and its scopes; this branch saves it, and the next such call runs unasked", async () => {
    const pi = await suite.start({
      script: [bash("git init -q one"), { text: "done one" }, bash("git init -q two"), { text: "done two" }],
      extensions: [DIST],
      files: { "agent/permissions/init.js": INIT_MODULE },
      settings: { tuiMode: "regular" },
    });
    await pi.waitFor("permissions 1/1");
    pi.prompt("go");
    await promptReady(pi, "git init");
    expect(flat(pi.screen())).toContain("ctrl+t don't ask again for Bash(git init:*)");
    pi.send("C-t");
    await pi.waitFor("enter authorize and save");
    const step = pi.screen();
    expect(step).toContain(present.GRANT_HEADING);
    expect(step).toContain("Bash(git init:*)");
    expect(step).toContain("→ 1. this branch");
    expect(step).toContain("2. this project");
    expect(step).toContain("3. everywhere");
    expect(existsSync(join(pi.cwd, "one"))).toBe(false);
    pi.send("Enter");
    await pi.waitFor("done one");
    expect(existsSync(join(pi.cwd, "one", ".git"))).toBe(true);
    await waitForText(pi, present.notifyGranted("Bash(git init:*)", "branch", undefined));

    pi.prompt("again");
    await pi.waitFor("done two");
    expect(existsSync(join(pi.cwd, "two", ".git"))).toBe(true);
    pi.prompt("/permissions log");
    await waitForText(pi, "Authorized (by you, granted Bash(git init:*)) git init bash: git init -q one");
    await waitForText(pi, "Authorized (by a grant, Bash(git init:*)) git init bash: git init -q two");
  });

  // pi preflights an assistant message's calls one by one; a codemode script's parallel calls queue
  // (pi 1.x: pi 0.80 has no codemode).
  if (!suite.version.startsWith("0."))
    test("at the prompt: a grant saved at the first of two queued prompts settles the second, which never shows", async () => {
      const code =
        'await Promise.all([tools.bash({ command: "git init -q one" }), tools.bash({ command: "git init -q two" })]);\nreturn "both";';
      const pi = await suite.start({
        script: [{ toolCalls: [{ name: "codemode", arguments: { code } }] }, { text: "done both" }],
        extensions: [DIST],
        files: { "agent/permissions/init.js": INIT_MODULE },
        settings: { tuiMode: "regular", defaultTools: ["+codemode"] },
      });
      await openGrantStep(pi, "git init");
      pi.send("Enter");
      await pi.waitFor("done both");
      expect(existsSync(join(pi.cwd, "one", ".git"))).toBe(true);
      expect(existsSync(join(pi.cwd, "two", ".git"))).toBe(true);
      pi.prompt("/permissions log");
      await waitForText(pi, "Authorized (by you, granted Bash(git init:*)) git init bash: git init -q one");
      await waitForText(pi, "Authorized (by a grant, Bash(git init:*)) git init bash: git init -q two");
    });

  test("at the prompt: a rule file's ask, granted for this project, lands in .pi/permissions/grants.json; esc first goes back to the choices", async () => {
    const rules = { permissions: { ask: ["Bash(touch:*)"] } };
    const pi = await suite.start({
      script: [bash("touch a.txt"), { text: "done a" }, bash("touch b.txt"), { text: "done b" }],
      extensions: [DIST],
      files: { "agent/permissions/rules.json": JSON.stringify(rules) },
      settings: { tuiMode: "regular" },
    });
    await openGrantStep(pi, "rules.json");
    pi.send("Escape");
    await pi.waitFor("esc abort");
    expect(pi.screen()).toContain("→ 1. Authorize");
    pi.send("C-t");
    await pi.waitFor("enter authorize and save");
    pi.send("Down");
    await pi.waitFor("→ 2. this project");
    pi.send("Enter");
    await pi.waitFor("done a");
    expect(existsSync(join(pi.cwd, "a.txt"))).toBe(true);
    const file = join(pi.cwd, ".pi", "permissions", "grants.json");
    expect(readFileSync(file, "utf8")).toBe('{\n  "grants": [\n    "Bash(touch:*)"\n  ]\n}\n');
    await waitForText(pi, "Granted Bash(touch:*) for this project (saved in");

    pi.prompt("again");
    await pi.waitFor("done b");
    expect(existsSync(join(pi.cwd, "b.txt"))).toBe(true);
  });
});
