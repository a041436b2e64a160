// The Author API: what a permission module's default export receives, and the shapes it returns.
// The package's `types`: it imports nothing, so an Author's type check reads this file alone.

export interface PermissionsAPI {
  /** With `tools`, the handler sees only those tools, typed: `tools: ["bash"]` gives `tool.commands`. */
  onToolUse<Name extends string = string>(hook: Hook<Name>): void;
  /** `highlight` also takes commands and words from `tool.commands`. */
  request(prompt?: AuthorRequestPrompt): RequestDecision;
  block(reason: string): BlockDecision;
  highlightSpans(detail: string, highlight: PermissionHighlight | undefined): HighlightSpan[];
  /** Narrows `tool` by name: `if (api.isTool("bash", tool)) tool.commands…`. */
  isTool<Name extends KnownToolName>(name: Name, tool: PermissionTool): tool is ToolNamed<Name>;
  /** The short form of a bash hook: these programs (with these subcommands) are asked for, or blocked. */
  matchCommand(rule: CommandRule): void;
  /**
   * Programs that run the rest of their words as a command, added to the wrapper table (or replacing
   * an entry of it) for every hook's `tool.commands`: `api.wrappers({ chronic: { valueFlags: [] } })`.
   */
  wrappers(table: Record<string, WrapperSpec>): void;
}

/** How a wrapper's words before the program read; every field may be left out. */
export interface WrapperSpec {
  /** Flags whose value is the next word unless attached (`-u root`, `-uroot`, `--user=root`). */
  valueFlags?: readonly string[];
  /** Positional words before the program (`timeout`'s duration). */
  operands?: number;
  /** Takes `NAME=value` words before the program, as `env` does. */
  assignments?: boolean;
  /** Flags with which it runs no program (`command -v git` only prints). */
  noRunFlags?: readonly string[];
  /** Flags whose value is a command line it runs (`env -S`). */
  payloadFlags?: readonly string[];
  /** Flags whose value is the directory the program runs in (`env -C`, `sudo -D`). */
  dirFlags?: readonly string[];
}

/** A word as bash passes it to the program, with its offsets in the parsed string. */
export interface ShellWord {
  text: string;
  start: number;
  end: number;
  /** Bash expands it at run time (`$VAR`, `$(…)`, a glob, `~`, `{a,b}`): `text` is then the source as written. */
  dynamic: boolean;
}

export interface ShellSpan {
  start: number;
  end: number;
}

export interface ShellRedirect {
  /** As written, with its file descriptor: `>`, `>>`, `<`, `2>`, `&>`, `2>&`, `<<`, `<<<` … */
  op: string;
  /** The file, descriptor, heredoc delimiter or here-string; undefined only when the command ends first. */
  target: ShellWord | undefined;
  /** A heredoc's body in the parsed string. */
  body?: ShellSpan;
}

/**
 * How bash reaches the command: written in the source (including inside `$( )`, backticks and process
 * substitutions), a `sh -c`/`eval`/`env -S` payload, a heredoc or here-string fed to a shell, or run by
 * `xargs` or `find -exec`.
 */
export type ShellVia = "source" | "-c" | "eval" | "stdin" | "xargs" | "find";

export interface ValueFlagsOption {
  /** Flags whose value is the next word (`-C dir`), unless attached (`-Cdir`, `--git-dir=x`). */
  valueFlags?: readonly string[];
}

/** One simple command as bash would run it; its lists are the parser's, to read, not to change. */
export interface ShellCommand {
  /** Every word after the leading assignments: wrappers, the program, its arguments. */
  words: readonly ShellWord[];
  /** Leading `NAME=value` words (and `env`'s). */
  assignments: readonly ShellWord[];
  redirects: readonly ShellRedirect[];
  span: ShellSpan;
  /**
   * Where it runs, relative to the call's working directory, or absolute, or `~/…`; undefined when
   * unknown. A directory named `~` (`cd '~'`) reads `./~`: only home starts with `~`.
   */
  dir: string | undefined;
  via: ShellVia;
  /** Words of wrappers before the program: `sudo -u root`, `env -i`, `timeout 5`. */
  wrappers: readonly ShellWord[];
  program: ShellWord | undefined;
  /** Basename of the program as bash decodes it (`/usr/bin/git` → `git`); "" for a bare redirect. */
  programName: string;
  args: readonly ShellWord[];
  /** Any of the spellings among the flags before `--`; `-r` also matches inside a bundle such as `-rf`. */
  hasFlag(...spellings: string[]): boolean;
  /** The first word that is not a flag nor a flag's value: `git -C . add x` → `add`. */
  subcommand(options?: ValueFlagsOption): ShellWord | undefined;
  /** The words that are not flags nor flags' values; everything after `--`. */
  positionals(options?: ValueFlagsOption): ShellWord[];
}

export interface CommandRule {
  name: string;
  description?: string;
  /** Program names as `programName` gives them (`git`, not `/usr/bin/git`). */
  program: string | readonly string[];
  /** Only with one of these subcommands (`subcommand({ valueFlags })`). Absent: any. */
  subcommands?: readonly string[];
  valueFlags?: readonly string[];
  /** A further test on each command. */
  when?(command: ShellCommand): boolean;
  /** Block with this reason instead of asking. */
  block?: string;
  /** The request's prompt; without a highlight, the matched programs and subcommands are highlighted. */
  prompt?: AuthorRequestPrompt;
}

