// Rules against real calls: each simple command after wrappers, file tools, and bash redirects
// resolved where their command runs (README "Rules").
import { describe, expect, test } from "bun:test";
import { decide, type PathResolver, parseRuleFile, type RuleFile } from "../lib/rules-file.ts";
import { normalizeToolInput } from "../lib/tool-input.ts";

const CWD = "/work/proj";
const HOME = "/home/u";
const BASES = { project: CWD, root: CWD, home: HOME };
/** No symlinks: every path is its own real path. */
const PLAIN: PathResolver = { bases: BASES, realBases: BASES, realPath: (path) => path };

function file(permissions: Record<string, unknown[]>): RuleFile {
  const parsed = parseRuleFile(JSON.stringify({ permissions }));
  if ("error" in parsed) throw new Error(parsed.error);
  return parsed;
}

function verdictOf(rules: RuleFile, toolName: string, input: Record<string, unknown>, paths = PLAIN) {
  return decide(rules, normalizeToolInput(toolName, input, CWD), CWD, paths, []);
}

/** Whether one ask rule asks for the bash command. */
function asks(rule: string, command: string): boolean {
  return verdictOf(file({ ask: [rule] }), "bash", { command })?.kind === "ask";
}

describe("bash rules, each simple command", () => {
  test.each([
    ["Bash(git push:*)", "git push", true],
    ["Bash(git push:*)", "git push origin main", true],
    ["Bash(git push:*)", "git pushx", false],
    ["Bash(git push:*)", "git status", false],
    ["Bash(git push:*)", "echo 'git push'", false],
    ["Bash(git push:*)", 'git commit -m "git push"', false],
    ["Bash(git push:*)", "git status && git push", true],
    ["Bash(git push:*)", "make || git push -f", true],
    ["Bash(git push:*)", "echo $(git push)", true],
    ["Bash(git push:*)", "echo `git push`", true],
    ["Bash(git push:*)", "bash -c 'git push'", true],
    ["Bash(git push:*)", 'sh -c "cd x && git push"', true],
    ["Bash(git push:*)", "eval 'git push origin'", true],
    ["Bash(git push:*)", "sudo git push", true],
    ["Bash(git push:*)", "env GIT_TRACE=1 git push", true],
    ["Bash(git push:*)", "GIT_TRACE=1 git push", true],
    ["Bash(git push:*)", "command git push", true],
    ["Bash(git push:*)", "timeout 5 nice git push", true],
    ["Bash(git push:*)", '"g"it pu"sh"', true],
    ["Bash(git push:*)", "/usr/bin/git push", true],
    ["Bash(git push:*)", "ls | xargs git push", true],
    ["Bash(git push:*)", "find . -exec git push \\;", true],
    ["Bash(git push:*)", "(cd sub; git push)", true],
    ["Bash(git push:*)", "if true; then git push; fi", true],
    ["Bash(git push:*)", "git -C . push", false],
    ["Bash(git push:*)", "# git push", false],
    ["Bash(npm test)", "npm test", true],
    ["Bash(npm test)", "npm test --watch", false],
    ["Bash(npm test)", "npm tests", false],
    ["Bash(npm test)", "npm  test", true],
    ["Bash(npm test)", "npm 'test'", true],
    ["Bash(git * main)", "git checkout main", true],
    ["Bash(git * main)", "git push origin main", true],
    ["Bash(git * main)", "git main", true],
    ["Bash(git * main)", "git push origin dev", false],
    ["Bash(ls *)", "ls -la", true],
    ["Bash(ls *)", "ls", true],
    ["Bash(ls *)", "lsof", false],
    ["Bash(ls*)", "lsof", true],
    ["Bash(ls*)", "ls -la", true],
    ["Bash(rm -rf *)", "rm -rf /tmp/x", true],
    ["Bash(rm -rf *)", "rm -r -f /tmp/x", false],
    ["Bash(rm:*)", "rm x", true],
    ["Bash(rm:*)", "rmdir x", false],
    ["Bash(*.sh)", "./deploy.sh", true],
    ["Bash(*.sh)", "deploy.sh --prod", false],
    ["Bash(./deploy.sh:*)", "./deploy.sh --prod", true],
    ["Bash(./deploy.sh:*)", "deploy.sh --prod", false],
    ["Bash(/usr/bin/git push:*)", "/usr/bin/git push", true],
    ["Bash(/usr/bin/git push:*)", "git push", false],
    ["Bash(* --force)", "git push --force", true],
    ["Bash(* --force)", "git push --force-with-lease", false],
    ['Bash(git commit -m "wip")', "git commit -m wip", true],
    ['Bash(git commit -m "wip")', 'git commit -m "wip now"', false],
    ["Bash(curl https://example.com/*)", "curl https://example.com/a -o x", true],
    ["Bash(curl https://example.com/*)", "curl https://example.org/a", false],
    ["Bash(curl*)", "curl https://example.org/a", true],
    ["Bash(npm run test:*)", "npm run test:unit", false],
    ["Bash(npm run test*)", "npm run test:unit", true],
    ["Bash(git push $REMOTE:*)", "git push $REMOTE", true],
    ["Bash", "echo hi", true],
    ["Bash(*)", "", true],
  ])("%s, %j: %p", (rule, command, matches) => {
    expect(asks(rule, command)).toBe(matches);
  });

  test("the highlight covers each command that asks, and only those", () => {
    const command = "git status && git push origin && git push";
    expect(verdictOf(file({ ask: ["Bash(git push:*)"] }), "bash", { command })).toEqual({
      kind: "ask",
      rule: expect.objectContaining({ text: "Bash(git push:*)" }),
      spans: [
        { start: 14, end: 29 },
        { start: 33, end: 41 },
      ],
    });
  });
});

