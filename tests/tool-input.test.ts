import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import type { BashTool } from "../lib/api.ts";
import { normalizeToolInput, stableJson } from "../lib/tool-input.ts";

const CWD = "/work/proj";

/** Narrows the union for assertions; the tests state which tool they expect. Lazy fields are read. */
function tool(name: string, input: unknown, cwd = CWD): Record<string, unknown> {
  return { ...(normalizeToolInput(name, input, cwd) as unknown as Record<string, unknown>) };
}

/** A bash tool's plain fields, without its lazily parsed commands. */
function fields(result: Record<string, unknown>): Record<string, unknown> {
  const { commands: _commands, commandsComplete: _complete, ...rest } = result;
  return rest;
}

describe("bash and powershell", () => {
  test("bash: the verbatim command is the detail, timeout is typed", () => {
    const input = { command: "git commit -m 'x'", timeout: 30 };
    const result = tool("bash", input);
    expect(fields(result)).toStrictEqual({
      name: "bash",
      input,
      detail: "git commit -m 'x'",
      command: "git commit -m 'x'",
      timeout: 30,
    });
    expect(result.input).toBe(input);
  });

  test("bash: commands are parsed on first access, once, and shared", () => {
    const bash = normalizeToolInput(
      "bash",
      { command: `cd sub && echo "git add" && command git -C . add x > log` },
      CWD,
    ) as BashTool;
    const commands = bash.commands;
    expect(bash.commands).toBe(commands);
    expect(commands.map((command) => [command.programName, command.subcommand()?.text, command.dir])).toEqual([
      ["cd", "sub", "."],
      ["echo", "git add", "sub"],
      ["git", "add", "sub"],
    ]);
    expect(commands[2].redirects.map((redirect) => [redirect.op, redirect.target?.text])).toEqual([[">", "log"]]);
    expect(bash.commandsComplete).toBe(true);
    expect(normalizeToolInput("bash", { command: "echo 'open" }, CWD)).toMatchObject({ commandsComplete: false });
  });

  test("powershell is not parsed as bash", () => {
    expect("commands" in normalizeToolInput("powershell", { command: "ls" }, CWD)).toBe(false);
  });

  test("bash: a multi-line heredoc command with control characters is kept byte for byte", () => {
    const command = "git commit -m \"$(cat <<'EOF'\nfix:\ttypo\r\n\x1b[31m\nEOF\n)\"";
    const result = tool("bash", { command });
    expect(result.detail).toBe(command);
    expect(result.command).toBe(command);
  });

  test("bash: no timeout, or a timeout that is not a finite number, is undefined", () => {
    expect(tool("bash", { command: "ls" }).timeout).toBeUndefined();
    expect(tool("bash", { command: "ls", timeout: "30" }).timeout).toBeUndefined();
    expect(tool("bash", { command: "ls", timeout: Number.NaN }).timeout).toBeUndefined();
    expect(tool("bash", { command: "ls", timeout: Number.POSITIVE_INFINITY }).timeout).toBeUndefined();
  });

  test("powershell is shaped like bash", () => {
    const input = { command: "Get-ChildItem -Recurse", timeout: 5 };
    expect(tool("powershell", input)).toStrictEqual({
      name: "powershell",
      input,
      detail: "Get-ChildItem -Recurse",
      command: "Get-ChildItem -Recurse",
      timeout: 5,
    });
  });
});

describe("read", () => {
  test("path only: the detail is the path as given", () => {
    const input = { path: "src/a.ts" };
    expect(tool("read", input)).toStrictEqual({
      name: "read",
      input,
      path: "src/a.ts",
      absolutePath: "/work/proj/src/a.ts",
      projectPath: "src/a.ts",
      realPath: "/work/proj/src/a.ts",
      offset: undefined,
      limit: undefined,
      detail: "src/a.ts",
    });
  });

  test("offset only: from that line", () => {
    const result = tool("read", { path: "src/a.ts", offset: 40 });
    expect(result.detail).toBe("src/a.ts (from line 40)");
    expect(result.offset).toBe(40);
    expect(result.limit).toBeUndefined();
  });

  test("limit only: lines 1 to limit", () => {
    const result = tool("read", { path: "src/a.ts", limit: 20 });
    expect(result.detail).toBe("src/a.ts (lines 1-20)");
    expect(result.limit).toBe(20);
  });

  test("offset and limit: the inclusive line range", () => {
    expect(tool("read", { path: "src/a.ts", offset: 10, limit: 5 }).detail).toBe("src/a.ts (lines 10-14)");
    expect(tool("read", { path: "src/a.ts", offset: 7, limit: 1 }).detail).toBe("src/a.ts (lines 7-7)");
  });

  test("offset/limit that are not finite numbers are ignored", () => {
    const result = tool("read", { path: "a", offset: "10", limit: Number.NaN });
    expect(result.offset).toBeUndefined();
    expect(result.limit).toBeUndefined();
    expect(result.detail).toBe("a");
  });
});

