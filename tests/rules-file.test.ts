// Rule files: their JSON, what is refused or reported, examples checked at load, and a rule file
// as one hook of the evaluator (README "Rules").
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { evaluate } from "../lib/evaluator.ts";
import { loadPermissionModules } from "../lib/loader.ts";
import * as present from "../lib/presenter.ts";
import { ruleProblems } from "../lib/presenter.ts";
import { parseRuleFile, type RuleFile } from "../lib/rules-file.ts";
import { normalizeToolInput } from "../lib/tool-input.ts";

const TEMP = mkdtempSync(join(tmpdir(), "pph-rules-"));
afterAll(() => rmSync(TEMP, { recursive: true, force: true }));

function parsed(json: unknown): RuleFile {
  const result = parseRuleFile(JSON.stringify(json));
  if ("error" in result) throw new Error(result.error);
  return result;
}

function error(text: string): string | undefined {
  const result = parseRuleFile(text);
  return "error" in result ? result.error : undefined;
}

describe("the file's shape", () => {
  test("a pasted Claude Code settings block loads; what pi has no use for is reported, entry by entry", () => {
    const file = parsed({
      $schema: "https://json.schemastore.org/claude-code-settings.json",
      env: { FOO: "1" },
      permissions: {
        allow: ["Bash(npm run lint)", "Bash(npm run test:*)", "Read(~/.zshrc)", "WebFetch(domain:github.com)"],
        ask: ["Bash(git push:*)"],
        deny: ["Bash(curl:*)", "Read(./.env)", "Read(./secrets/**)", "WebSearch"],
        defaultMode: "acceptEdits",
        additionalDirectories: ["../docs/"],
      },
    });
    expect(file.allow.rules.map((rule) => rule.text)).toEqual(["Bash(npm run lint)", "Bash(npm run test:*)", "Read(~/.zshrc)"]);
    expect(file.ask.rules.map((rule) => rule.text)).toEqual(["Bash(git push:*)"]);
    expect(file.deny.rules.map((rule) => rule.text)).toEqual(["Bash(curl:*)", "Read(./.env)", "Read(./secrets/**)"]);
    expect(file.unsupported).toEqual([
      { entry: "env", problem: ruleProblems.notRuleFileKey },
      { entry: "permissions.defaultMode", problem: ruleProblems.claudeSetting },
      { entry: "permissions.additionalDirectories", problem: ruleProblems.claudeSetting },
      { entry: "permissions.deny: WebSearch", problem: ruleProblems.toolPiLacks("WebSearch") },
      { entry: "permissions.allow: WebFetch(domain:github.com)", problem: ruleProblems.toolPiLacks("WebFetch") },
    ]);
  });

  test("a file that starts with a byte order mark (some editors write one) loads", () => {
    const file = parseRuleFile(`\uFEFF${JSON.stringify({ permissions: { ask: ["Bash(git push:*)"] } })}`);
    expect("error" in file ? file.error : file.ask.rules.map((rule) => rule.text)).toEqual(["Bash(git push:*)"]);
  });

  test.each([
    ["{", ruleProblems.notJson("JSON Parse error: Expected '}'")],
    ["[]", ruleProblems.notAnObject],
    ['{"permissions": []}', ruleProblems.permissionsNotObject],
    ['{"permissions": {"deny": "Bash(rm:*)"}}', ruleProblems.notAList("permissions.deny")],
    ['{"grants": {}}', ruleProblems.notAList("grants")],
    ['{"permissions": {"ask": ["Bash(git push"]}}', `permissions.ask: Bash(git push: ${ruleProblems.notARule}`],
    ['{"permissions": {"ask": [42]}}', `permissions.ask: 42: ${ruleProblems.notARuleEntry}`],
    [
      '{"permissions": {"ask": [{"rule": "Bash", "reason": 1}]}}',
      `permissions.ask: {"rule":"Bash","reason":1}: ${ruleProblems.notText("reason")}`,
    ],
    ['{"examples": []}', ruleProblems.examplesNotObject],
    ['{"examples": {"block": []}}', ruleProblems.notExampleKind("block")],
    ['{"examples": {"deny": [1]}}', ruleProblems.notAnExample("examples.deny", "1")],
  ])("%s is refused", (text, message) => {
    expect(error(text)).toBe(message);
  });

  test("an empty object is a file without rules", () => {
    expect(parsed({}).unsupported).toEqual([]);
  });
});

