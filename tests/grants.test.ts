// Grants: the rule a grant saves, where each scope keeps it, and what a grant in force lets through
// (README "Rules" and "Managing hooks").
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ExtensionContext, SessionManager } from "@earendil-works/pi-coding-agent";
import { evaluate, type Verdict } from "../lib/evaluator.ts";
import {
  commandGrantRule,
  GRANTS_ENTRY,
  Grants,
  grantFile,
  grantRule,
  takeGrantedCall,
  withGrant,
  withoutGrant,
} from "../lib/grants.ts";
import { type LoadedHook, loadPermissionModules } from "../lib/loader.ts";
import { grantProblems } from "../lib/presenter.ts";
import { parseShell } from "../lib/shell-parse.ts";
import { normalizeToolInput } from "../lib/tool-input.ts";

const TEMP = mkdtempSync(join(tmpdir(), "pph-grants-"));
afterAll(() => rmSync(TEMP, { recursive: true, force: true }));

function firstCommand(line: string) {
  const [command] = parseShell(line).commands;
  if (!command) throw new Error(`no command in ${line}`);
  return command;
}

describe("the rule a grant derives from a command", () => {
  test.each([
    ["git push origin main", "Bash(git push:*)"],
    ["git push", "Bash(git push:*)"],
    ["/usr/bin/git push -f", "Bash(git push:*)"],
    ["sudo git push", "Bash(git push:*)"],
    ["GIT_TRACE=1 git push", "Bash(git push:*)"],
    ["git -C repo push origin", "Bash(git -C repo push:*)"],
    ["git commit -m 'fix it'", "Bash(git commit:*)"],
    ["npm test", "Bash(npm test:*)"],
    ["ls -la", "Bash(ls:*)"],
    ["ls", "Bash(ls:*)"],
    ["rm -rf build", "Bash(rm -rf build:*)"],
    ["echo 'a b'", "Bash(echo 'a b':*)"],
    ['echo "it\'s"', "Bash(echo 'it'\\''s':*)"],
    ["echo '*'", "Bash(echo '*':*)"],
    ["constructor -v x", "Bash(constructor -v x:*)"],
    ["__proto__ -v x", "Bash(__proto__ -v x:*)"],
    ["toString x", "Bash(toString x:*)"],
    ["hasOwnProperty -v x", "Bash(hasOwnProperty -v x:*)"],
  ])("%s → %s, which matches the command it came from", (line, rule) => {
    expect(commandGrantRule(firstCommand(line))).toBe(rule);
  });

  test.each([
    ["$GIT push", "the program is known only at run time"],
    ["git $SUB x", "the subcommand is known only at run time"],
    ["echo 'a:*'", "a word the rule grammar can't hold"],
  ])("%s: none (%s)", (line) => {
    expect(commandGrantRule(firstCommand(line))).toBeUndefined();
  });
});

/** Loads these permission files as a user's, and evaluates a call through them. */
async function loaded(files: Record<string, unknown>, grants?: Grants) {
  const dir = mkdtempSync(join(TEMP, "perm-"));
  for (const [name, content] of Object.entries(files))
    writeFileSync(join(dir, name), typeof content === "string" ? content : JSON.stringify(content));
  const result = await loadPermissionModules({ user: dir }, grants && (() => grants.inForce()));
  grants?.track(result.hooks);
  return result;
}

function bash(command: string) {
  return normalizeToolInput("bash", { command }, TEMP);
}

async function requestOf(hooks: LoadedHook[], command: string) {
  const tool = bash(command);
  const verdict = await evaluate(hooks, { cwd: TEMP, tool });
  if (verdict?.kind === "block" || verdict === undefined) throw new Error(`no request for ${command}`);
  return { verdict, tool };
}

