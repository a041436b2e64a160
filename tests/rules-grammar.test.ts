// The rule grammar: what each spelling means, and what is refused or reported (README "Rules").
import { describe, expect, test } from "bun:test";
import { ruleProblems } from "../lib/presenter.ts";
import { parseBashPattern, parsePathPattern, parseRule, type Rule, type RuleProblem } from "../lib/rules-grammar.ts";

function target(text: string) {
  const rule = parseRule(text);
  if ("problem" in rule) throw new Error(`${text}: ${rule.problem}`);
  return rule.target;
}

function problem(text: string): RuleProblem {
  const rule = parseRule(text) as Rule | RuleProblem;
  if (!("problem" in rule)) throw new Error(`${text} parsed`);
  return rule;
}

/** A bash pattern as words: literals as text, `*` alone as "…", word globs as their regex source. */
function words(specifier: string): string[] {
  const pattern = parseBashPattern(specifier);
  if ("problem" in pattern) throw new Error(pattern.problem);
  return pattern.words.map((word) =>
    word.kind === "any" ? "…" : word.kind === "literal" ? word.text : `/${word.regex.source}/`,
  );
}

describe("tools", () => {
  test.each([
    ["Bash", { kind: "bash" }],
    ["Bash(*)", { kind: "bash" }],
    ["bash", { kind: "bash" }],
    ["Read", { kind: "path", tool: "Read" }],
    ["Edit", { kind: "path", tool: "Edit" }],
    ["Write", { kind: "path", tool: "Write" }],
    ["Grep", { kind: "path", tool: "Grep" }],
    ["Find", { kind: "path", tool: "Find" }],
    ["LS", { kind: "path", tool: "Ls" }],
    ["Ls", { kind: "path", tool: "Ls" }],
    ["mcp__github__create_issue", { kind: "tool", name: "mcp__github__create_issue" }],
    ["mcp__github", { kind: "tool", name: "mcp__github", server: true }],
    ["mcp__github__*", { kind: "tool", name: "mcp__github", server: true }],
    ["codemode", { kind: "tool", name: "codemode" }],
    ["my-tool", { kind: "tool", name: "my-tool" }],
    ["constructor", { kind: "tool", name: "constructor" }],
    ["toString", { kind: "tool", name: "toString" }],
    ["__proto__", { kind: "tool", name: "__proto__" }],
    ["hasOwnProperty", { kind: "tool", name: "hasOwnProperty" }],
  ])("%s", (text, expected) => {
    expect(target(text)).toEqual(expected as never);
  });

  test.each([
    ["WebFetch(domain:example.com)", ruleProblems.toolPiLacks("WebFetch")],
    ["WebSearch", ruleProblems.toolPiLacks("WebSearch")],
    ["Glob(*.ts)", ruleProblems.toolPiLacks("Glob")],
    ["MultiEdit(src/**)", ruleProblems.toolPiLacks("MultiEdit")],
    ["NotebookEdit", ruleProblems.toolPiLacks("NotebookEdit")],
    ["Task", ruleProblems.toolPiLacks("Task")],
    ["codemode(x)", ruleProblems.specifierOnTool("codemode")],
    ["mcp__github__create_issue(x)", ruleProblems.specifierOnTool("mcp__github__create_issue")],
    ["constructor(x)", ruleProblems.specifierOnTool("constructor")],
    ["__proto__(x)", ruleProblems.specifierOnTool("__proto__")],
  ])("%s is reported as unsupported", (text, message) => {
    expect(problem(text)).toEqual({ problem: message, unsupported: true });
  });

  test.each([
    ["", ruleProblems.notARule],
    ["Bash(git push", ruleProblems.notARule],
    ["Bash git push", ruleProblems.notARule],
    ["(git push)", ruleProblems.notARule],
    ["Bash()", ruleProblems.emptyPattern],
    ["Read()", ruleProblems.emptyPattern],
    ["Bash(git:* push)", ruleProblems.prefixNotAtEnd],
    ["Bash(echo 'unclosed)", ruleProblems.unclosedQuote],
  ])("%j is malformed", (text, message) => {
    expect(problem(text)).toEqual({ problem: message });
  });

  test("the text is kept as written", () => {
    expect((parseRule("Bash(git push:*)") as Rule).text).toBe("Bash(git push:*)");
  });
});

describe("bash patterns", () => {
  test.each([
    ["git push:*", ["git", "push", "…"]],
    ["npm test", ["npm", "test"]],
    ["git * main", ["git", "…", "main"]],
    ["ls *", ["ls", "…"]],
    ["ls*", ["/^ls[^]*$/", "…"]],
    ["*.sh", ["/^[^]*\\.sh$/"]],
    ["rm -rf *", ["rm", "-rf", "…"]],
    ["git * * main", ["git", "…", "main"]],
    ["* --force", ["…", "--force"]],
    ['git commit -m "wip"', ["git", "commit", "-m", "wip"]],
    ["git commit -m 'two words'", ["git", "commit", "-m", "two words"]],
    ['echo "*"', ["echo", "*"]],
    ["echo \\*", ["echo", "*"]],
    ["  git   status  ", ["git", "status"]],
    ["/usr/bin/git push:*", ["/usr/bin/git", "push", "…"]],
    ["git push --force:*", ["git", "push", "--force", "…"]],
    ["curl*example.com", ["/^curl[^]*example\\.com$/"]],
  ])("%s", (specifier, expected) => {
    expect(words(specifier)).toEqual(expected);
  });
});

describe("path patterns", () => {
  function path(specifier: string) {
    const pattern = parsePathPattern(specifier);
    if ("problem" in pattern) throw new Error(pattern.problem);
    return pattern;
  }

  test.each([
    ["./.env", "project"],
    [".env", "project"],
    ["src/**", "project"],
    ["/docs/**", "root"],
    ["~/.ssh/**", "home"],
    ["~", "home"],
    ["//etc/passwd", "absolute"],
  ])("%s starts from the %s", (specifier, base) => {
    expect(path(specifier).base).toBe(base as never);
  });

  test.each([
    // [pattern, path relative to its base, matches]
    ["./.env", ".env", true],
    ["./.env", "sub/.env", false],
    ["./.env", ".env.local", false],
    [".env", ".env", true],
    [".env", "a/b/.env", true],
    [".env", "a/b/x.env", false],
    ["*.pem", "certs/server.pem", true],
    ["*.pem", "server.pem", true],
    ["*.pem", "server.pem.txt", false],
    ["./secrets", "secrets", true],
    ["./secrets", "secrets/api/key", true],
    ["./secrets/", "secrets/key", true],
    ["./secrets", "secretsX", false],
    ["src/**", "src/a/b.ts", true],
    // What a search of src reads: everything under it.
    ["src/**", "src", true],
    ["src/**", "src-old", false],
    ["src/**/*.ts", "src/a/b.ts", true],
    ["src/**/*.ts", "src/b.ts", true],
    ["src/**/*.ts", "src/b.js", false],
    ["src/*.ts", "src/a/b.ts", false],
    ["src/?.ts", "src/a.ts", true],
    ["src/?.ts", "src/ab.ts", false],
    ["docs/a+b(1).md", "docs/a+b(1).md", true],
    ["./*", "anything/at/all", true],
    ["~/.ssh/**", ".ssh/authorized_keys", true],
    ["~", "any/file", true],
    ["//etc/passwd", "etc/passwd", true],
    ["//etc/passwd", "etc/passwd.bak", false],
  ])("%s against %s: %p", (specifier, relativePath, matches) => {
    expect(path(specifier).regex.test(relativePath)).toBe(matches);
  });
});