describe("edit", () => {
  test("pi's shape: path and a list of replacements", () => {
    const input = { path: "src/a.ts", edits: [{ oldText: "foo", newText: "bar" }] };
    expect(tool("edit", input)).toStrictEqual({
      name: "edit",
      input,
      path: "src/a.ts",
      absolutePath: "/work/proj/src/a.ts",
      projectPath: "src/a.ts",
      realPath: "/work/proj/src/a.ts",
      edits: [{ oldText: "foo", newText: "bar" }],
      replaceAll: false,
      detail: "src/a.ts (1 replacement)",
    });
  });

  test("pi's shape: several replacements are counted", () => {
    const result = tool("edit", {
      path: "/work/proj/lib/b.ts",
      edits: [
        { oldText: "a", newText: "b" },
        { oldText: "c", newText: "d" },
        { oldText: "e", newText: "" },
      ],
    });
    expect(result.detail).toBe("/work/proj/lib/b.ts (3 replacements)");
    expect(result.edits).toEqual([
      { oldText: "a", newText: "b" },
      { oldText: "c", newText: "d" },
      { oldText: "e", newText: "" },
    ]);
    expect(result.projectPath).toBe("lib/b.ts");
  });

  test("pi's shape: no edits at all", () => {
    const result = tool("edit", { path: "x.ts", edits: [] });
    expect(result.detail).toBe("x.ts (0 replacements)");
    expect(result.edits).toEqual([]);
  });

  test("pi's shape: malformed entries are dropped or emptied, never thrown on", () => {
    const result = tool("edit", { path: "x.ts", edits: [null, 3, "str", [], { oldText: 1, newText: "n" }, { oldText: "o" }] });
    expect(result.edits).toEqual([
      { oldText: "", newText: "n" },
      { oldText: "o", newText: "" },
    ]);
    expect(result.detail).toBe("x.ts (2 replacements)");
  });

  test("pi's shape: edits that are not an array mean no replacements", () => {
    expect(tool("edit", { path: "x.ts", edits: "[{}]" }).edits).toEqual([]);
  });

  test("pi's shape ignores replace_all", () => {
    const result = tool("edit", { path: "x.ts", edits: [{ oldText: "a", newText: "b" }], replace_all: true });
    expect(result.replaceAll).toBe(false);
    expect(result.detail).toBe("x.ts (1 replacement)");
  });

  test("Claude-Code shape (picc-edit): file_path, old_string, new_string become one replacement", () => {
    const input = { file_path: "/work/proj/src/a.ts", old_string: "let x", new_string: "const x" };
    expect(tool("edit", input)).toStrictEqual({
      name: "edit",
      input,
      path: "/work/proj/src/a.ts",
      absolutePath: "/work/proj/src/a.ts",
      projectPath: "src/a.ts",
      realPath: "/work/proj/src/a.ts",
      edits: [{ oldText: "let x", newText: "const x" }],
      replaceAll: false,
      detail: "/work/proj/src/a.ts (1 replacement)",
    });
  });

  test('picc-edit registered as "Edit" is the same edit tool; another "Edit" stays custom', () => {
    const input = { file_path: "/work/proj/src/a.ts", old_string: "let x", new_string: "const x" };
    expect(tool("Edit", input)).toStrictEqual(tool("edit", input));
    expect(tool("Edit", { path: "a.ts" }).name).toBe("Edit");
  });

  test("Claude-Code shape: replace_all true", () => {
    const result = tool("edit", { file_path: "/etc/hosts", old_string: "a", new_string: "b", replace_all: true });
    expect(result.replaceAll).toBe(true);
    expect(result.detail).toBe("/etc/hosts (replace all)");
    expect(result.edits).toEqual([{ oldText: "a", newText: "b" }]);
    expect(result.projectPath).toBeUndefined();
  });

  test("Claude-Code shape: replace_all false or not a boolean true", () => {
    expect(tool("edit", { file_path: "/a", old_string: "a", new_string: "b", replace_all: false }).replaceAll).toBe(false);
    expect(tool("edit", { file_path: "/a", old_string: "a", new_string: "b", replace_all: "true" }).replaceAll).toBe(false);
  });

  test("Claude-Code shape: a new file (empty old_string)", () => {
    const result = tool("edit", { file_path: "/work/proj/new.ts", old_string: "", new_string: "export {};\n" });
    expect(result.edits).toEqual([{ oldText: "", newText: "export {};\n" }]);
    expect(result.detail).toBe("/work/proj/new.ts (1 replacement)");
  });

  test("Claude-Code shape: a relative file_path still resolves against cwd", () => {
    const result = tool("edit", { file_path: "src/a.ts", old_string: "a", new_string: "b" });
    expect(result.path).toBe("src/a.ts");
    expect(result.absolutePath).toBe("/work/proj/src/a.ts");
  });

  test("Claude-Code shape: missing strings become empty", () => {
    expect(tool("edit", { file_path: "/a" }).edits).toEqual([{ oldText: "", newText: "" }]);
  });
});