const MODULES = {
  "push.js": `export default (api) => api.matchCommand({ name: "push", program: ["git", "npm"], subcommands: ["push", "test"] });`,
  "words.js": `export default (api) => api.onToolUse({ name: "words", handler: ({ tool }) => tool.name === "bash" && tool.command.startsWith("echo") && api.request({ highlight: "rm" }) });`,
  "whole.js": `export default (api) => api.onToolUse({ name: "whole", handler: ({ tool }) => tool.name === "bash" && tool.command.startsWith("make") && api.request({ highlight: tool.commands[0] }) });`,
  "z-reads.js": `export default (api) => api.onToolUse({ name: "reads", handler: ({ tool }) => tool.name === "read" && api.request({ highlight: tool.path }) });`,
  "throws.js": `export default (api) => api.onToolUse({ name: "throws", handler: ({ tool }) => { if (tool.name === "bash" && tool.command === "boom") throw new Error("x"); } });`,
  "rules.json": { permissions: { ask: ["Bash(curl:*)", { rule: "Read(./secrets/**)", guidance: "Secrets." }] } },
};

describe("the rule a grant for a request saves", () => {
  test("a rule file's request: the asking rule as written; a module's: the first command whose program it highlights", async () => {
    const { hooks } = await loaded(MODULES);
    const rule = async (command: string) => {
      const { verdict, tool } = await requestOf(hooks, command);
      return grantRule(verdict as Exclude<Verdict, { kind: "block" }>, tool);
    };
    expect(await rule("curl -s x | sh")).toBe("Bash(curl:*)");
    expect(await rule("ls && git push origin && npm test")).toBe("Bash(git push:*)");
    expect(await rule("npm test && git push")).toBe("Bash(npm test:*)");
    expect(await rule("make all -j4")).toBe("Bash(make all:*)");
    const read = normalizeToolInput("read", { path: "secrets/key" }, TEMP);
    const fileVerdict = await evaluate(hooks, { cwd: TEMP, tool: read });
    expect(grantRule(fileVerdict as Exclude<Verdict, { kind: "block" }>, read)).toBe("Read(./secrets/**)");
  });

  test("none when nothing narrower than the hook can be named", async () => {
    const { hooks } = await loaded(MODULES);
    const rule = async (command: string) => {
      const { verdict, tool } = await requestOf(hooks, command);
      return grantRule(verdict as Exclude<Verdict, { kind: "block" }>, tool);
    };
    // The highlight marks an argument, not a program.
    expect(await rule("echo rm")).toBeUndefined();
    // A line the parser could not fully follow.
    expect(await rule('git push && bash -c "$CMD"')).toBeUndefined();
    // A hook that failed.
    expect(await rule("boom")).toBeUndefined();
    // A module's request about another tool.
    const read = normalizeToolInput("read", { path: "notes.txt" }, TEMP);
    const verdict = await evaluate(hooks, { cwd: TEMP, tool: read });
    expect(verdict?.kind).toBe("request");
    expect(grantRule(verdict as Exclude<Verdict, { kind: "block" }>, read)).toBeUndefined();
  });
});

describe("a rule file's grants, edited as text", () => {
  test("absent: created with the grant, formatted", () => {
    expect(withGrant(undefined, "Bash(git push:*)")).toBe('{\n  "grants": [\n    "Bash(git push:*)"\n  ]\n}\n');
  });

  test("present: the grant appended, every other key kept in its order", () => {
    const text = JSON.stringify({
      $schema: "x",
      permissions: { ask: ["Bash(npm publish:*)"] },
      grants: ["Bash(ls:*)"],
      examples: {},
    });
    expect(JSON.parse(withGrant(text, "Bash(git push:*)") as string)).toEqual({
      $schema: "x",
      permissions: { ask: ["Bash(npm publish:*)"] },
      grants: ["Bash(ls:*)", "Bash(git push:*)"],
      examples: {},
    });
    expect(Object.keys(JSON.parse(withGrant(text, "Bash(x)") as string))).toEqual([
      "$schema",
      "permissions",
      "grants",
      "examples",
    ]);
  });

  test("already granted: the text unchanged", () => {
    const text = '{"grants": ["Bash(git push:*)"]}';
    expect(withGrant(text, "Bash(git push:*)")).toBe(text);
  });

  test("revoked: removed as a string or a rule object, nothing else touched", () => {
    const text = JSON.stringify({
      permissions: { ask: ["Bash(git push:*)"] },
      grants: ["Bash(git push:*)", { rule: "Bash(git push:*)" }, "Bash(ls:*)"],
    });
    expect(JSON.parse(withoutGrant(text, "Bash(git push:*)") as string)).toEqual({
      permissions: { ask: ["Bash(git push:*)"] },
      grants: ["Bash(ls:*)"],
    });
  });

  test("a file that isn't a rule file is never written", () => {
    expect(withGrant("{ nope", "Bash(x)")).toEqual({ error: expect.stringContaining("it is not JSON (") });
    expect(withGrant("[1]", "Bash(x)")).toEqual({ error: grantProblems.notAnObject });
    expect(withGrant('{"grants": "Bash(x)"}', "Bash(y)")).toEqual({ error: grantProblems.grantsNotList });
    expect(withoutGrant('{"grants": 1}', "Bash(y)")).toEqual({ error: grantProblems.grantsNotList });
    expect(withGrant('{"permissions": 3}', "Bash(y)")).toEqual({
      error: grantProblems.notARuleFile('"permissions" must be an object'),
    });
  });
});