export interface Hook<Name extends string = string> {
  name: string;
  description?: string;
  /** The tools this hook looks at; others never reach it. Absent: every tool. */
  tools?: readonly Name[];
  /** Nothing (or `false`, for `condition && api.request()`) means no opinion. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler that returns on some paths only has type void there
  handler(input: HookInput<ToolNamed<Name>>): Decision | false | undefined | void | Promise<Decision | false | undefined | void>;
}

export type KnownToolName = "bash" | "powershell" | "read" | "edit" | "write" | "ls" | "grep" | "find";

/** The typed tool for a name (or a union of names); any tool for `string`. */
export type ToolNamed<Name extends string> = string extends Name ? PermissionTool : NarrowTool<Name>;
type NarrowTool<Name extends string> = Name extends KnownToolName
  ? Extract<PermissionTool, { name: Name }>
  : Name extends `mcp__${string}__${string}`
    ? McpTool
    : OtherTool;

export type Decision = RequestDecision | BlockDecision;
export interface RequestDecision {
  decision: "request";
  prompt?: PermissionRequestPrompt;
}
export interface BlockDecision {
  decision: "block";
  reason: string;
}

export interface PermissionRequestPrompt {
  guidance?: string;
  highlight?: PermissionHighlight;
  authorizeLabel?: string;
  /** Command tools only; ignored otherwise. */
  editLabel?: string;
  abortLabel?: string;
  /** @deprecated The former name of `authorizeLabel`, still honoured. */
  approveLabel?: string;
  /** @deprecated The former name of `abortLabel`, still honoured. */
  rejectLabel?: string;
  /** The key hint for authorizing and switching the hook off for the rest of the session branch. */
  dontAskLabel?: string;
}

/** What `api.request` takes: a prompt whose highlight may also name parsed commands and words. */
export interface AuthorRequestPrompt extends Omit<PermissionRequestPrompt, "highlight"> {
  highlight?: PermissionHighlight | ShellHighlight | (string | RegExp | ShellHighlight)[];
}
type ShellHighlight = ShellWord | ShellCommand;

export interface HighlightSpan {
  start: number;
  end: number;
}
type HighlightPattern = string | RegExp;
export type PermissionHighlight = HighlightPattern | HighlightPattern[] | ((detail: string) => HighlightSpan[] | undefined);

export interface HookInput<Tool extends PermissionTool = PermissionTool> {
  cwd: string;
  /**
   * The permissions folder this hook's module was loaded from (`<agent dir>/permissions` or
   * `<project>/.pi/permissions`; for a pi package's module, the package's root): not the project root.
   */
  permissionRoot: string;
  tool: Tool;
  /** Set when another tool made this call, not the agent directly: a pi 1.x codemode script's calls. */
  parent?: ParentCall;
}

/** The agent's own tool call that made a call (through any depth of calls), e.g. `codemode`. */
export interface ParentCall {
  /** Empty if pi's session doesn't hold that call. */
  name: string;
  toolCallId: string;
  /** Its raw arguments: a codemode call's `code` is the script. */
  input: Record<string, unknown>;
}

interface ToolBase<Name extends string> {
  name: Name;
  /** The one string that shows what the call does. */
  detail: string;
  /** The raw arguments the agent gave. */
  input: Record<string, unknown>;
}

interface ResolvedPath {
  /** Resolved against cwd, as pi's file tools resolve it. */
  absolutePath: string;
  /** Relative to cwd; absent when outside it. Symlinks are not followed: see `realPath`. */
  projectPath?: string;
  /**
   * `absolutePath` with symlinks resolved, where the file lands (`link/x` with `link → ..` is
   * outside); for a file that doesn't exist yet, its longest existing prefix is resolved.
   */
  readonly realPath: string;
}

interface PathFields extends ResolvedPath {
  /** As the agent gave it. */
  path: string;
}

export interface CommandTool<Name extends "bash" | "powershell"> extends ToolBase<Name> {
  command: string;
  timeout?: number;
}
export interface BashTool extends CommandTool<"bash"> {
  /** Every simple command the line would run, in source order; parsed on first access, once per call. */
  readonly commands: ShellCommand[];
  /** False when part of the line could not be followed (bad syntax, code known only at run time). */
  readonly commandsComplete: boolean;
}
export interface ReadTool extends ToolBase<"read">, PathFields {
  offset?: number;
  limit?: number;
}
export interface EditReplacement {
  oldText: string;
  newText: string;
}
export interface EditTool extends ToolBase<"edit">, PathFields {
  /** pi's built-in edit lists `edits`; the Claude-Code shape (picc-edit) becomes one replacement. */
  edits: EditReplacement[];
  replaceAll: boolean;
}
export interface WriteTool extends ToolBase<"write">, PathFields {
  content: string;
}
export interface LsTool extends ToolBase<"ls">, PathFields {
  limit?: number;
}
/** Without a `path`, the search runs in cwd: `absolutePath` is cwd. */
export interface SearchTool<Name extends "grep" | "find"> extends ToolBase<Name>, ResolvedPath {
  pattern: string;
  /** As the agent gave it. */
  path?: string;
}
/** A tool of an MCP server, named `mcp__<server>__<tool>` by pi 1.x. */
export interface McpTool extends ToolBase<`mcp__${string}`> {
  /** As in the tool name: characters other than letters, digits and `_` read `_`. */
  server: string;
  tool: string;
}
export interface OtherTool extends ToolBase<string> {}

export type PermissionTool =
  | BashTool
  | CommandTool<"powershell">
  | ReadTool
  | EditTool
  | WriteTool
  | LsTool
  | SearchTool<"grep">
  | SearchTool<"find">
  | McpTool
  | OtherTool;