describe("file tools", () => {
  test.each([
    ["Read(./.env)", "read", { path: ".env" }, true],
    ["Read(./.env)", "read", { path: "./sub/../.env" }, true],
    ["Read(./.env)", "read", { path: `${CWD}/.env` }, true],
    ["Read(./.env)", "read", { path: "sub/.env" }, false],
    ["Read(.env)", "read", { path: "sub/.env" }, true],
    ["Read(.env)", "read", { path: "/elsewhere/.env" }, false],
    ["Read(./.env)", "grep", { pattern: "KEY", path: ".env" }, true],
    ["Read(./.env)", "write", { path: ".env", content: "" }, false],
    ["Read(./secrets/**)", "ls", { path: "secrets/api" }, true],
    ["Read(./secrets/**)", "find", { pattern: "*", path: "secrets/api" }, true],
    ["Read(./secrets/**)", "grep", { pattern: "x" }, false],
    ["Read(./secrets/**)", "grep", { pattern: "x", path: "secrets" }, true],
    ["Read(./secrets/**)", "ls", { path: "./secrets/" }, true],
    ["Read(./secrets/**)", "read", { path: "secrets-old/a" }, false],
    ["Read(~/.ssh/**)", "find", { pattern: "id_*", path: `${HOME}/.ssh` }, true],
    ["Read(~/.ssh/**)", "read", { path: `${HOME}/.ssh/id_ed25519` }, true],
    ["Read(//etc/shadow)", "read", { path: "/etc/shadow" }, true],
    ["Read(/docs/**)", "read", { path: "docs/a.md" }, true],
    ["Read", "read", { path: "anything" }, true],
    ["Read", "bash", { command: "cat x" }, false],
    ["Edit(./.env)", "edit", { path: ".env", edits: [] }, true],
    ["Edit(./.env)", "Edit", { file_path: ".env", old_string: "a", new_string: "b" }, true],
    ["Edit(./.env)", "write", { path: ".env", content: "x" }, true],
    ["Edit(./.env)", "read", { path: ".env" }, false],
    ["Edit(src/**)", "write", { path: "src/a/b.ts", content: "x" }, true],
    ["Edit(src/**)", "write", { path: "lib/a.ts", content: "x" }, false],
    ["Write(./.env)", "write", { path: ".env", content: "x" }, true],
    ["Write(./.env)", "edit", { path: ".env", edits: [] }, false],
    ["Grep(./secrets)", "grep", { pattern: "x", path: "secrets" }, true],
    ["Grep(./secrets)", "read", { path: "secrets/a" }, false],
    ["Find", "find", { pattern: "*.ts" }, true],
    ["Ls(./private)", "ls", { path: "private" }, true],
    ["mcp__github__create_issue", "mcp__github__create_issue", { title: "x" }, true],
    ["mcp__github__create_issue", "mcp__github__list_issues", {}, false],
    ["mcp__github", "mcp__github__list_issues", {}, true],
    ["mcp__github__*", "mcp__github__list_issues", {}, true],
    ["mcp__github", "mcp__githubx__list", {}, false],
    ["codemode", "codemode", { code: "" }, true],
  ])("%s, %s %j: %p", (rule, tool, input, matches) => {
    expect(verdictOf(file({ ask: [rule] }), tool, input)?.kind === "ask").toBe(matches);
  });
});