describe("write", () => {
  test("detail counts lines; content is typed", () => {
    const input = { path: "notes.md", content: "one\ntwo\n" };
    expect(tool("write", input)).toStrictEqual({
      name: "write",
      input,
      path: "notes.md",
      absolutePath: "/work/proj/notes.md",
      projectPath: "notes.md",
      realPath: "/work/proj/notes.md",
      content: "one\ntwo\n",
      detail: "notes.md (2 lines)",
    });
  });

  test.each([
    ["", "notes.md (0 lines)"],
    ["one", "notes.md (1 line)"],
    ["one\n", "notes.md (1 line)"],
    ["\n", "notes.md (1 line)"],
    ["one\ntwo", "notes.md (2 lines)"],
    ["a\r\nb\r\n", "notes.md (2 lines)"],
    ["a\n\n\nb", "notes.md (4 lines)"],
  ])("content %j → %s", (content, detail) => {
    expect(tool("write", { path: "notes.md", content }).detail).toBe(detail);
  });

  test("missing content is an empty file", () => {
    const result = tool("write", { path: "x" });
    expect(result.content).toBe("");
    expect(result.detail).toBe("x (0 lines)");
  });
});

describe("grep and find", () => {
  for (const name of ["grep", "find"]) {
    test(`${name} without path: the pattern is the detail, and the search runs in cwd`, () => {
      const input = { pattern: "TODO|FIXME" };
      expect(tool(name, input)).toStrictEqual({
        name,
        input,
        pattern: "TODO|FIXME",
        path: undefined,
        absolutePath: "/work/proj",
        projectPath: ".",
        realPath: "/work/proj",
        detail: "TODO|FIXME",
      });
    });

    test(`${name} with path: pattern in path, resolved as the file tools' paths are`, () => {
      const input = { pattern: "*.ts", path: "src" };
      expect(tool(name, input)).toStrictEqual({
        name,
        input,
        pattern: "*.ts",
        path: "src",
        absolutePath: "/work/proj/src",
        projectPath: "src",
        realPath: "/work/proj/src",
        detail: "*.ts in src",
      });
      expect(tool(name, { pattern: "x", path: "~/notes" })).toMatchObject({
        absolutePath: join(homedir(), "notes"),
        projectPath: undefined,
      });
    });

    test(`${name} with a path that is not a string`, () => {
      const result = tool(name, { pattern: "x", path: 7 });
      expect(result.path).toBeUndefined();
      expect(result.detail).toBe("x");
    });
  }
});

describe("ls", () => {
  test("without path: the current directory", () => {
    const input = {};
    expect(tool("ls", input)).toStrictEqual({
      name: "ls",
      input,
      path: ".",
      absolutePath: "/work/proj",
      projectPath: ".",
      realPath: "/work/proj",
      limit: undefined,
      detail: ".",
    });
  });

  test("with path and limit", () => {
    const input = { path: "src/lib", limit: 50 };
    expect(tool("ls", input)).toStrictEqual({
      name: "ls",
      input,
      path: "src/lib",
      absolutePath: "/work/proj/src/lib",
      projectPath: "src/lib",
      realPath: "/work/proj/src/lib",
      limit: 50,
      detail: "src/lib",
    });
  });

  test("outside the project", () => {
    const result = tool("ls", { path: "/" });
    expect(result.absolutePath).toBe("/");
    expect(result.projectPath).toBeUndefined();
  });
});