/** One extension instance on a pi session: its Grants record into that session. */
function instance(session: SessionManager, cwd = TEMP) {
  const ctx = { sessionManager: session, cwd } as unknown as ExtensionContext;
  const grants = new Grants({ appendEntry: (type, data) => void session.appendCustomEntry(type, data) });
  grants.restore(ctx);
  return { grants, ctx, rules: () => grants.list().map(({ rule, scope }) => `${scope} ${rule}`) };
}

/** A user message and the answer: pi writes a session file only once it holds an assistant message. */
function say(session: SessionManager, text: string): string {
  session.appendMessage({ role: "user", content: text, timestamp: Date.now() } as never);
  const usage = {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  return session.appendMessage({
    role: "assistant",
    content: [{ type: "text", text: `re: ${text}` }],
    api: "faux",
    provider: "faux",
    model: "faux",
    usage,
    stopReason: "stop",
    timestamp: Date.now(),
  } as never);
}

describe("branch grants: recorded in the session", () => {
  test("a grant appends one record of the branch's grants; granting it again records nothing", () => {
    const session = SessionManager.inMemory();
    const pi = instance(session);
    expect(pi.grants.save({ rule: "Bash(git push:*)", scope: "branch" }, pi.ctx)).toEqual({});
    expect(pi.grants.save({ rule: "Bash(git push:*)", scope: "branch" }, pi.ctx)).toEqual({});
    const records = session.getEntries().filter((entry) => entry.type === "custom");
    expect(records).toEqual([expect.objectContaining({ customType: GRANTS_ENTRY, data: { grants: ["Bash(git push:*)"] } })]);
    expect(pi.rules()).toEqual(["branch Bash(git push:*)"]);
  });

  test("a rule that isn't one is not saved", () => {
    const pi = instance(SessionManager.inMemory());
    expect(pi.grants.save({ rule: "Bash(git push:* x)", scope: "branch" }, pi.ctx)).toEqual({
      error: grantProblems.notARule("Bash(git push:* x)", '":*" may only end a pattern'),
    });
    expect(pi.grants.any()).toBe(false);
  });

  test("/reload and resume find the branch's grants; /tree before the grant has none; a revocation is recorded", () => {
    const dir = mkdtempSync(join(TEMP, "session-"));
    const session = SessionManager.create(dir, dir);
    const before = say(session, "one");
    const pi = instance(session);
    pi.grants.save({ rule: "Bash(git push:*)", scope: "branch" }, pi.ctx);
    pi.grants.save({ rule: "Bash(npm test:*)", scope: "branch" }, pi.ctx);
    const after = say(session, "two");
    expect(instance(session).rules()).toEqual(["branch Bash(git push:*)", "branch Bash(npm test:*)"]);
    expect(instance(SessionManager.open(session.getSessionFile() as string, dir)).rules()).toEqual([
      "branch Bash(git push:*)",
      "branch Bash(npm test:*)",
    ]);

    session.branch(before);
    pi.grants.restore(pi.ctx);
    expect(pi.rules()).toEqual([]);
    expect(pi.grants.any()).toBe(false);

    session.branch(after);
    pi.grants.restore(pi.ctx);
    expect(pi.grants.revoke({ rule: "Bash(git push:*)", scope: "branch" })).toBeUndefined();
    expect(instance(session).rules()).toEqual(["branch Bash(npm test:*)"]);
  });

  test("/fork carries the grants on the path it was forked from", () => {
    const dir = mkdtempSync(join(TEMP, "session-"));
    const session = SessionManager.create(dir, dir);
    const pi = instance(session);
    say(session, "one");
    pi.grants.save({ rule: "Bash(git push:*)", scope: "branch" }, pi.ctx);
    const forkPoint = say(session, "two");
    pi.grants.save({ rule: "Bash(rm:*)", scope: "branch" }, pi.ctx);
    const forked = SessionManager.open(session.getSessionFile() as string, dir);
    forked.createBranchedSession(forkPoint);
    expect(instance(forked).rules()).toEqual(["branch Bash(git push:*)"]);
  });

  test("a malformed record (hand-edited) keeps the strings; rules among them that don't parse are not in force", () => {
    const session = SessionManager.inMemory();
    session.appendCustomEntry(GRANTS_ENTRY, { grants: ["Bash(ls:*)", 7, "Bash(a:* b)"] });
    const pi = instance(session);
    expect(pi.rules()).toEqual(["branch Bash(ls:*)", "branch Bash(a:* b)"]);
    expect(pi.grants.inForce().map((set) => set.rules.map((rule) => rule.text))).toEqual([["Bash(ls:*)"]]);
    session.appendCustomEntry(GRANTS_ENTRY, "garbage");
    expect(instance(session).rules()).toEqual([]);
  });
});

describe("project and user grants: kept in the scope's grants.json", () => {
  test("project: created in <project>/.pi/permissions/grants.json, in force at once, revoked from the file", async () => {
    const project = mkdtempSync(join(TEMP, "project-"));
    const pi = instance(SessionManager.inMemory(), project);
    const file = join(project, ".pi", "permissions", "grants.json");
    expect(grantFile("project", project)).toBe(file);
    expect(pi.grants.save({ rule: "Bash(git push:*)", scope: "project" }, pi.ctx)).toEqual({ file });
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ grants: ["Bash(git push:*)"] });
    expect(pi.grants.list()).toEqual([{ rule: "Bash(git push:*)", scope: "project", file }]);
    expect(pi.grants.inForce()).toHaveLength(1);
    expect(pi.grants.revoke({ rule: "Bash(git push:*)", scope: "project", file })).toBeUndefined();
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ grants: [] });
    expect(pi.grants.any()).toBe(false);
  });

  test("user: appended to the agent dir's permissions/grants.json, the file's other content kept", () => {
    const agentDir = mkdtempSync(join(TEMP, "agent-"));
    const saved = process.env.PI_CODING_AGENT_DIR;
    process.env.PI_CODING_AGENT_DIR = agentDir;
    try {
      const file = join(agentDir, "permissions", "grants.json");
      mkdirSync(join(agentDir, "permissions"));
      writeFileSync(file, JSON.stringify({ permissions: { deny: ["Bash(rm -rf:*)"] }, grants: ["Bash(ls:*)"] }));
      const pi = instance(SessionManager.inMemory());
      expect(pi.grants.save({ rule: "Bash(npm test:*)", scope: "user" }, pi.ctx)).toEqual({ file });
      expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
        permissions: { deny: ["Bash(rm -rf:*)"] },
        grants: ["Bash(ls:*)", "Bash(npm test:*)"],
      });
    } finally {
      process.env.PI_CODING_AGENT_DIR = saved;
    }
  });

  test("a file that can't be used is left as it is, and the grant is not in force", () => {
    const project = mkdtempSync(join(TEMP, "project-"));
    mkdirSync(join(project, ".pi", "permissions"), { recursive: true });
    const file = join(project, ".pi", "permissions", "grants.json");
    writeFileSync(file, "{ not json");
    const pi = instance(SessionManager.inMemory(), project);
    const { error } = pi.grants.save({ rule: "Bash(git push:*)", scope: "project" }, pi.ctx);
    expect(error).toStartWith("it is not JSON (");
    expect(readFileSync(file, "utf8")).toBe("{ not json");
    expect(pi.grants.any()).toBe(false);
    expect(existsSync(`${file}.${process.pid}.tmp`)).toBe(false);
  });

  test("a loaded rule file's grants are listed with its scope and file, and revoked from it", async () => {
    const grants = new Grants({ appendEntry: () => {} });
    const { hooks } = await loaded(
      { "rules.json": { permissions: { ask: ["Bash(git push:*)"] }, grants: ["Bash(git push:*)", "Bash(ls:*)"] } },
      grants,
    );
    const file = hooks[0]?.source as string;
    expect(grants.list()).toEqual([
      { rule: "Bash(git push:*)", scope: "user", file },
      { rule: "Bash(ls:*)", scope: "user", file },
    ]);
    expect((await evaluate(hooks, { cwd: TEMP, tool: bash("git push") }))?.kind).toBeUndefined();
    expect(grants.revoke({ rule: "Bash(git push:*)", scope: "user", file })).toBeUndefined();
    expect(JSON.parse(readFileSync(file, "utf8")).grants).toEqual(["Bash(ls:*)"]);
    expect((await evaluate(hooks, { cwd: TEMP, tool: bash("git push") }))?.kind).toBe("request");
  });
});

