// The Author API: what a permission module's default export receives, and the shapes it returns.

import type { ShellCommand, ShellWord } from "./shell-command.ts";

export type { ShellCommand, ShellRedirect, ShellSpan, ShellVia, ShellWord, ValueFlagsOption } from "./shell-command.ts";

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
type NarrowTool<Name extends string> = Name extends KnownToolName ? Extract<PermissionTool, { name: Name }> : OtherTool;

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
  /** The directory the deciding module was loaded from (`<agent dir>/permissions` or `<cwd>/.pi/permissions`). */
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

interface PathFields {
  /** As the agent gave it. */
  path: string;
  /** Resolved against cwd. */
  absolutePath: string;
  /** Relative to cwd; absent when outside it. */
  projectPath?: string;
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
export interface SearchTool<Name extends "grep" | "find"> extends ToolBase<Name> {
  pattern: string;
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