describe("path fields", () => {
  const cases: [given: string, absolutePath: string, projectPath: string | undefined][] = [
    ["src/a.ts", "/work/proj/src/a.ts", "src/a.ts"],
    ["./src/../lib/x.ts", "/work/proj/lib/x.ts", "lib/x.ts"],
    ["/work/proj/lib/x.ts", "/work/proj/lib/x.ts", "lib/x.ts"],
    ["/work/proj/", "/work/proj", "."],
    [".", "/work/proj", "."],
    ["..foo/bar", "/work/proj/..foo/bar", "..foo/bar"],
    ["../other/x.ts", "/work/other/x.ts", undefined],
    ["..", "/work", undefined],
    ["/work/proj-b/x.ts", "/work/proj-b/x.ts", undefined],
    ["/etc/passwd", "/etc/passwd", undefined],
    ["src/../../escape", "/work/escape", undefined],
    ["@src/a.ts", "/work/proj/src/a.ts", "src/a.ts"],
    ["@/etc/hosts", "/etc/hosts", undefined],
    ["~user/x", "/work/proj/~user/x", "~user/x"],
    ["dir/~", "/work/proj/dir/~", "dir/~"],
  ];

  for (const [given, absolutePath, projectPath] of cases) {
    test(`${JSON.stringify(given)} → ${absolutePath} (${projectPath ?? "outside"})`, () => {
      for (const name of ["read", "write", "edit", "ls", "grep", "find"]) {
        const result = tool(name, { path: given });
        expect(result.path).toBe(given);
        expect(result.absolutePath).toBe(absolutePath);
        expect(result.projectPath).toBe(projectPath);
      }
    });
  }

  test("~ and ~/… resolve to the home directory, also behind @", () => {
    expect(tool("read", { path: "~" }).absolutePath).toBe(homedir());
    expect(tool("read", { path: "~/.ssh/id_rsa" }).absolutePath).toBe(join(homedir(), ".ssh/id_rsa"));
    expect(tool("read", { path: "@~/.bashrc" }).absolutePath).toBe(join(homedir(), ".bashrc"));
    expect(tool("read", { path: "~/.bashrc" }).path).toBe("~/.bashrc");
  });

  test("a home path is inside the project only when the project contains it", () => {
    expect(tool("read", { path: "~/x" }, "/nonexistent-project").projectPath).toBeUndefined();
    expect(tool("read", { path: "~/x" }, homedir()).projectPath).toBe("x");
  });

  test("a file: URL resolves to its path, as pi's file tools do", () => {
    const outside = tool("write", { path: "file:///etc/passwd", content: "" });
    expect(outside.path).toBe("file:///etc/passwd");
    expect(outside.absolutePath).toBe("/etc/passwd");
    expect(outside.projectPath).toBeUndefined();
    const inside = tool("read", { path: "file:///work/proj/a%20b.txt" });
    expect(inside.absolutePath).toBe("/work/proj/a b.txt");
    expect(inside.projectPath).toBe("a b.txt");
  });

  test("a file: URL pi cannot read does not throw", () => {
    const result = tool("read", { path: "file://remote-host/x" });
    expect(typeof result.absolutePath).toBe("string");
  });

  test("odd Unicode spaces in a path resolve as plain spaces, as pi's file tools do; path stays as given", () => {
    const result = tool("read", { path: "my\u00a0file\u202fname\u3000.txt" });
    expect(result.path).toBe("my\u00a0file\u202fname\u3000.txt");
    expect(result.absolutePath).toBe("/work/proj/my file name .txt");
    expect(result.projectPath).toBe("my file name .txt");
  });

  test("a missing path resolves to cwd instead of throwing", () => {
    const result = tool("read", {});
    expect(result.path).toBe("");
    expect(result.absolutePath).toBe("/work/proj");
    expect(result.projectPath).toBe(".");
  });
});

