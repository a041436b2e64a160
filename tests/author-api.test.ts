// The Author API around parsed commands: `tools` filters (and narrows), `isTool` narrows,
// commands and words from `tool.commands` work as highlights, and `api.wrappers` extends the
// wrapper table.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BashTool, Hook, PermissionRequestPrompt, PermissionTool } from "../lib/api.ts";
import { Enablement } from "../lib/enablement.ts";
import { evaluate } from "../lib/evaluator.ts";
import { Gatekeeper } from "../lib/gatekeeper.ts";
import { highlightSpans } from "../lib/highlight.ts";
import { createPermissionsAPI, type LoadedHook, loadPermissionModules } from "../lib/loader.ts";
import { problems } from "../lib/presenter.ts";
import { WRAPPERS } from "../lib/shell-wrappers.ts";
import { normalizeToolInput } from "../lib/tool-input.ts";
import { agentDirWith, bashCall, fakeApprover, fakeSession } from "./support/fake-session.ts";

const CWD = "/work/proj";
const ignore = () => {};

function loaded(hook: Hook): LoadedHook {
  return { ...hook, tools: hook.tools ? [...hook.tools] : undefined, scope: "user", source: "/m.ts", permissionRoot: "/r" };
}

describe("tools filter", () => {
  test("a hook that names its tools never sees another tool's call", async () => {
    const seen: string[] = [];
    const api = createPermissionsAPI(ignore, ignore);
    const bashOnly = loaded({ name: "bash only", tools: ["bash"], handler: ({ tool }) => void seen.push(tool.name) });
    const every = loaded({ name: "every", handler: ({ tool }) => void seen.push(`every:${tool.name}`) });
    for (const [name, input] of [
      ["bash", { command: "ls" }],
      ["read", { path: "a" }],
    ] as const) {
      expect(await evaluate([bashOnly, every], { cwd: CWD, tool: normalizeToolInput(name, input, CWD) })).toBeUndefined();
    }
    expect(seen).toEqual(["bash", "every:bash", "every:read"]);
    expect(api.isTool("bash", normalizeToolInput("bash", { command: "ls" }, CWD))).toBe(true);
    expect(api.isTool("bash", normalizeToolInput("powershell", { command: "ls" }, CWD))).toBe(false);
  });

  test("a hook blocking git add via tool.commands: in a chain yes, in quoted text no", async () => {
    const api = createPermissionsAPI(ignore, ignore);
    const gate = loaded({
      name: "no git add",
      tools: ["bash"],
      handler: ({ tool }) => {
        if (!api.isTool("bash", tool)) return;
        const add = tool.commands.find((command) => command.programName === "git" && command.subcommand()?.text === "add");
        return add ? api.block("not git add") : undefined;
      },
    });
    const decide = (command: string) => evaluate([gate], { cwd: CWD, tool: normalizeToolInput("bash", { command }, CWD) });
    for (const command of [
      "ls && git add .",
      "command git -C . add x",
      "bash -c 'git add .'",
      "echo $(git add .)",
      "find . -exec git add {} +",
    ])
      expect([command, (await decide(command))?.kind]).toEqual([command, "block"]);
    for (const command of [`echo "git add"`, "git grep add", "git commit -m 'git add later'", "cat <<'EOF'\ngit add .\nEOF"])
      expect([command, await decide(command)]).toEqual([command, undefined]);
  });
});

