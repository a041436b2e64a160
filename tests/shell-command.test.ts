// The per-command API (hasFlag, subcommand, positionals, redirects), offsets into the source, the
// wrapper table, and inputs that must neither throw nor recurse.
import { describe, expect, test } from "bun:test";
import type { ShellCommand } from "../lib/shell-command.ts";
import { parseShell } from "../lib/shell-parse.ts";
import { changeDir, decodeMapped } from "../lib/shell-words.ts";
import { WRAPPERS } from "../lib/shell-wrappers.ts";

function only(source: string): ShellCommand {
  const { commands } = parseShell(source);
  expect(commands).toHaveLength(1);
  return commands[0];
}

describe("hasFlag", () => {
  test("single letters match inside bundles, long flags alone or with =", () => {
    for (const source of ["rm -rf x", "rm -fr x", "rm -r -f x", "rm --recursive --force x", "rm -Rf x"]) {
      const rm = only(source);
      expect([source, rm.hasFlag("-r", "-R", "--recursive") && rm.hasFlag("-f", "--force")]).toEqual([source, true]);
    }
    expect(only("git push --force-with-lease=main").hasFlag("--force-with-lease")).toBe(true);
    expect(only("git push --force-with-lease").hasFlag("--force")).toBe(false);
    expect(only("ls -la").hasFlag("-l")).toBe(true);
  });
  test("stops at --; a quoted or bundled letter in another word is not a flag", () => {
    expect(only("rm -- -rf").hasFlag("-r")).toBe(false);
    expect(only("git commit -m 'rm -rf later'").hasFlag("-r")).toBe(false);
    expect(only("rm x").hasFlag("-r", "--recursive")).toBe(false);
    expect(only("rm $FLAGS x").hasFlag("-r")).toBe(false);
  });
});

describe("subcommand and positionals", () => {
  test("skips flags and the values of known global flags", () => {
    expect(only("git -C . add x").subcommand()?.text).toBe("add");
    expect(only("git --git-dir=.git add x").subcommand()?.text).toBe("add");
    expect(only("git --no-pager add x").subcommand()?.text).toBe("add");
    expect(only("git -c user.name=x commit").subcommand()?.text).toBe("commit");
    expect(only("docker --context prod rm x").subcommand()?.text).toBe("rm");
  });
  test("valueFlags replace the known ones", () => {
    expect(only("npm --prefix web run build").subcommand()?.text).toBe("web");
    expect(only("npm --prefix web run build").subcommand({ valueFlags: ["--prefix"] })?.text).toBe("run");
    expect(only("git -C . add x").subcommand({ valueFlags: [] })?.text).toBe(".");
  });
  test("a program named like one of Object's properties has no known flags", () => {
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"])
      expect([name, only(`${name} -v x`).subcommand()?.text]).toEqual([name, "x"]);
  });
  test("positionals: everything after --, nothing for a bare program", () => {
    expect(
      only("git add -p -- a -b")
        .positionals()
        .map((word) => word.text),
    ).toEqual(["add", "a", "-b"]);
    expect(only("git").subcommand()).toBeUndefined();
    expect(only("git --version").positionals()).toEqual([]);
  });
});

describe("offsets", () => {
  test("every word and span points into the source, even when decoded", () => {
    const source = `FOO=1 "g"it add 'a b' && echo $(rm -rf x) > out`;
    const [git, echo, rm] = parseShell(source).commands;
    expect(source.slice(git.span.start, git.span.end)).toBe(`FOO=1 "g"it add 'a b'`);
    expect(git.program).toEqual({ text: "git", start: 6, end: 11, dynamic: false });
    expect(git.args.map((arg) => source.slice(arg.start, arg.end))).toEqual(["add", "'a b'"]);
    expect(git.assignments.map((arg) => arg.text)).toEqual(["FOO=1"]);
    expect(source.slice(echo.span.start, echo.span.end)).toBe("echo $(rm -rf x) > out");
    expect(echo.redirects).toEqual([{ op: ">", target: { text: "out", start: 44, end: 47, dynamic: false } }]);
    expect(source.slice(rm.span.start, rm.span.end)).toBe("rm -rf x");
  });
  test("payload words map back through quotes and escapes", () => {
    const source = `bash -c "git add \\"a b\\"" && sh -c 'cd x && rm -rf y'`;
    const commands = parseShell(source).commands;
    const git = commands.find((command) => command.programName === "git") as ShellCommand;
    expect(git.args.map((arg) => arg.text)).toEqual(["add", "a b"]);
    expect(source.slice(git.span.start, git.span.end)).toBe(`git add \\"a b\\"`);
    const rm = commands.find((command) => command.programName === "rm") as ShellCommand;
    expect(source.slice(rm.span.start, rm.span.end)).toBe("rm -rf y");
    expect(rm.dir).toBe("x");
  });
  test("escaped backticks map back too", () => {
    const source = "echo `echo \\`git add\\``";
    const git = parseShell(source).commands[2];
    expect(git.programName).toBe("git");
    expect(source.slice(git.span.start, git.span.end)).toBe("git add");
  });
  test("heredoc bodies are spans of the source", () => {
    const source = "cat <<'EOF' > notes\nline $(x)\nEOF\necho done";
    const [cat, echo] = parseShell(source).commands;
    const heredoc = cat.redirects[0];
    expect(heredoc.op).toBe("<<");
    expect(heredoc.target?.text).toBe("EOF");
    expect(source.slice(heredoc.body?.start, heredoc.body?.end)).toBe("line $(x)\n");
    expect(cat.redirects[1].target?.text).toBe("notes");
    expect(echo.programName).toBe("echo");
  });
});