describe("bash redirects against Edit, Write and Read", () => {
  test.each([
    ["Edit(./.env)", "echo x > .env", true],
    ["Edit(./.env)", "echo x >> .env", true],
    ["Edit(./.env)", "echo x &> .env", true],
    ["Edit(./.env)", "echo x 2> .env", true],
    ["Edit(./.env)", "echo x >| .env", true],
    ["Edit(./.env)", "cat < .env", false],
    ["Edit(./.env)", "cd config && echo x > ../.env", true],
    ["Edit(./.env)", "cd config && echo x > .env", false],
    ["Edit(./.env)", "(cd config; true) && echo x > .env", true],
    ["Edit(./.env)", "echo x > ./sub/../.env", true],
    ["Edit(./.env)", "echo x 2>&1", false],
    ["Edit(./.env)", "echo x > $FILE", false],
    ["Edit(./.env)", 'echo x > "$(pwd)/.env"', false],
    ["Edit(~/.ssh/**)", "echo key >> ~/.ssh/authorized_keys", true],
    ["Edit(~/.ssh/**)", "cd ~ && echo key >> .ssh/authorized_keys", true],
    ["Edit(~/.ssh/**)", "cd '~' && echo key >> .ssh/authorized_keys", false],
    ["Edit(./~/.ssh/**)", "cd '~' && echo key >> .ssh/authorized_keys", true],
    ["Edit(./~p/**)", "cd '~p' && echo x > f", true],
    ["Edit(//etc/**)", "echo x > /etc/hosts", true],
    ["Edit(//etc/**)", "cd /etc && echo x > hosts", true],
    ["Write(./.env)", "echo x > .env", true],
    ["Read(./.env)", "cat < .env", true],
    ["Read(./.env)", "echo x > .env", false],
    ["Edit", "echo x > anywhere", true],
  ])("%s, %j: %p", (rule, command, matches) => {
    expect(asks(rule, command)).toBe(matches);
  });
});

describe("symlinks: deny and ask match the path as written or resolved; allow only resolved", () => {
  /** `link` → the project, `docs` → ~/.ssh. */
  const LINKED: PathResolver = {
    bases: BASES,
    realBases: BASES,
    realPath: (path) => path.replace(`${CWD}/link/`, `${CWD}/`).replace(`${CWD}/docs/`, `${HOME}/.ssh/`),
  };

  test("Read(./.env) holds for link/.env", () => {
    expect(verdictOf(file({ deny: ["Read(./.env)"] }), "read", { path: "link/.env" }, LINKED)?.kind).toBe("deny");
  });

  test("Edit(./link/**) holds for link/x as written", () => {
    expect(verdictOf(file({ deny: ["Edit(./link/**)"] }), "write", { path: "link/x", content: "" }, LINKED)?.kind).toBe("deny");
  });

  test("an allow of docs/** doesn't exempt a write that lands in ~/.ssh", () => {
    const rules = file({ ask: ["Edit(~/.ssh/**)"], allow: ["Edit(./docs/**)"] });
    expect(verdictOf(rules, "write", { path: "docs/authorized_keys", content: "" }, LINKED)?.kind).toBe("ask");
    expect(verdictOf(rules, "write", { path: "docs/authorized_keys", content: "" })).toBeUndefined();
  });
});