describe("realPath", () => {
  const temp = realpathSync(mkdtempSync(join(tmpdir(), "pph-real-")));
  const project = join(temp, "proj");
  afterAll(() => rmSync(temp, { recursive: true, force: true }));
  mkdirSync(join(temp, "outside"));
  mkdirSync(project);
  writeFileSync(join(temp, "outside", "secret"), "");
  symlinkSync("..", join(project, "link"));
  symlinkSync("../outside/secret", join(project, "secret"));
  symlinkSync("../outside/new", join(project, "dangling"));
  symlinkSync("loop-b", join(project, "loop-a"));
  symlinkSync("loop-a", join(project, "loop-b"));
  symlinkSync("proj", join(temp, "alias"));

  test("a write to link/x with link → .. lands outside the project, though projectPath reads inside", () => {
    for (const name of ["write", "edit"]) {
      const result = tool(name, { path: "link/x" }, project);
      expect(result.projectPath).toBe("link/x");
      expect(result.realPath).toBe(join(temp, "x"));
    }
  });

  test("an existing file behind a symlink, and a directory to search", () => {
    expect(tool("read", { path: "secret" }, project).realPath).toBe(join(temp, "outside", "secret"));
    expect(tool("grep", { pattern: "x", path: "link" }, project).realPath).toBe(temp);
    expect(tool("find", { pattern: "x" }, join(temp, "alias")).realPath).toBe(project);
  });

  test("a file that doesn't exist yet: its longest existing prefix is resolved, a dangling symlink followed", () => {
    expect(tool("write", { path: "new/deeper/f" }, join(temp, "alias")).realPath).toBe(join(project, "new", "deeper", "f"));
    expect(tool("write", { path: "dangling" }, project).realPath).toBe(join(temp, "outside", "new"));
    expect(tool("write", { path: "link/proj/dangling/x" }, project).realPath).toBe(join(temp, "outside", "new", "x"));
  });

  test("never throws: symlink loops, NUL bytes, paths that can't exist", () => {
    expect(typeof tool("read", { path: "loop-a/x" }, project).realPath).toBe("string");
    expect(tool("read", { path: "a\0b" }, project).realPath).toBe(join(project, "a\0b"));
    expect(tool("read", { path: "x".repeat(5000) }, project).realPath).toBe(join(project, "x".repeat(5000)));
  });
});

describe("custom tools", () => {
  test("detail is pretty JSON with sorted keys (arrays keep their order)", () => {
    const input = { title: "Bug", body: "It breaks", labels: ["z", "a"], meta: { z: 1, a: { y: null, b: true } } };
    expect(tool("create_issue", input)).toStrictEqual({
      name: "create_issue",
      input,
      detail: `{
  "body": "It breaks",
  "labels": [
    "z",
    "a"
  ],
  "meta": {
    "a": {
      "b": true,
      "y": null
    },
    "z": 1
  },
  "title": "Bug"
}`,
    });
  });

  test("the same arguments in another key order read the same", () => {
    const a = tool("x", { b: 1, a: [{ d: 1, c: 2 }] }).detail;
    const b = tool("x", { a: [{ c: 2, d: 1 }], b: 1 }).detail;
    expect(a).toBe(b);
    expect(a).toBe('{\n  "a": [\n    {\n      "c": 2,\n      "d": 1\n    }\n  ],\n  "b": 1\n}');
  });

  test("empty arguments", () => {
    expect(tool("x", {}).detail).toBe("{}");
  });

  test("built-in names are case-sensitive: Bash is a custom tool", () => {
    expect(tool("Bash", { command: "ls" }).detail).toBe('{\n  "command": "ls"\n}');
  });

  test("a circular object does not throw", () => {
    const input: Record<string, unknown> = { name: "loop" };
    input.self = input;
    input.list = [input, 1];
    expect(tool("x", input).detail).toBe(
      '{\n  "list": [\n    "[circular]",\n    1\n  ],\n  "name": "loop",\n  "self": "[circular]"\n}',
    );
  });

  test("a circular array does not throw", () => {
    const list: unknown[] = [1];
    list.push(list);
    expect(tool("x", { list }).detail).toBe('{\n  "list": [\n    1,\n    "[circular]"\n  ]\n}');
  });

  test("a shared (not circular) value is shown each time it appears", () => {
    const shared = { k: 1 };
    expect(tool("x", { a: shared, b: [shared] }).detail).toBe(
      '{\n  "a": {\n    "k": 1\n  },\n  "b": [\n    {\n      "k": 1\n    }\n  ]\n}',
    );
  });

  test("an own __proto__ key (as JSON.parse makes it) is shown, not swallowed", () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
    expect(tool("x", input).detail).toBe('{\n  "__proto__": {\n    "polluted": true\n  },\n  "a": 1\n}');
  });

  test("values JSON cannot show: bigint as a string, undefined and functions dropped", () => {
    expect(tool("x", { big: 12345678901234567890n, gone: undefined, fn: () => 1, ok: "y" }).detail).toBe(
      '{\n  "big": "12345678901234567890",\n  "ok": "y"\n}',
    );
  });

  test("stableJson of non-objects", () => {
    expect(stableJson(undefined)).toBe("");
    expect(stableJson(null)).toBe("null");
    expect(stableJson("a\nb")).toBe('"a\\nb"');
    expect(stableJson(3)).toBe("3");
    expect(stableJson([3, { b: 1, a: 2 }])).toBe('[\n  3,\n  {\n    "a": 2,\n    "b": 1\n  }\n]');
  });

  test("detail does not mutate the input", () => {
    const input = { b: 1, a: { d: 2, c: 3 } };
    tool("x", input);
    expect(Object.keys(input)).toEqual(["b", "a"]);
    expect(Object.keys(input.a)).toEqual(["d", "c"]);
  });
});

