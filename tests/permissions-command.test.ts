import { describe, expect, test } from "bun:test";
import { completePermissionsArgs, parsePermissionsCommand, resolveHookName } from "../lib/permissions-command.ts";
import { SUBCOMMAND_DESCRIPTIONS } from "../lib/presenter.ts";

describe("parsePermissionsCommand", () => {
  test.each([
    ["", { kind: "list" }],
    ["   ", { kind: "list" }],
    ["enable", { kind: "switch", enabled: true }],
    ["disable", { kind: "switch", enabled: false }],
    ["  disable  ", { kind: "switch", enabled: false }],
    ["DISABLE", { kind: "switch", enabled: false }],
    ["disable git commit", { kind: "switch", enabled: false, name: "git commit" }],
    ["enable   git  commit  ", { kind: "switch", enabled: true, name: "git  commit" }],
    ["enable\tgit", { kind: "switch", enabled: true, name: "git" }],
    ["log", { kind: "log" }],
    [" LOG ", { kind: "log" }],
    ["log everything", { kind: "usage" }],
    ["test", { kind: "usage" }],
    ["test git push origin", { kind: "test", toolName: "bash", input: { command: "git push origin" } }],
    ["TEST  cd x && echo y > .env ", { kind: "test", toolName: "bash", input: { command: "cd x && echo y > .env" } }],
    ['test read {"path": ".env"}', { kind: "test", toolName: "read", input: { path: ".env" } }],
    ["test mcp__github__create_issue {}", { kind: "test", toolName: "mcp__github__create_issue", input: {} }],
    ["test echo {a,b}", { kind: "test", toolName: "bash", input: { command: "echo {a,b}" } }],
    ['test echo ["x"]', { kind: "test", toolName: "bash", input: { command: 'echo ["x"]' } }],
    ["new Deploy gate", { kind: "new", name: "Deploy gate", scope: "user" }],
    ["NEW  deploy   --project ", { kind: "new", name: "deploy", scope: "project" }],
    ["new --project", { kind: "usage" }],
    ["new", { kind: "usage" }],
    ["new a --projects", { kind: "new", name: "a --projects", scope: "user" }],
    ["new --project my gate", { kind: "new", name: "my gate", scope: "project" }],
    ["new my --project gate", { kind: "new", name: "my gate", scope: "project" }],
    ["new --project  --project", { kind: "usage" }],
    ["new 日本語", { kind: "new", name: "日本語", scope: "user" }],
    ["new Überprüfung --project", { kind: "new", name: "Überprüfung", scope: "project" }],
    ["list", { kind: "usage" }],
    ["off git", { kind: "usage" }],
    ["enabled", { kind: "usage" }],
    ["git commit", { kind: "usage" }],
  ])("%j → %j", (args, command) => {
    expect(parsePermissionsCommand(args)).toEqual(command as never);
  });
});

describe("resolveHookName", () => {
  const names = ["git add", "git commit", "Deploy", "deploy"];

  test("the exact name wins", () => {
    expect(resolveHookName("git add", names)).toBe("git add");
    expect(resolveHookName("deploy", names)).toBe("deploy");
  });

  test("otherwise the one name that differs only in case", () => {
    expect(resolveHookName("GIT ADD", names)).toBe("git add");
  });

  test("no match, or an ambiguous one: none", () => {
    expect(resolveHookName("git", names)).toBeUndefined();
    expect(resolveHookName("DEPLOY", names)).toBeUndefined();
    expect(resolveHookName("x", [])).toBeUndefined();
  });

  test("a name listed twice (two hooks of one name) is still one hook", () => {
    expect(resolveHookName("GIT ADD", ["git add", "git add"])).toBe("git add");
  });
});

describe("completePermissionsArgs", () => {
  const hooks = [
    { name: "git add", description: "Asks before staging.", enabled: true },
    { name: "git commit", enabled: false },
    { name: "rm -rf", description: "Never.", enabled: true },
  ];
  const values = (prefix: string) => completePermissionsArgs(prefix, hooks)?.map((item) => item.value) ?? null;

  test("first the subcommands, with what they do", () => {
    expect(completePermissionsArgs("", hooks)).toEqual([
      { value: "enable", label: "enable", description: SUBCOMMAND_DESCRIPTIONS.enable },
      { value: "disable", label: "disable", description: SUBCOMMAND_DESCRIPTIONS.disable },
      { value: "log", label: "log", description: SUBCOMMAND_DESCRIPTIONS.log },
      { value: "test", label: "test", description: SUBCOMMAND_DESCRIPTIONS.test },
      { value: "grant", label: "grant", description: SUBCOMMAND_DESCRIPTIONS.grant },
      { value: "revoke", label: "revoke", description: SUBCOMMAND_DESCRIPTIONS.revoke },
      { value: "new", label: "new", description: SUBCOMMAND_DESCRIPTIONS.new },
    ]);
    expect(values("test ")).toBeNull();
    expect(values("dis")).toEqual(["disable"]);
    expect(values("lo")).toEqual(["log"]);
    expect(values("log ")).toBeNull();
    expect(values("en")).toEqual(["enable"]);
    expect(values("x")).toBeNull();
  });

  test("then the names of the hooks the subcommand would switch; the value is the whole argument", () => {
    expect(completePermissionsArgs("disable ", hooks)).toEqual([
      { value: "disable git add", label: "git add", description: "Asks before staging." },
      { value: "disable rm -rf", label: "rm -rf", description: "Never." },
    ]);
    expect(completePermissionsArgs("enable ", hooks)).toEqual([{ value: "enable git commit", label: "git commit" }]);
  });

  test("names are matched fuzzily, best first, as pi matches commands", () => {
    expect(values("disable rm")).toEqual(["disable rm -rf"]);
    expect(values("disable ga")).toEqual(["disable git add"]);
    expect(values("disable git")).toEqual(["disable git add"]);
    expect(values("DISABLE git")).toEqual(["disable git add"]);
  });

  test("an argument typed out in full gets no list, so enter runs the command", () => {
    expect(values("disable")).toBeNull();
    expect(values("  enable ")).toEqual(["enable git commit"]);
    expect(values("disable rm -rf")).toBeNull();
    expect(values("disable rm -r")).toEqual(["disable rm -rf"]);
  });

  test("nothing to offer: null", () => {
    expect(values("enable rm")).toBeNull();
    expect(values("toggle ")).toBeNull();
    expect(completePermissionsArgs("disable ", [])).toBeNull();
  });

  test("two hooks of one name are offered once", () => {
    const twice = [
      { name: "dup", enabled: true },
      { name: "dup", enabled: true },
    ];
    expect(completePermissionsArgs("disable ", twice)).toEqual([{ value: "disable dup", label: "dup" }]);
  });
});
