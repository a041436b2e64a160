// Real bash as the oracle for word decoding: for lines without run-time expansions, the decoded
// words equal the argv bash passes. The program is a shell function that prints its arguments, so
// bash never runs a real program. And for where a `cd` lands: the directory bash's pwd prints.
import { afterAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseShell } from "../lib/shell-parse.ts";
import { generatedWords } from "./support/shell-generate.ts";

const PROGRAMS = ["argv", "git", "rm"];
// No PATH inside the script: a line that named anything but a stand-in could not run it.
const PRELUDE = `PATH=/nonexistent\n${PROGRAMS.map((name) => `${name}() { printf '%s\\0' ${name} "$@"; printf '\\1'; }`).join("\n")}`;

/** The argv bash passes for each line (one simple command per line). */
function bashArgv(lines: string[]): string[][] {
  const run = spawnSync("bash", ["--norc", "--noprofile"], {
    input: `${PRELUDE}\n${lines.join("\n")}\n`,
    encoding: "utf8",
    env: { ...process.env, LC_ALL: "C.UTF-8" },
  });
  expect(run.stderr).toBe("");
  return run.stdout
    .split("\u0001")
    .slice(0, -1)
    .map((argv) => argv.split("\0").slice(0, -1));
}

function ourArgv(line: string): string[] {
  const { commands, complete } = parseShell(line);
  expect([line, complete, commands.length]).toEqual([line, true, 1]);
  const [command] = commands;
  expect(command.args.some((word) => word.dynamic)).toBe(false);
  return [command.programName, ...command.args.map((word) => word.text)];
}

const DECODING = [
  `"g"it add .`,
  `g\\it add .`,
  `$'git' add .`,
  `$'\\x67\\151t' add`,
  `gi\\\nt add`,
  `git\\\n  add x`,
  `'git' "add" $'a\\tb' $"c"`,
  `git add "" '' $''`,
  `git commit -m "a \\"quoted\\" \\$word and \\\\ and \\x"`,
  `git commit -m 'it'\\''s'`,
  `rm -- -rf "a b" c\\ d`,
  `rm \\-rf x`,
  `argv a#b '#' "#" \\# x`,
  `argv $'\\e[31m\\u00e9\\U0001F680\\cB\\0101'`,
  `argv '' "" a""b c''d`,
  `argv {} \\{a,b\\} '*' "?" \\[x\\]`,
  `argv a=b --opt=v x+=y`,
  `argv "$" '$' \\$x "\\\`"`,
  `argv $'r\\0m' $'\\x00a'b`,
];

test("issue's decoding cases and more: argv as bash passes it", () => {
  const argv = bashArgv(DECODING);
  expect(DECODING.map(ourArgv)).toEqual(argv);
});

test("2,000 generated lines of words in every quoting style: argv as bash passes it", () => {
  const lines = generatedWords(2000).map((words) => ["argv", ...words.map((word) => word.source)].join(" "));
  const argv = bashArgv(lines);
  expect(argv).toHaveLength(lines.length);
  for (let index = 0; index < lines.length; index++)
    expect([lines[index], ourArgv(lines[index])]).toEqual([lines[index], argv[index]]);
});

test("where cd lands: a quoted or escaped ~ is a directory named ~, only a bare leading ~ is home", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "pph-cd-")));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const home = join(root, "home");
  const cwd = join(root, "cwd");
  for (const dir of [join(home, "p"), join(cwd, "~", "p"), join(cwd, "~p"), join(cwd, "sub", "~")])
    mkdirSync(dir, { recursive: true });
  const lines = [
    "cd ~",
    "cd ~/p",
    "cd '~'",
    'cd "~"',
    "cd \\~",
    "cd '~'/p",
    'cd "~/p"',
    "cd '~p'",
    "cd sub && cd '~'",
    "cd -- '~'",
    "pushd '~' >/dev/null",
  ];
  const run = spawnSync("bash", ["--norc", "--noprofile"], {
    input: lines.map((line) => `(${line} && pwd)\n`).join(""),
    cwd,
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: home, LC_ALL: "C.UTF-8" },
  });
  expect(run.stderr).toBe("");
  const ours = lines.map((line) => {
    const dir = parseShell(`${line} && pwd`).commands.at(-1)?.dir;
    return dir === undefined ? "unknown" : dir === "~" || dir.startsWith("~/") ? home + dir.slice(1) : resolve(cwd, dir);
  });
  expect(ours).toEqual(run.stdout.trimEnd().split("\n"));
});