describe("deny, ask and allow within one file", () => {
  test("deny wins over ask and allow, anywhere in a chain", () => {
    const rules = file({ deny: ["Bash(rm -rf:*)"], ask: ["Bash(git push:*)"], allow: ["Bash(rm -rf:*)"] });
    expect(verdictOf(rules, "bash", { command: "git push && rm -rf build" })).toEqual({
      kind: "deny",
      rule: expect.objectContaining({ text: "Bash(rm -rf:*)" }),
    });
  });

  test("allow exempts the commands it matches from ask, each on its own", () => {
    const rules = file({ ask: ["Bash(git push:*)"], allow: ["Bash(git push origin feature)"] });
    expect(verdictOf(rules, "bash", { command: "git push origin feature" })).toBeUndefined();
    expect(verdictOf(rules, "bash", { command: "git push origin feature && git push origin main" })).toEqual({
      kind: "ask",
      rule: expect.objectContaining({ text: "Bash(git push:*)" }),
      spans: [{ start: 27, end: 47 }],
    });
  });

  test("ask Bash with allowed commands: a call runs unasked only when every command is allowed", () => {
    const rules = file({ ask: ["Bash"], allow: ["Bash(git status)", "Bash(ls:*)"] });
    expect(verdictOf(rules, "bash", { command: "git status && ls -la" })).toBeUndefined();
    expect(verdictOf(rules, "bash", { command: "git status && rm x" })?.kind).toBe("ask");
    expect(verdictOf(rules, "bash", { command: 'bash -c "$CMD"' })?.kind).toBe("ask");
    // With path rules in the file, the files redirects touch are parts of the call too: each must be allowed.
    const withPaths = file({ deny: ["Read(./.env)"], ask: ["Bash"], allow: ["Bash(ls:*)", "Edit(./out)"] });
    expect(verdictOf(withPaths, "bash", { command: "ls > out" })).toBeUndefined();
    expect(verdictOf(withPaths, "bash", { command: "ls > ~/.bashrc" })?.kind).toBe("ask");
  });

  test("grants exempt from ask like allow, never from deny", () => {
    const rules = file({ deny: ["Bash(git push --force:*)"], ask: ["Bash(git push:*)"] });
    const grant = file({ allow: ["Bash(git push:*)"] }).allow;
    const call = (command: string) => decide(rules, normalizeToolInput("bash", { command }, CWD), CWD, PLAIN, [grant]);
    expect(call("git push origin")).toMatchObject({
      kind: "granted",
      rule: { text: "Bash(git push:*)" },
      grant: { text: "Bash(git push:*)" },
    });
    expect(call("git push --force")?.kind).toBe("deny");
  });

  test("the first ask rule in file order names the decision", () => {
    const rules = file({ ask: ["Bash(git:*)", "Bash(git push:*)"] });
    expect(verdictOf(rules, "bash", { command: "git push" })).toMatchObject({ rule: { text: "Bash(git:*)" } });
  });

  test("a rule object carries its reason and guidance", () => {
    const rules = file({ deny: [{ rule: "Bash(curl:*)", reason: "Use the fetch tool." }] });
    expect(verdictOf(rules, "bash", { command: "curl x" })).toEqual({
      kind: "deny",
      rule: { text: "Bash(curl:*)", target: expect.anything(), reason: "Use the fetch tool." },
    });
  });
});
