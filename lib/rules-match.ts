// Matching one rule pattern against one simple command or one path. Pure: resolving symlinks is
// the caller's, which passes the path (and the directories patterns start from) both as written
// and as resolved.
import type { ShellCommand, ShellRedirect, ShellWord } from "./api.ts";
import { isAbsolute, relative, resolve } from "./node.ts";
import type { BashPattern, PathPattern, PatternWord } from "./rules-grammar.ts";
import { TILDE_PATH } from "./shell-words.ts";

/** The directories a path pattern can start from. */
export interface PathBases {
  /** The project: the call's working directory. */
  project: string;
  /** The rule file's project root (for a user rule file, the project). */
  root: string;
  home: string;
}

/** The pattern's words against the command's program and arguments, after its wrappers. */
export function commandMatches(pattern: BashPattern, command: ShellCommand): boolean {
  const program = command.program;
  if (!program) return false;
  return matchFrom(pattern.words, 0, command, program, 0);
}

/** The literal a pattern's program must be (its basename), for indexing; undefined when it may be any. */
export function patternProgram(pattern: BashPattern): string | undefined {
  const first = pattern.words[0];
  if (first?.kind !== "literal") return undefined;
  return first.text.slice(first.text.lastIndexOf("/") + 1);
}

function matchFrom(words: readonly PatternWord[], at: number, command: ShellCommand, program: ShellWord, index: number): boolean {
  const count = command.args.length + 1;
  if (at === words.length) return index === count;
  const word = words[at] as PatternWord;
  if (word.kind === "any") {
    for (let next = index; next <= count; next++) if (matchFrom(words, at + 1, command, program, next)) return true;
    return false;
  }
  if (index >= count) return false;
  if (index === 0 ? !programMatches(word, command, program) : !wordMatches(word, (command.args[index - 1] as ShellWord).text))
    return false;
  return matchFrom(words, at + 1, command, program, index + 1);
}

/** A pattern's program with a `/` is the path as written; without, the name bash runs (`/usr/bin/git` → `git`). */
function programMatches(word: Exclude<PatternWord, { kind: "any" }>, command: ShellCommand, program: ShellWord): boolean {
  if (word.kind === "glob") return word.regex.test(command.programName) || word.regex.test(program.text);
  return word.text.includes("/") ? word.text === program.text : word.text === command.programName;
}

function wordMatches(word: Exclude<PatternWord, { kind: "any" }>, text: string): boolean {
  return word.kind === "literal" ? word.text === text : word.regex.test(text);
}

/** The path pattern against an absolute path, both as written or both with symlinks resolved. */
export function pathMatches(pattern: PathPattern, path: string, bases: PathBases): boolean {
  const from = pattern.base === "absolute" ? "/" : bases[pattern.base];
  const rel = relative(from, path);
  if (rel === ".." || rel.startsWith("../") || isAbsolute(rel)) return false;
  return pattern.regex.test(rel);
}

/** What a redirect does to its file: `>`, `>>`, `&>`, `2>` … write; `<` reads; `<>` both; fds and heredocs: nothing. */
export function redirectAccess(redirect: ShellRedirect): "write" | "read" | "both" | undefined {
  const op = redirect.op.replace(/^\d+/, "");
  // `<<`, `<<-`, `<<<`: a heredoc or here-string, not a file.
  if (op.startsWith("<<")) return undefined;
  // `>&2`, `2>&1`, `<&0`, `>&-`: a descriptor, not a file.
  if (op.endsWith("&") && /^(?:\d+-?|-)$/.test(redirect.target?.text ?? "")) return undefined;
  if (op === "<>") return "both";
  return op.startsWith("<") ? "read" : "write";
}

/**
 * The absolute file a redirect names, resolved against where its command runs (the call's cwd
 * when only run time knows); undefined when the name itself is known only at run time.
 */
export function redirectPath(redirect: ShellRedirect, command: ShellCommand, cwd: string, home: string): string | undefined {
  const target = redirect.target;
  if (!target) return undefined;
  let name = target.text;
  if (target.dynamic) {
    // A leading `~` is the one expansion a file name can have that is known before run time.
    if (!TILDE_PATH.test(name)) return undefined;
    name = home + name.slice(1);
  }
  const dir = command.dir;
  const where = dir === undefined ? cwd : dir.startsWith("~") ? home + dir.slice(1) : resolve(cwd, dir);
  return resolve(where, name);
}
