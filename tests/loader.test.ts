import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { HookInput } from "../lib/api.ts";
import { evaluate } from "../lib/evaluator.ts";
import { describeError } from "../lib/failure.ts";
import { createPermissionsAPI, type LoadResult, loadPermissionModules } from "../lib/loader.ts";
import { normalizeToolInput } from "../lib/tool-input.ts";

const TEMP = mkdtempSync(join(tmpdir(), "pph-loader-"));
afterAll(() => rmSync(TEMP, { recursive: true, force: true }));

let dirCount = 0;
/** A fresh permissions directory holding the given files. */
function permissionsDir(files: Record<string, string> = {}): string {
  const dir = join(TEMP, `dir-${++dirCount}`);
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

/** A module registering hooks with the given names (and a handler that returns nothing). */
function registering(...names: string[]): string {
  return `export default function (api) {\n${names.map((name) => `  api.onToolUse({ name: ${JSON.stringify(name)}, handler() {} });`).join("\n")}\n}\n`;
}

const names = (result: LoadResult) => result.hooks.map((hook) => hook.name);
const INPUT: Omit<HookInput, "permissionRoot"> = {
  cwd: "/work/proj",
  tool: normalizeToolInput("bash", { command: "git commit -m x" }, "/work/proj"),
};

describe("module kinds", () => {
  test(".ts with only a type-only import of pi-permission-hooks loads (the import is erased)", async () => {
    const dir = permissionsDir({
      "git.ts": `import type { PermissionsAPI, HookInput } from "pi-permission-hooks";

interface Local { pattern: RegExp }
const local: Local = { pattern: /\\bgit\\s+commit\\b/ };

export default function (api: PermissionsAPI): void {
  api.onToolUse({
    name: "git commit",
    description: "Ask before the agent creates a commit.",
    handler(input: HookInput) {
      if (input.tool.name === "bash" && local.pattern.test((input.tool as { command: string }).command))
        return api.request({ guidance: "Check the message.", highlight: /git\\s+commit/ });
    },
  });
}
`,
    });
    const result = await loadPermissionModules({ user: dir });
    expect(result.errors).toEqual([]);
    expect(names(result)).toEqual(["git commit"]);
    expect(result.hooks[0]?.description).toBe("Ask before the agent creates a commit.");
    expect(await evaluate(result.hooks, INPUT)).toEqual({
      kind: "request",
      hook: result.hooks[0]!,
      prompt: { guidance: "Check the message.", highlight: /git\s+commit/ },
    });
  });

  test("a hook registered after its module finished loading is ignored, not thrown", async () => {
    const dir = permissionsDir({
      "a.js": `export default function (api) {
  api.onToolUse({ name: "on time", handler() {} });
  globalThis.lateRegistration = () => api.onToolUse({ name: "" });
}`,
    });
    const result = await loadPermissionModules({ user: dir });
    const late = (globalThis as { lateRegistration?: () => void }).lateRegistration;
    expect(late).toBeFunction();
    expect(() => late?.()).not.toThrow();
    expect(names(result)).toEqual(["on time"]);
  });

  test(".js and .mjs load", async () => {
    const dir = permissionsDir({ "a.js": registering("from js"), "b.mjs": registering("from mjs") });
    const result = await loadPermissionModules({ user: dir });
    expect(result.errors).toEqual([]);
    expect(names(result)).toEqual(["from js", "from mjs"]);
  });

  test("an async factory is awaited before the next module loads", async () => {
    const gate = globalThis as { factoryStarted?: () => void; factoryGate?: Promise<void> };
    let release = () => {};
    gate.factoryGate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const started = new Promise<void>((resolve) => {
      gate.factoryStarted = resolve;
    });
    const dir = permissionsDir({
      "a.ts": `export default async function (api) {
  globalThis.factoryStarted();
  await globalThis.factoryGate;
  api.onToolUse({ name: "late", handler() {} });
}`,
      "b.ts": registering("next"),
    });
    const loading = loadPermissionModules({ user: dir });
    // A loader that didn't wait would close the module's registration before "late" arrives.
    await started;
    release();
    expect(names(await loading)).toEqual(["late", "next"]);
  });

  test("a module registering several hooks keeps their order", async () => {
    const dir = permissionsDir({ "m.ts": registering("first", "second", "third") });
    expect(names(await loadPermissionModules({ user: dir }))).toEqual(["first", "second", "third"]);
  });

  test("a module registering nothing is fine", async () => {
    const dir = permissionsDir({ "m.ts": "export default function () {}" });
    expect(await loadPermissionModules({ user: dir })).toEqual({ hooks: [], errors: [], warnings: [] });
  });
});

describe("which files, in which order", () => {
  test("name order within a directory", async () => {
    const dir = permissionsDir({
      "b.ts": registering("b.ts"),
      "a.js": registering("a.js"),
      "c.mjs": registering("c.mjs"),
      "10-x.ts": registering("10-x.ts"),
      "2-y.ts": registering("2-y.ts"),
      "Z.ts": registering("Z.ts"),
    });
    expect(names(await loadPermissionModules({ user: dir }))).toEqual(["10-x.ts", "2-y.ts", "Z.ts", "a.js", "b.ts", "c.mjs"]);
  });

  test("project modules come before user modules, whatever their names", async () => {
    const project = permissionsDir({ "z.ts": registering("project z"), "y.ts": registering("project y") });
    const user = permissionsDir({ "a.ts": registering("user a") });
    const result = await loadPermissionModules({ project, user });
    expect(names(result)).toEqual(["project y", "project z", "user a"]);
  });

  test("scope, source and permissionRoot are set; only the hook's own fields are kept", async () => {
    const project = permissionsDir({
      "p.ts": `export default function (api) { api.onToolUse({ name: "p", description: "d", handler() {}, extra: 1 }); }`,
    });
    const user = permissionsDir({ "u.ts": registering("u") });
    const result = await loadPermissionModules({ project, user });
    const [p, u] = result.hooks;
    expect(Object.keys(p!).sort()).toEqual(["description", "handler", "name", "permissionRoot", "scope", "source"]);
    expect(p).toMatchObject({
      name: "p",
      description: "d",
      scope: "project",
      source: join(project, "p.ts"),
      permissionRoot: project,
    });
    expect(u).toMatchObject({
      name: "u",
      description: undefined,
      scope: "user",
      source: join(user, "u.ts"),
      permissionRoot: user,
    });
    expect(typeof p!.handler).toBe("function");
  });

  test("a description that is not a string is dropped", async () => {
    const dir = permissionsDir({
      "m.ts": `export default (api) => api.onToolUse({ name: "m", description: 42, handler() {} });`,
    });
    const [hook] = (await loadPermissionModules({ user: dir })).hooks;
    expect(hook?.description).toBeUndefined();
  });

  test("no project directory given: only user modules", async () => {
    const user = permissionsDir({ "u.ts": registering("u") });
    expect(names(await loadPermissionModules({ project: undefined, user }))).toEqual(["u"]);
  });

  test("declaration files, tsconfig.json, names starting with a dot, other extensions and subdirectories are ignored (.json files are rule files)", async () => {
    const willFail = 'throw new Error("must not be loaded");';
    const dir = permissionsDir({
      "types.d.ts": "export default function (api: unknown): void;",
      "tsconfig.json": '{ "compilerOptions": { "strict": true } }',
      "notes.md": "# notes",
      "old.cjs": willFail,
      "comp.tsx": willFail,
      "mod.mts": willFail,
      "mod.cts": willFail,
      "backup.ts~": willFail,
      "backup.ts.bak": willFail,
      ".swp": willFail,
      ".draft.ts": willFail,
      ".#real.ts": willFail,
      ".rules.json": "not JSON",
      "real.ts": registering("real"),
    });
    mkdirSync(join(dir, "sub"));
    writeFileSync(join(dir, "sub", "inner.ts"), registering("inner"));
    mkdirSync(join(dir, "dir.ts"));
    writeFileSync(join(dir, "dir.ts", "index.ts"), registering("dir index"));
    symlinkSync(join(dir, "missing-target.ts"), join(dir, "dangling.ts"));
    const result = await loadPermissionModules({ user: dir });
    expect(result.errors).toEqual([]);
    expect(names(result)).toEqual(["real"]);
  });

  test("a symlink to a module file loads", async () => {
    const elsewhere = permissionsDir({ "shared.ts": registering("shared") });
    const dir = permissionsDir();
    symlinkSync(join(elsewhere, "shared.ts"), join(dir, "linked.ts"));
    const result = await loadPermissionModules({ user: dir });
    expect(names(result)).toEqual(["shared"]);
    expect(result.hooks[0]?.source).toBe(join(dir, "linked.ts"));
  });

  test("missing directories are no error", async () => {
    expect(await loadPermissionModules({ user: join(TEMP, "does-not-exist") })).toEqual({ hooks: [], errors: [], warnings: [] });
    expect(await loadPermissionModules({ project: join(TEMP, "nope", "deeper"), user: join(TEMP, "nope2") })).toEqual({
      hooks: [],
      errors: [],
      warnings: [],
    });
    const user = permissionsDir({ "u.ts": registering("u") });
    expect(names(await loadPermissionModules({ project: join(TEMP, "no-project"), user }))).toEqual(["u"]);
  });

  test("a permissions path that is a file is no error", async () => {
    const dir = permissionsDir({ "file.txt": "x" });
    expect(await loadPermissionModules({ user: join(dir, "file.txt") })).toEqual({ hooks: [], errors: [], warnings: [] });
  });

  test("an empty directory", async () => {
    expect(await loadPermissionModules({ user: permissionsDir() })).toEqual({ hooks: [], errors: [], warnings: [] });
  });
});

describe("broken modules: one error each, naming the file; never a throw", () => {
  const BROKEN: Record<string, [content: string, error: string | RegExp]> = {
    "01-syntax.ts": ['export default function (api) { api.onToolUse({ name: "s", handler() {} }) ', /\S/],
    "02-throws-at-import.js": ['throw new Error("boom at import\\nsecond line");', "boom at import"],
    "03-no-default.mjs": ["export const hooks = [];", "its default export is not a function"],
    "04-default-object.ts": ["export default { onToolUse() {} };", "its default export is not a function"],
    "05-default-number.ts": ["export default 42;", "its default export is not a function"],
    "06-throws-registering.ts": [
      'export default function (api) { api.onToolUse({ name: "kept?", handler() {} }); throw new Error("registering failed"); }',
      "registering failed",
    ],
    "07-hook-without-name.ts": ["export default (api) => api.onToolUse({ handler() {} });", "a hook needs a name"],
    "08-hook-blank-name.ts": ['export default (api) => api.onToolUse({ name: "  ", handler() {} });', "a hook needs a name"],
    "09-hook-without-handler.ts": [
      'export default (api) => api.onToolUse({ name: "handless" });',
      'hook "handless" has no handler function',
    ],
    "10-handler-not-function.ts": [
      'export default (api) => api.onToolUse({ name: "h", handler: "allow" });',
      'hook "h" has no handler function',
    ],
    "11-hook-null.ts": ["export default (api) => api.onToolUse(null);", "onToolUse needs a hook object"],
    "12-hook-string.ts": ['export default (api) => api.onToolUse("git commit");', "onToolUse needs a hook object"],
    "13-async-rejects.ts": [
      'export default async function () { await null; throw new Error("async factory failed"); }',
      "async factory failed",
    ],
    "14-rejects-string.ts": ['export default () => Promise.reject("plain string reason");', "plain string reason"],
    "15-missing-import.ts": ['import { x } from "no-such-package-pph-xyz"; export default () => x;', /no-such-package-pph-xyz/],
    "16-throws-null-proto.ts": ["export default () => { throw Object.create(null); };", "[object Object]"],
    "17-throws-multiline-string.ts": ['export default () => { throw "line one\\nline two"; };', "line one"],
    "18-throws-empty-error.ts": ['export default () => { throw new TypeError(""); };', "TypeError"],
  };

  test("each broken module yields exactly its error, in name order, and good modules still load", async () => {
    const files = Object.fromEntries(Object.entries(BROKEN).map(([name, [content]]) => [name, content]));
    const dir = permissionsDir({ ...files, "00-good.ts": registering("good before"), "99-good.ts": registering("good after") });
    const result = await loadPermissionModules({ user: dir });
    expect(names(result)).toEqual(["good before", "good after"]);
    expect(result.errors.map((error) => error.file)).toEqual(Object.keys(BROKEN).map((name) => join(dir, name)));
    for (const [index, [name, [, expected]]] of Object.entries(BROKEN).entries()) {
      const { error } = result.errors[index]!;
      expect(typeof error, name).toBe("string");
      expect(error.includes("\n"), `${name}: ${error}`).toBe(false);
      if (typeof expected === "string") expect(error, name).toBe(expected);
      else expect(error, name).toMatch(expected);
    }
  });

  test("a module that throws after registering contributes no hooks", async () => {
    const dir = permissionsDir({
      "m.ts": 'export default function (api) { api.onToolUse({ name: "half", handler() {} }); throw new Error("x"); }',
    });
    const result = await loadPermissionModules({ user: dir });
    expect(result.hooks).toEqual([]);
    expect(result.errors).toEqual([{ file: join(dir, "m.ts"), error: "x" }]);
  });

  test("a bad hook after a good one in the same module fails the whole module", async () => {
    const dir = permissionsDir({
      "m.ts": 'export default function (api) { api.onToolUse({ name: "good", handler() {} }); api.onToolUse({ name: "bad" }); }',
    });
    const result = await loadPermissionModules({ user: dir });
    expect(result.hooks).toEqual([]);
    expect(result.errors).toEqual([{ file: join(dir, "m.ts"), error: 'hook "bad" has no handler function' }]);
  });

  test("errors in the project directory and the user directory are both reported", async () => {
    const project = permissionsDir({ "p.ts": "export default 1;" });
    const user = permissionsDir({ "u.ts": 'throw new Error("u");' });
    const result = await loadPermissionModules({ project, user });
    expect(result.errors).toEqual([
      { file: join(project, "p.ts"), error: "its default export is not a function" },
      { file: join(user, "u.ts"), error: "u" },
    ]);
  });
});

describe("duplicate hook names", () => {
  test("across modules: both run, the later file is reported", async () => {
    const project = permissionsDir({ "a.ts": registering("same") });
    const user = permissionsDir({ "b.ts": registering("same", "other") });
    const result = await loadPermissionModules({ project, user });
    expect(result.hooks.map((hook) => [hook.name, hook.scope])).toEqual([
      ["same", "project"],
      ["same", "user"],
      ["other", "user"],
    ]);
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([{ file: join(user, "b.ts"), error: 'hook name "same" is already taken; both hooks run' }]);
  });

  test("within one module", async () => {
    const dir = permissionsDir({ "m.ts": registering("twice", "twice") });
    const result = await loadPermissionModules({ user: dir });
    expect(names(result)).toEqual(["twice", "twice"]);
    expect(result.warnings).toEqual([{ file: join(dir, "m.ts"), error: 'hook name "twice" is already taken; both hooks run' }]);
  });

  test("the project's and the user's grants.json: both load, nothing to report", async () => {
    const grants = JSON.stringify({ grants: ["Bash(npm test)"] });
    const project = permissionsDir({ "grants.json": grants });
    const user = permissionsDir({ "grants.json": grants, "rules.json": "{}" });
    const result = await loadPermissionModules({ project: permissionsDir({ "rules.json": "{}" }), user });
    expect(result.warnings).toEqual([
      { file: join(user, "rules.json"), error: 'hook name "rules.json" is already taken; both hooks run' },
    ]);
    const both = await loadPermissionModules({ project, user });
    expect(both.hooks.map((hook) => [hook.name, hook.scope])).toEqual([
      ["grants.json", "project"],
      ["grants.json", "user"],
      ["rules.json", "user"],
    ]);
    expect(both.warnings).toEqual([]);
  });

  test("three of a kind: two reports", async () => {
    const dir = permissionsDir({ "a.ts": registering("x"), "b.ts": registering("x"), "c.ts": registering("x") });
    const result = await loadPermissionModules({ user: dir });
    expect(result.warnings.map((warning) => warning.file)).toEqual([join(dir, "b.ts"), join(dir, "c.ts")]);
  });
});

describe("reload re-reads modules", () => {
  test("an edited module is read again on the next load", async () => {
    const dir = permissionsDir({ "m.ts": registering("version 1") });
    expect(names(await loadPermissionModules({ user: dir }))).toEqual(["version 1"]);
    writeFileSync(join(dir, "m.ts"), registering("version 2"));
    expect(names(await loadPermissionModules({ user: dir }))).toEqual(["version 2"]);
    writeFileSync(join(dir, "m.ts"), registering("version 3"));
    expect(names(await loadPermissionModules({ user: dir }))).toEqual(["version 3"]);
  });

  test("a module that failed loads once it is fixed", async () => {
    const dir = permissionsDir({ "m.js": "export default function (api) {" });
    expect((await loadPermissionModules({ user: dir })).errors).toHaveLength(1);
    writeFileSync(join(dir, "m.js"), registering("fixed"));
    const result = await loadPermissionModules({ user: dir });
    expect(result.errors).toEqual([]);
    expect(names(result)).toEqual(["fixed"]);
  });

  test("a module's top-level code runs again", async () => {
    const dir = permissionsDir({
      "m.mjs": `globalThis.__pphLoads = (globalThis.__pphLoads ?? 0) + 1;\n${registering("m")}`,
    });
    const scope = globalThis as { __pphLoads?: number };
    const loads = () => scope.__pphLoads;
    delete scope.__pphLoads;
    await loadPermissionModules({ user: dir });
    expect(loads()).toBe(1);
    await loadPermissionModules({ user: dir });
    expect(loads()).toBe(2);
    delete scope.__pphLoads;
  });

  test("added and removed modules are noticed", async () => {
    const dir = permissionsDir({ "a.ts": registering("a") });
    expect(names(await loadPermissionModules({ user: dir }))).toEqual(["a"]);
    writeFileSync(join(dir, "b.ts"), registering("b"));
    rmSync(join(dir, "a.ts"));
    expect(names(await loadPermissionModules({ user: dir }))).toEqual(["b"]);
  });

  test("still re-read when pi's /reload evaluates this extension afresh (a new loader instance)", async () => {
    const dir = permissionsDir({ "m.ts": registering("before reload") });
    const loaderPath = join(import.meta.dir, "../lib/loader.ts");
    const first = (await import(`${loaderPath}?instance=first`)) as typeof import("../lib/loader.ts");
    expect(names(await first.loadPermissionModules({ user: dir }))).toEqual(["before reload"]);
    writeFileSync(join(dir, "m.ts"), registering("after reload"));
    const second = (await import(`${loaderPath}?instance=second`)) as typeof import("../lib/loader.ts");
    expect(second).not.toBe(first);
    expect(names(await second.loadPermissionModules({ user: dir }))).toEqual(["after reload"]);
  });
});

describe("the PermissionsAPI a module receives", () => {
  test("request, block and highlightSpans build plain decision objects", () => {
    const registered: unknown[] = [];
    const api = createPermissionsAPI(
      (hook) => registered.push(hook),
      () => {},
    );
    expect(api.request()).toStrictEqual({ decision: "request", prompt: undefined });
    const prompt = { guidance: "g", highlight: "push", approveLabel: "Yes", editLabel: "Fix", rejectLabel: "No" };
    expect(api.request(prompt)).toStrictEqual({ decision: "request", prompt });
    expect(api.request(prompt).prompt).toBe(prompt);
    expect(api.block("no")).toStrictEqual({ decision: "block", reason: "no" });
    expect(api.highlightSpans("git push", "push")).toEqual([{ start: 4, end: 8 }]);
    const hook = { name: "h", handler: () => undefined };
    api.onToolUse(hook);
    expect(registered).toEqual([hook]);
  });

  test("a module returning api.request / api.block decisions", async () => {
    const dir = permissionsDir({
      "a.ts": `export default (api) => api.onToolUse({ name: "asks", handler: (input) => input.tool.command === "ask" ? api.request({ guidance: "why" }) : undefined });`,
      "b.ts": `export default (api) => api.onToolUse({ name: "blocks", handler: (input) => input.tool.command === "block" ? api.block("nope") : undefined });`,
    });
    const { hooks } = await loadPermissionModules({ user: dir });
    const run = (command: string) => evaluate(hooks, { cwd: "/w", tool: normalizeToolInput("bash", { command }, "/w") });
    expect(await run("ask")).toEqual({ kind: "request", hook: hooks[0]!, prompt: { guidance: "why" } });
    expect(await run("block")).toEqual({ kind: "block", hook: hooks[1]!, reason: "nope" });
    expect(await run("ls")).toBeUndefined();
  });

  test("a module returning plain-object decisions, with no import from this package", async () => {
    const dir = permissionsDir({
      "plain.mjs": `export default function (api) {
  api.onToolUse({ name: "plain block", handler: ({ tool }) => (tool.command.startsWith("git add") ? { decision: "block", reason: "stage yourself" } : undefined) });
  api.onToolUse({ name: "plain request", handler: ({ tool }) => (tool.command.startsWith("git commit") ? { decision: "request", prompt: { guidance: "check", highlight: ["commit"] } } : undefined) });
}`,
    });
    const { hooks, errors } = await loadPermissionModules({ user: dir });
    expect(errors).toEqual([]);
    const run = (command: string) => evaluate(hooks, { cwd: "/w", tool: normalizeToolInput("bash", { command }, "/w") });
    expect(await run("git add .")).toEqual({ kind: "block", hook: hooks[0]!, reason: "stage yourself" });
    expect(await run("git commit -m x")).toEqual({
      kind: "request",
      hook: hooks[1]!,
      prompt: { guidance: "check", highlight: ["commit"] },
    });
  });

  test("each hook sees its own module's permissionRoot", async () => {
    const project = permissionsDir({
      "p.ts": `export default (api) => api.onToolUse({ name: "p", handler: (input) => { globalThis.__pphRoots.push(input.permissionRoot); } });`,
    });
    const user = permissionsDir({
      "u.ts": `export default (api) => api.onToolUse({ name: "u", handler: (input) => { globalThis.__pphRoots.push(input.permissionRoot); } });`,
    });
    const scope = globalThis as { __pphRoots?: string[] };
    scope.__pphRoots = [];
    const { hooks } = await loadPermissionModules({ project, user });
    expect(await evaluate(hooks, INPUT)).toBeUndefined();
    expect(scope.__pphRoots).toEqual([project, user]);
    delete scope.__pphRoots;
  });
});

describe("describeError", () => {
  test("the first line of an Error's message, else its name", () => {
    expect(describeError(new Error("one\ntwo"))).toBe("one");
    expect(describeError(new RangeError(""))).toBe("RangeError");
    expect(describeError(new Error("\nsecond"))).toBe("Error");
  });

  test("anything else thrown, as one line, never throwing", () => {
    expect(describeError("text")).toBe("text");
    expect(describeError("a\nb")).toBe("a");
    expect(describeError(42)).toBe("42");
    expect(describeError(undefined)).toBe("undefined");
    expect(describeError(null)).toBe("null");
    expect(describeError({})).toBe("[object Object]");
    expect(describeError(Object.create(null))).toBe("[object Object]");
    expect(describeError(Symbol("s"))).toBe("Symbol(s)");
  });
});

test("a module that never finishes loading is given up on, and the others load", async () => {
  const { jest } = await import("bun:test");
  const dir = permissionsDir({ "a.js": "export default () => new Promise(() => {});", "b.js": registering("b") });
  jest.useFakeTimers();
  try {
    const loading = loadPermissionModules({ user: dir });
    for (let i = 0; i < 50 && jest.getTimerCount() === 0; i++) await Promise.resolve();
    jest.advanceTimersByTime(10_000);
    const result = await loading;
    expect(result.errors).toEqual([{ file: join(dir, "a.js"), error: "did not load within 10 s" }]);
    expect(names(result)).toEqual(["b"]);
  } finally {
    jest.useRealTimers();
  }
});
