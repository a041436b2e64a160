// The Author API around parsed commands: `tools` filters (and narrows), `isTool` narrows, and
// commands and words from `tool.commands` work as highlights.
import { describe, expect, test } from "bun:test";
import type { Hook, PermissionRequestPrompt, PermissionTool } from "../lib/api.ts";
import { evaluate } from "../lib/evaluator.ts";
import { highlightSpans } from "../lib/highlight.ts";
import { createPermissionsAPI, type LoadedHook } from "../lib/loader.ts";
import { normalizeToolInput } from "../lib/tool-input.ts";

const CWD = "/work/proj";

function loaded(hook: Hook): LoadedHook {
  return { ...hook, tools: hook.tools ? [...hook.tools] : undefined, scope: "user", source: "/m.ts", permissionRoot: "/r" };
}

describe("tools filter", () => {
  test("a hook that names its tools never sees another tool's call", async () => {
    const seen: string[] = [];
    const api = createPermissionsAPI(() => {});
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
    const api = createPermissionsAPI(() => {});
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
  const api = createPermissionsAPI(() => {});
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
    createPermissionsAPI((hook) => registered.push(hook)).matchCommand(options);
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