describe("highlights from commands and words", () => {
  const tool = normalizeToolInput("bash", { command: "cd x && rm -rf build > log" }, CWD) as Extract<
    PermissionTool,
    { name: "bash" }
  >;
  const api = createPermissionsAPI(ignore, ignore);
  const spans = (prompt: PermissionRequestPrompt | undefined) => highlightSpans(tool.detail, prompt?.highlight);

  test("a command highlights its span, a word its text", () => {
    const rm = tool.commands[1];
    expect(spans(api.request({ highlight: rm }).prompt)).toEqual([{ start: 8, end: 26 }]);
    expect(spans(api.request({ highlight: rm.args[0] }).prompt)).toEqual([{ start: 11, end: 14 }]);
  });

  test("mixed with strings and patterns, and the rest of the prompt kept", () => {
    const prompt = api.request({ highlight: [tool.commands[0], "log"], guidance: "g", authorizeLabel: "Run" }).prompt;
    expect(spans(prompt)).toEqual([
      { start: 0, end: 4 },
      { start: 23, end: 26 },
    ]);
    expect(prompt?.guidance).toBe("g");
    expect(prompt?.authorizeLabel).toBe("Run");
  });

  test("plain highlights pass through untouched", () => {
    const pattern = /rm/;
    expect(api.request({ highlight: pattern }).prompt?.highlight).toBe(pattern);
    expect(api.request().prompt).toBeUndefined();
  });
});

describe("matchCommand", () => {
  function rule(options: Parameters<ReturnType<typeof createPermissionsAPI>["matchCommand"]>[0]): LoadedHook {
    const registered: Hook[] = [];
    createPermissionsAPI((hook) => registered.push(hook), ignore).matchCommand(options);
    expect(registered).toHaveLength(1);
    return loaded(registered[0]);
  }
  const decide = (hook: LoadedHook, command: string) =>
    evaluate([hook], { cwd: CWD, tool: normalizeToolInput("bash", { command }, CWD) });

  test("asks for the program with one of the subcommands, highlighting both words", async () => {
    const push = rule({ name: "push", program: "git", subcommands: ["push"] });
    const command = "git status && sudo git -C . push --force";
    const verdict = await decide(push, command);
    expect(verdict?.kind).toBe("request");
    const prompt = verdict?.kind === "request" ? verdict.prompt : undefined;
    expect(highlightSpans(command, prompt?.highlight).map(({ start, end }) => command.slice(start, end))).toEqual([
      "git",
      "push",
    ]);
    expect(await decide(push, "git status; echo 'git push'")).toBeUndefined();
  });

  test("several programs, a predicate, a block, and the Author's own prompt", async () => {
    const rm = rule({
      name: "rm -r",
      program: ["rm", "rmdir"],
      when: (command) => command.hasFlag("-r", "--recursive"),
      block: "No.",
    });
    expect(await decide(rm, "rm -fr build")).toMatchObject({ kind: "block", reason: "No." });
    expect(await decide(rm, "rm build")).toBeUndefined();
    const ask = rule({ name: "npm", program: "npm", subcommands: ["publish"], prompt: { guidance: "Sure?", highlight: "npm" } });
    const verdict = await decide(ask, "npm publish");
    expect(verdict?.kind === "request" && verdict.prompt.guidance).toBe("Sure?");
    expect(verdict?.kind === "request" && verdict.prompt.highlight).toBe("npm");
    expect(await decide(ask, "ls")).toBeUndefined();
  });

  test("only bash calls reach it", async () => {
    const any = rule({ name: "ls", program: "ls" });
    expect(any.tools).toEqual(["bash"]);
    expect(await evaluate([any], { cwd: CWD, tool: normalizeToolInput("powershell", { command: "ls" }, CWD) })).toBeUndefined();
  });
});