let dirCount = 0;
function permissionsDir(files: Record<string, unknown>): string {
  const dir = join(TEMP, `dir-${++dirCount}`, ".pi", "permissions");
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files))
    writeFileSync(join(dir, name), typeof content === "string" ? content : JSON.stringify(content));
  return dir;
}

describe("a rule file as a hook", () => {
  test("one hook named after the file, among modules in name order, listing its rules; deny blocks naming the rule", async () => {
    const dir = permissionsDir({
      "a.js": "export default (api) => api.onToolUse({ name: 'a', handler() {} });",
      "b-rules.json": { permissions: { deny: [{ rule: "Bash(rm -rf:*)", reason: "Never." }], ask: ["Bash(git push:*)"] } },
      "c.js": "export default (api) => api.onToolUse({ name: 'c', handler: () => api.block('c decides') });",
    });
    const { hooks, errors, warnings } = await loadPermissionModules({ user: dir });
    expect([errors, warnings]).toEqual([[], []]);
    expect(hooks.map((hook) => hook.name)).toEqual(["a", "b-rules.json", "c"]);
    const rules = hooks[1]!;
    expect(rules).toMatchObject({
      description: "Rules: 1 deny, 1 ask, 0 allow",
      tools: ["bash"],
      scope: "user",
      source: join(dir, "b-rules.json"),
    });
    const call = (command: string) => evaluate(hooks, { cwd: TEMP, tool: normalizeToolInput("bash", { command }, TEMP) });
    expect(await call("ls && rm -rf /")).toEqual({
      kind: "block",
      hook: rules,
      reason: present.ruleDenyReason("Bash(rm -rf:*)", "Never."),
    });
    expect(await call("ls")).toMatchObject({ kind: "block", hook: { name: "c" } });
    const asked = await call("git push");
    expect(asked).toMatchObject({
      kind: "request",
      hook: rules,
      prompt: { guidance: present.ruleAskGuidance("Bash(git push:*)", undefined) },
    });
  });

  test("the request's highlight is the commands that asked", async () => {
    const dir = permissionsDir({ "r.json": { permissions: { ask: ["Bash(git push:*)"] } } });
    const { hooks } = await loadPermissionModules({ user: dir });
    const verdict = await evaluate(hooks, { cwd: TEMP, tool: normalizeToolInput("bash", { command: "ls; git push" }, TEMP) });
    const highlight = verdict?.kind === "request" ? verdict.prompt.highlight : undefined;
    expect(typeof highlight === "function" && highlight("ls; git push")).toEqual([{ start: 4, end: 12 }]);
  });

  test("a file that can't be used is a load error naming it; unsupported entries are warnings; other files load", async () => {
    const dir = permissionsDir({
      "bad.json": "{ not json",
      "partly.json": { permissions: { deny: ["WebFetch", "Bash(curl:*)"], defaultMode: "plan" } },
    });
    const { hooks, errors, warnings } = await loadPermissionModules({ user: dir });
    expect(hooks.map((hook) => hook.name)).toEqual(["partly.json"]);
    expect(errors).toEqual([{ file: join(dir, "bad.json"), error: expect.stringMatching(/^not JSON \(/) }]);
    expect(warnings).toEqual([
      { file: join(dir, "partly.json"), error: `permissions.defaultMode: ${ruleProblems.claudeSetting}` },
      { file: join(dir, "partly.json"), error: `permissions.deny: WebFetch: ${ruleProblems.toolPiLacks("WebFetch")}` },
    ]);
    expect(present.notifyLoadError(join(dir, "bad.json"), "x")).toBe(`Rule file ${join(dir, "bad.json")} failed to load: x`);
  });

  test("examples: every one holds, or the file fails to load naming the example and what decided it", async () => {
    const permissions = {
      deny: ["Bash(rm -rf:*)"],
      ask: ["Bash(git push:*)", "Edit(./.env)"],
      allow: ["Bash(git push origin feature)"],
    };
    const good = permissionsDir({
      "r.json": {
        permissions,
        examples: {
          deny: ["cd x && rm -rf /"],
          ask: ["git push", "echo x > .env", { tool: "write", input: { path: ".env", content: "" } }],
          pass: ["git push origin feature", "git status"],
        },
      },
    });
    expect((await loadPermissionModules({ user: good })).errors).toEqual([]);
    const bad = permissionsDir({ "r.json": { permissions, examples: { pass: ["git status", "git push -f"] } } });
    expect((await loadPermissionModules({ user: bad })).errors).toEqual([
      { file: join(bad, "r.json"), error: ruleProblems.exampleDecided("git push -f", "pass", "ask", "Bash(git push:*)") },
    ]);
    const unmatched = permissionsDir({ "r.json": { permissions, examples: { deny: ["rm -r x"] } } });
    expect((await loadPermissionModules({ user: unmatched })).errors[0]?.error).toBe(
      'example rm -r x is listed under "deny", but no rule decides it',
    );
  });

  test("a project rule file's /x starts at the project; paths resolve symlinks and ..", async () => {
    const dir = permissionsDir({ "r.json": { permissions: { deny: ["Read(/.env)"] } } });
    const project = join(dir, "..", "..");
    mkdirSync(join(project, "sub"));
    symlinkSync(project, join(project, "link"));
    const { hooks } = await loadPermissionModules({ project: dir, user: join(TEMP, "none") });
    const read = (path: string) => evaluate(hooks, { cwd: project, tool: normalizeToolInput("read", { path }, project) });
    for (const path of [".env", "link/.env", "sub/../.env", "link/sub/../.env"]) expect((await read(path))?.kind).toBe("block");
    expect(await read("sub/.env")).toBeUndefined();
  });

  test("a write through a dangling symlink is caught where it lands: Edit(./.env) holds for link → .env before .env exists", async () => {
    const dir = permissionsDir({ "r.json": { permissions: { deny: ["Edit(./.env)"] } } });
    const project = join(dir, "..", "..");
    symlinkSync(join(project, ".env"), join(project, "harmless"));
    const { hooks } = await loadPermissionModules({ project: dir, user: join(TEMP, "none") });
    const bash = (command: string) => evaluate(hooks, { cwd: project, tool: normalizeToolInput("bash", { command }, project) });
    expect((await bash("echo TOKEN=x > harmless"))?.kind).toBe("block");
    expect(await bash("echo x > other")).toBeUndefined();
  });

  test("examples/rules.json loads, and its examples hold", async () => {
    const dir = permissionsDir({ "rules.json": readFileSync(join(import.meta.dir, "../examples/rules.json"), "utf8") });
    const { hooks, errors, warnings } = await loadPermissionModules({ user: dir });
    expect([errors, warnings, hooks.map((hook) => hook.description)]).toEqual([[], [], ["Rules: 6 deny, 5 ask, 2 allow"]]);
  });

  test("grants in any rule file exempt from every rule file's ask rules, never from deny; allow stays within its file", async () => {
    const project = permissionsDir({
      "rules.json": { permissions: { deny: ["Bash(git push -f:*)"], ask: ["Bash(git push:*)", "Bash(npm publish:*)"] } },
    });
    const user = permissionsDir({
      "grants.json": { grants: ["Bash(git push:*)"] },
      "mine.json": { permissions: { allow: ["Bash(npm publish:*)"] } },
    });
    const { hooks } = await loadPermissionModules({ project, user });
    const call = async (command: string) =>
      (await evaluate(hooks, { cwd: TEMP, tool: normalizeToolInput("bash", { command }, TEMP) }))?.kind;
    expect(await call("git push origin")).toBeUndefined();
    expect(await call("git push -f")).toBe("block");
    expect(await call("npm publish")).toBe("request");
    expect(hooks[1]?.description).toBe("Rules: 0 deny, 0 ask, 0 allow, 1 grant");
  });

  test("tools named like Object's properties: a rule names each as any other tool", async () => {
    const dir = permissionsDir({
      "r.json": { permissions: { deny: ["__proto__"], ask: ["toString", "Read(.env)"], allow: ["hasOwnProperty"] } },
    });
    const { hooks, errors } = await loadPermissionModules({ user: dir });
    expect(errors).toEqual([]);
    expect(hooks[0]?.tools).toEqual(expect.arrayContaining(["__proto__", "toString"]));
    const call = async (tool: string) => (await evaluate(hooks, { cwd: TEMP, tool: normalizeToolInput(tool, {}, TEMP) }))?.kind;
    expect(await call("__proto__")).toBe("block");
    expect(await call("toString")).toBe("request");
    expect(await call("constructor")).toBeUndefined();
    expect(await call("hasOwnProperty")).toBeUndefined();
  });

  test("a file with only allow rules never runs", async () => {
    const dir = permissionsDir({ "r.json": { permissions: { allow: ["Bash"] } } });
    expect((await loadPermissionModules({ user: dir })).hooks[0]?.tools).toEqual([]);
  });
});