describe("wrappers", () => {
  test("the table is one object an Author can extend", () => {
    expect(parseShell("chronic git add x").commands[0].programName).toBe("chronic");
    const commands = parseShell("chronic -e git add x", { ...WRAPPERS, chronic: { valueFlags: [] } }).commands;
    expect(commands[0].programName).toBe("git");
    expect(commands[0].wrappers.map((word) => word.text)).toEqual(["chronic", "-e"]);
  });
  test("wrapper words stay visible", () => {
    const git = only("sudo -u root nice -n 5 git add .");
    expect(git.wrappers.map((word) => word.text)).toEqual(["sudo", "-u", "root", "nice", "-n", "5"]);
    expect(git.words.map((word) => word.text)).toEqual(["sudo", "-u", "root", "nice", "-n", "5", "git", "add", "."]);
  });
});

describe("directories and words", () => {
  test("changeDir normalizes relative, absolute and home paths", () => {
    expect(changeDir(".", "sub")).toBe("sub");
    expect(changeDir(".", "..")).toBe("..");
    expect(changeDir("sub", "../..")).toBe("..");
    expect(changeDir("a", "/tmp/../etc")).toBe("/etc");
    expect(changeDir("/", "..")).toBe("/");
    expect(changeDir("x", "~/p/../q")).toBe("~/q");
    expect(changeDir("~", "..")).toBe("~/..");
  });
  test("decodeMapped keeps a source offset per character", () => {
    const source = `a"b c"\\d'e'`;
    const { text, map } = decodeMapped(source, 0, source.length);
    expect(text).toBe("ab cde");
    expect(map).toEqual([0, 2, 3, 4, 7, 9, 11]);
  });
  test("decodeMapped reads an unclosed $' no further than the word", () => {
    const source = "$'a b c";
    expect(decodeMapped(source, 0, 4)).toEqual({ text: "a ", map: [0, 0, 4] });
  });
});

describe("never throws, never recurses", () => {
  test("a 1 MB one-liner", () => {
    const source = "echo a b c && ".repeat(80_000);
    const parsed = parseShell(`${source}true`);
    expect(parsed.commands).toHaveLength(80_001);
    expect(parsed.complete).toBe(true);
  });
  test("a 1 MB payload", () => {
    const parsed = parseShell(`bash -c '${"echo a b c && ".repeat(80_000)}true'`);
    expect(parsed.commands).toHaveLength(80_002);
    expect(parsed.complete).toBe(true);
  });
  test("10,000 nested $( ), bare and inside double quotes", () => {
    for (const [open, close] of [
      ["echo $(", ")"],
      ['echo "$(', ')"'],
    ]) {
      const parsed = parseShell(`${open.repeat(10_000)}x${close.repeat(10_000)}`);
      expect(parsed.commands).toHaveLength(10_001);
      expect(parsed.complete).toBe(true);
    }
  });
  test("10,000 nested subshells, braces and ifs", () => {
    expect(parseShell(`${"( ".repeat(10_000)}x${")".repeat(10_000)}`).commands).toHaveLength(1);
    expect(parseShell(`${"(".repeat(10_000)}x${")".repeat(10_000)}`).commands).toHaveLength(0);
    expect(parseShell(`${"{ ".repeat(10_000)}x${"; }".repeat(10_000)}`).complete).toBe(true);
    expect(parseShell(`${"if a; then ".repeat(10_000)}x${"; fi".repeat(10_000)}`).commands).toHaveLength(10_001);
  });
  test("payloads nested past the limit, or repeated past the budget, end as incomplete", () => {
    const deep = parseShell(`${"eval ".repeat(100)}git add`);
    expect(deep.complete).toBe(false);
    const wide = parseShell(`${"eval ".repeat(200_000)}git add`);
    expect(wide.complete).toBe(false);
  });
  test("a substitution left open in a heredoc's body is read once, however often the pattern repeats", () => {
    const parsed = parseShell("<<EOF\n$(\nEOF\nsh -c `".repeat(20));
    expect(parsed.commands).toHaveLength(91);
    expect(parsed.complete).toBe(false);
  });
  test("every prefix of a tricky line parses without throwing", () => {
    const source = `a=$(b "c \${d:-'e'}" \`f\`) g <<'H' | i && for j in k; do case $l in m) n;; esac; done\nbody\nH\n[[ -f x ]] || { bash -c 'o'; }`;
    for (let end = 0; end <= source.length; end++) {
      const parsed = parseShell(source.slice(0, end));
      expect(Array.isArray(parsed.commands)).toBe(true);
    }
    expect(parseShell(source).complete).toBe(true);
  });
});
