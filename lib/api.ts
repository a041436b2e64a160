// The Author API: what a permission module's default export receives, and the shapes it returns.

export interface PermissionsAPI {
  onToolUse(hook: Hook): void;
  request(prompt?: PermissionRequestPrompt): RequestDecision;
  block(reason: string): BlockDecision;
  highlightSpans(detail: string, highlight: PermissionHighlight | undefined): HighlightSpan[];
}

export interface Hook {
  name: string;
  description?: string;
  /** Nothing (or `false`, for `condition && api.request()`) means no opinion. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler that returns on some paths only has type void there
  handler(input: HookInput): Decision | false | undefined | void | Promise<Decision | false | undefined | void>;
}

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

export interface HighlightSpan {
  start: number;
  end: number;
}
type HighlightPattern = string | RegExp;
export type PermissionHighlight = HighlightPattern | HighlightPattern[] | ((detail: string) => HighlightSpan[] | undefined);

export interface HookInput {
  cwd: string;
  /** The directory the deciding module was loaded from (`<agent dir>/permissions` or `<cwd>/.pi/permissions`). */
  permissionRoot: string;
  tool: PermissionTool;
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
export interface OtherTool extends ToolBase<string> {}

export type PermissionTool =
  | CommandTool<"bash">
  | CommandTool<"powershell">
  | ReadTool
  | EditTool
  | WriteTool
  | LsTool
  | SearchTool<"grep">
  | SearchTool<"find">
  | OtherTool;