describe("garbage input never throws", () => {
  const names = ["bash", "powershell", "read", "edit", "write", "grep", "find", "ls", "mcp__custom"];
  const garbage: unknown[] = [
    null,
    undefined,
    0,
    42,
    Number.NaN,
    "rm -rf /",
    true,
    [],
    [1, 2],
    () => 1,
    Symbol("s"),
    {},
    { command: 5, path: 7, edits: "x", file_path: null, pattern: {}, content: 3, offset: "1", limit: Number.NaN, old_string: 1 },
    { path: null, file_path: 12, edits: [undefined] },
  ];

  for (const name of names) {
    test(name, () => {
      for (const input of garbage) {
        const result = tool(name, input);
        expect(result.name).toBe(name);
        expect(typeof result.detail).toBe("string");
        expect(typeof result.input).toBe("object");
        expect(Array.isArray(result.input)).toBe(false);
      }
    });
  }

  test("non-object input becomes empty input with the tool's empty detail", () => {
    expect(fields(tool("bash", null))).toStrictEqual({ name: "bash", input: {}, detail: "", command: "", timeout: undefined });
    expect(fields(tool("bash", "ls"))).toStrictEqual({ name: "bash", input: {}, detail: "", command: "", timeout: undefined });
    expect(tool("bash", null).commands).toEqual([]);
    expect(tool("grep", 42)).toStrictEqual({
      name: "grep",
      input: {},
      pattern: "",
      path: undefined,
      absolutePath: "/work/proj",
      projectPath: ".",
      realPath: "/work/proj",
      detail: "",
    });
    expect(tool("mcp__custom", [1, 2])).toStrictEqual({ name: "mcp__custom", input: {}, detail: "{}" });
  });

  test("wrong field types read as empty", () => {
    const result = tool("bash", { command: ["git", "push"] });
    expect(result.command).toBe("");
    expect(result.detail).toBe("");
  });
});

describe("MCP tools", () => {
  test("server and tool from the name; the detail names them and lists the arguments, one per line", () => {
    const input = { title: "Bug", body: "It breaks\nbadly\n", labels: ["z", "a"], meta: { z: 1, a: null }, draft: false };
    expect(tool("mcp__github__create_issue", input)).toStrictEqual({
      name: "mcp__github__create_issue",
      input,
      server: "github",
      tool: "create_issue",
      detail: [
        "MCP server github, tool create_issue",
        "  body: |",
        "    It breaks",
        "    badly",
        "    ",
        "  draft: false",
        '  labels: ["z","a"]',
        '  meta: {"a":null,"z":1}',
        '  title: "Bug"',
      ].join("\n"),
    });
  });

  test("split as pi splits it: the server ends at the first __", () => {
    expect(tool("mcp__dev_radius__search__all", {})).toMatchObject({
      server: "dev_radius",
      tool: "search__all",
      detail: "MCP server dev_radius, tool search__all",
    });
  });

  test("values JSON can't show are left out; odd input never throws", () => {
    expect(tool("mcp__s__t", { gone: undefined, fn: () => 1, big: 10n }).detail).toBe('MCP server s, tool t\n  big: "10"');
    expect(tool("mcp__s__t", null)).toStrictEqual({
      name: "mcp__s__t",
      input: {},
      server: "s",
      tool: "t",
      detail: "MCP server s, tool t",
    });
  });

  test("not an MCP name: a custom tool as before", () => {
    expect(tool("mcp__custom", { a: 1 })).toStrictEqual({ name: "mcp__custom", input: { a: 1 }, detail: '{\n  "a": 1\n}' });
  });
});