describe("api.wrappers", () => {
  const TEMP = mkdtempSync(join(tmpdir(), "pph-wrappers-"));
  afterAll(() => rmSync(TEMP, { recursive: true, force: true }));
  let dirs = 0;
  function permissionsDir(files: Record<string, string>): string {
    const dir = join(TEMP, `dir-${++dirs}`);
    mkdirSync(dir);
    for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), source);
    return dir;
  }
  const programs = (command: string, wrappers: LoadedWrappers) =>
    (normalizeToolInput("bash", { command }, CWD, wrappers) as BashTool).commands.map((parsed) => [
      parsed.wrappers.map((word) => word.text).join(" "),
      parsed.programName,
      parsed.subcommand()?.text,
    ]);
  type LoadedWrappers = Awaited<ReturnType<typeof loadPermissionModules>>["wrappers"];

  test("a module's entries join the built-in table, and every call is parsed through them", async () => {
    const result = await loadPermissionModules({
      user: permissionsDir({
        "w.js": `export default (api) => api.wrappers({ chronic: { valueFlags: ["-e"] }, retry: { operands: 1 } });`,
      }),
    });
    expect(result.errors).toEqual([]);
    expect(result.wrappers).toEqual({ ...WRAPPERS, chronic: { valueFlags: ["-e"] }, retry: { operands: 1 } });
    expect(programs("chronic -e x sudo git add . && retry 3 git push", result.wrappers)).toEqual([
      ["chronic -e x sudo", "git", "add"],
      ["retry 3", "git", "push"],
    ]);
    expect(programs("chronic -e x git add .", undefined)).toEqual([["", "chronic", "x"]]);
  });

  test("a payload flag's or a directory flag's value is taken, whether or not valueFlags names the flag", async () => {
    const result = await loadPermissionModules({
      user: permissionsDir({
        "w.js": `export default (api) => api.wrappers({ mywrap: { payloadFlags: ["-S"], dirFlags: ["-D"] } });`,
      }),
    });
    expect(result.errors).toEqual([]);
    expect(programs('mywrap -S "git add ." -D /tmp git push', result.wrappers)).toEqual([
      ["mywrap -S git add . -D /tmp", "git", "push"],
      ["", "git", "add"],
    ]);
    const [pushed] = (normalizeToolInput("bash", { command: "mywrap -D /tmp git push" }, CWD, result.wrappers) as BashTool)
      .commands;
    expect(pushed.dir).toBe("/tmp");
  });

  test("entries named like Object's properties are wrappers as any other", async () => {
    const result = await loadPermissionModules({
      user: permissionsDir({
        "w.js": `export default (api) => api.wrappers({ ["__proto__"]: { operands: 1 }, constructor: { valueFlags: ["-e"] }, toString: {} });`,
      }),
    });
    expect(result.errors).toEqual([]);
    expect(
      programs("__proto__ 3 git push; constructor -e x git add .; toString git log; hasOwnProperty -v x", result.wrappers),
    ).toEqual([
      ["__proto__ 3", "git", "push"],
      ["constructor -e x", "git", "add"],
      ["toString", "git", "log"],
      ["", "hasOwnProperty", "x"],
    ]);
  });

  test("no module adds any: no table of its own, the built-in one is used", async () => {
    const result = await loadPermissionModules({ user: permissionsDir({ "a.js": "export default () => {};" }) });
    expect(result.wrappers).toBeUndefined();
  });

  test("a user module's entry replaces a project module's and a built-in one; a failed module's entries are dropped", async () => {
    const result = await loadPermissionModules({
      project: permissionsDir({ "p.js": `export default (api) => api.wrappers({ chronic: { valueFlags: ["-e"] } });` }),
      user: permissionsDir({
        "a.js": `export default (api) => api.wrappers({ chronic: {}, timeout: { operands: 2 } });`,
        "b.js": `export default (api) => { api.wrappers({ nohup: { operands: 5 } }); throw new Error("broken"); };`,
      }),
    });
    expect(result.errors.map((error) => error.error)).toEqual(["broken"]);
    expect(result.wrappers?.chronic).toEqual({});
    expect(result.wrappers?.timeout).toEqual({ operands: 2 });
    expect(result.wrappers?.nohup).toEqual(WRAPPERS.nohup);
  });

  test("an entry that is not a wrapper spec fails its module with the reason, so no parse can fail on it", async () => {
    const junk: [string, string][] = [
      ["[]", problems.wrappersNotObject],
      ["{ w: 1 }", problems.notWrapperSpec("w")],
      ['{ w: { valueFlags: "-u" } }', problems.notWrapperSpec("w")],
      ["{ w: { valueFlags: [1] } }", problems.notWrapperSpec("w")],
      ["{ w: { operands: -1 } }", problems.notWrapperSpec("w")],
      ['{ w: { assignments: "yes" } }', problems.notWrapperSpec("w")],
      ["{ w: { valueFlag: [] } }", problems.notWrapperSpec("w")],
    ];
    for (const [table, error] of junk) {
      const result = await loadPermissionModules({
        user: permissionsDir({
          "w.js": `export default (api) => { api.onToolUse({ name: "h", handler() {} }); api.wrappers(${table}); };`,
        }),
      });
      expect([table, result.errors.map((failure) => failure.error), result.hooks, result.wrappers]).toEqual([
        table,
        [error],
        [],
        undefined,
      ]);
    }
  });

  test("the table is copied at load: changing it later, or adding from a timer, changes nothing", async () => {
    const result = await loadPermissionModules({
      user: permissionsDir({
        "w.js": `export default (api) => {
  const table = { chronic: { valueFlags: ["-e"] } };
  api.wrappers(table);
  globalThis.laterWrappers = () => { table.chronic.valueFlags.push(7); api.wrappers({ retry: {} }); };
};`,
      }),
    });
    (globalThis as { laterWrappers?: () => void }).laterWrappers?.();
    expect(result.wrappers?.chronic).toEqual({ valueFlags: ["-e"] });
    expect(result.wrappers?.retry).toBeUndefined();
  });

  test("a hook sees the command behind an Author's wrapper in a call through the gatekeeper", async () => {
    const saved = process.env.PI_CODING_AGENT_DIR;
    const agentDir = agentDirWith({
      "git.js": `export default (api) => {
  api.wrappers({ chronic: { valueFlags: ["-e"] } });
  api.onToolUse({
    name: "no git add",
    tools: ["bash"],
    handler: ({ tool }) => tool.commands.some((command) => command.programName === "git" && command.subcommand()?.text === "add") && api.block("no"),
  });
};`,
    });
    process.env.PI_CODING_AGENT_DIR = agentDir;
    try {
      const session = fakeSession();
      const gatekeeper = new Gatekeeper(new Enablement({ appendEntry: ignore }), fakeApprover().show);
      gatekeeper.load(session.ctx);
      expect((await gatekeeper.loaded()).errors).toEqual([]);
      expect(await gatekeeper.onToolCall(bashCall("1", "chronic -e x git add ."), session.ctx)).toMatchObject({ block: true });
      expect(await gatekeeper.onToolCall(bashCall("2", "chronic -e x git status"), session.ctx)).toBeUndefined();
    } finally {
      process.env.PI_CODING_AGENT_DIR = saved;
      rmSync(agentDir, { recursive: true, force: true });
    }
  });
});

describe("examples/outside-project.ts", () => {
  test("asks for a write through a symlink that leads out of the project, not for one inside", async () => {
    const temp = realpathSync(mkdtempSync(join(tmpdir(), "pph-outside-")));
    try {
      const project = join(temp, "proj");
      mkdirSync(project);
      symlinkSync("..", join(project, "link"));
      const { hooks, errors } = await loadPermissionModules({ user: join(import.meta.dir, "..", "examples") });
      expect(errors).toEqual([]);
      const outside = hooks.filter((hook) => hook.name === "Outside the project");
      const write = (path: string) =>
        evaluate(outside, { cwd: project, tool: normalizeToolInput("write", { path, content: "" }, project) });
      expect((await write("link/x"))?.kind).toBe("request");
      expect((await write("../x"))?.kind).toBe("request");
      expect(await write("src/x")).toBeUndefined();
      expect(await write("link/proj/x")).toBeUndefined();
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });
});