describe("what a grant in force lets through", () => {
  const FILES = {
    "a-push.js": `export default (api) => api.matchCommand({ name: "push", program: "git", subcommands: ["push"] });`,
    "b-mirror.js": `export default (api) => api.onToolUse({ name: "mirror", handler: ({ tool }) => tool.name === "bash" && tool.command.includes("--mirror") && api.block("no mirrors") });`,
    "c-rules.json": { permissions: { deny: ["Bash(git push -f:*)"], ask: ["Bash(npm publish:*)"] } },
  };

  async function setUp(...rules: string[]) {
    const session = SessionManager.inMemory();
    const pi = instance(session);
    const { hooks } = await loaded(FILES, pi.grants);
    for (const rule of rules) pi.grants.save({ rule, scope: "branch" }, pi.ctx);
    return async (command: string) => {
      const tool = bash(command);
      const input = { cwd: TEMP, tool };
      const { verdict, granted } = await pi.grants.pass(await evaluate(hooks, input), hooks, input);
      return { kind: verdict?.kind, hook: verdict?.hook.name, granted };
    };
  }

  test("a module's request whose highlighted commands a grant covers: the hooks after it decide", async () => {
    const call = await setUp("Bash(git push:*)");
    expect(await call("git push origin")).toEqual({
      kind: undefined,
      hook: undefined,
      granted: { nameOfHook: "push", rule: "Bash(git push:*)" },
    });
    expect(await call("git status && git push origin")).toMatchObject({ kind: undefined, granted: { nameOfHook: "push" } });
  });

  test("deny beats a grant: a rule file's deny after the granted module still blocks", async () => {
    const call = await setUp("Bash(git push:*)");
    expect(await call("git push -f origin")).toEqual({
      kind: "block",
      hook: "c-rules.json",
      granted: { nameOfHook: "push", rule: "Bash(git push:*)" },
    });
    const granted = await setUp("Bash(git push -f:*)", "Bash(git push:*)");
    expect((await granted("git push -f")).kind).toBe("block");
  });

  test("a grant never silences a module's block", async () => {
    const call = await setUp("Bash(git push:*)");
    expect(await call("git push --mirror")).toMatchObject({ kind: "block", hook: "mirror" });
  });

  test("a request with a command no grant covers still asks", async () => {
    const call = await setUp("Bash(git push origin:*)");
    expect(await call("git push origin")).toMatchObject({ kind: undefined });
    expect(await call("git push upstream")).toEqual({ kind: "request", hook: "push", granted: undefined });
    expect(await call("git push origin && npm publish")).toMatchObject({ kind: "request", hook: "c-rules.json" });
  });

  test("a rule file's ask a grant covers: nothing decides, and the grant it used is told once", async () => {
    const call = await setUp("Bash(npm publish:*)");
    expect(await call("npm publish --tag next")).toEqual({
      kind: undefined,
      hook: undefined,
      granted: { nameOfHook: "c-rules.json", rule: "Bash(npm publish:*)" },
    });
    const tool = bash("npm publish");
    expect(takeGrantedCall(tool)).toBeUndefined();
  });

  test("no grant: the verdict passes through unchanged", async () => {
    const call = await setUp();
    expect(await call("git push")).toEqual({ kind: "request", hook: "push", granted: undefined });
    expect(await call("npm publish")).toEqual({ kind: "request", hook: "c-rules.json", granted: undefined });
  });
});
