// Every string a human or the agent reads. Pure functions; styling enters as a `Paint` at the edge.
import type { PendingNote } from "./note-store.ts";

export type Tone = "accent" | "border" | "dim" | "muted" | "text" | "warning" | "error" | "success";
export interface Paint {
  fg(tone: Tone, text: string): string;
  bold(text: string): string;
}
export const plain: Paint = { fg: (_tone, text) => text, bold: (text) => text };

export const DEFAULT_LABELS = { authorize: "Authorize", edit: "Edit", abort: "Abort", dontAsk: "don't ask again" } as const;
export const EMPTY_COMMAND_WARNING = "An empty command achieves nothing";

// ── Agent-facing ───────────────────────────────────────────────────────────────────────────

export function agentNote(note: PendingNote): string {
  switch (note.kind) {
    case "edit":
      return agentEditNote(note.nameOfHook, note.command, note.note);
    case "authorize":
      return agentAuthorizeNote(note.nameOfHook, note.note);
    case "abort":
      return agentAbort(note.nameOfHook, note.note);
  }
}

export function agentEditNote(hookName: string, command: string, note?: string): string {
  const head = `${byUser("Edited", hookName)}\n\nThe user edited this command before execution. The command that actually ran:\n${command}`;
  return note ? head + userContext(note, "also ") : head;
}

export const agentAuthorizeNote = (hookName: string, note: string): string => byUser("Approved", hookName) + userContext(note);

export function agentAbort(hookName: string, note?: string): string {
  const head = `${byUser("Blocked", hookName)}.`;
  return note ? head + userContext(note) : `${head} The user stopped this turn; wait for their next message.`;
}

/** How a note on what the user chose starts: `Approved by user via permission hook <name>`. */
const byUser = (done: string, hookName: string): string => `${done} by user via permission hook ${hookName}`;

/** The note the user gave with their choice, after a blank line. */
const userContext = (note: string, also = ""): string => `\n\nThe user ${also}provided context for how to proceed:\n${note}`;

export const agentHookBlock = (hookName: string, reason: string): string => `Blocked by permission hook ${hookName}: ${reason}`;

export const agentInternalError = (error: string): string =>
  `Blocked: pi-permission-hooks could not check this call (${error}), so it did not run.`;

export const agentNoUi = (hookName: string): string =>
  agentHookBlock(hookName, "it asks the user to approve this call, and no UI is available to ask.");

export const agentHookFailure = (hookName: string, error: string): string =>
  `Blocked because permission hook ${hookName} failed (${error}) and no UI is available to ask the user.`;

/** The tool result text the agent reads: the note, a blank line, then the tool's own output. */
export const withNote = (note: string, output: string): string => (output ? `${note}\n\n${output}` : note);

// ── Human-facing notifications ─────────────────────────────────────────────────────────────

export const notifyAuthorizedWithNote = (hookName: string): string =>
  `Authorized (${hookName}); your note goes to the agent with the result.`;

export const notifyEdited = (hookName: string): string =>
  `Ran your edited command (${hookName}); the agent is told what really ran.`;

export const notifyAborted = (hookName: string, withNote: boolean): string =>
  `Aborted (${hookName}); ${withNote ? "your note goes to the agent." : "the turn stops."}`;

export const notifyProjectModulesSkipped = (dir: string): string =>
  `Permission modules in ${dir} were not loaded: this project is not trusted.`;

export const projectTrustTitle = (): string => "Trust this project's permission modules?";

export const projectTrustQuestion = (dir: string): string =>
  `${dir} holds permission modules. They run as code with your permissions. Load them, and trust this project from now on?`;

export const notifyPromptWaiting = (hookName: string): string =>
  `A permission prompt (${hookName}) is waiting for the open dialog to close.`;

export const notifyLoadWarning = (file: string, warning: string): string => `${fileKind(file)} ${file}: ${warning}`;

// ── Why a module or hook failed (the Approver reads these in notices and prompts) ─────────────

export const problems = {
  defaultExportNotFunction: "its default export is not a function",
  hookNotObject: "onToolUse needs a hook object",
  hookWithoutName: "a hook needs a name",
  hookWithoutHandler: (name: string) => `hook "${name}" has no handler function`,
  duplicateHookName: (name: string) => `hook name "${name}" is already taken; both hooks run`,
  notLoadedWithin: (seconds: number) => `did not load within ${seconds} s`,
  notDecidedWithin: (seconds: number) => `did not decide within ${seconds} s`,
  notADecision: (value: string) => `returned ${value}, not a decision`,
  noReason: "no reason given",
  notEditable: (toolName: string) => `an edited command can't be given to the ${toolName} tool`,
  outcomeNotUnderstood: (outcome: string) => `the prompt answered ${outcome}, which is not an outcome`,
  noEditor: "neither $VISUAL nor $EDITOR is set",
  noTerminal: "pi has no terminal to open an editor in",
  editorNotFound: (command: string) => `${command}: command not found`,
  editorExited: (editor: string, code: number) => `${editor} exited with code ${code}`,
  wrappersNotObject: "api.wrappers needs an object: { program: { valueFlags: [...] } }",
  notWrapperSpec: (name: string) =>
    `wrapper "${name}" is not a wrapper spec (valueFlags, noRunFlags, payloadFlags, dirFlags: lists of flags; operands: a whole number; assignments: true or false)`,
} as const;

// ── Tool details: what the prompt shows of a call ─────────────────────────────────────────────

export function readDetail(path: string, from: number | undefined, count: number | undefined): string {
  if (from === undefined && count === undefined) return path;
  const first = from ?? 1;
  return count === undefined ? `${path} (from line ${first})` : `${path} (lines ${first}-${first + count - 1})`;
}

export const writeDetail = (path: string, lines: number): string => `${path} (${counted(lines, "line")})`;

export const editDetail = (path: string, replacements: number, replaceAll: boolean): string =>
  `${path} (${replaceAll ? "replace all" : counted(replacements, "replacement")})`;

/** `3 lines`, `1 line`: a count and its noun, plural unless it is one. */
const counted = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? "" : "s"}`;

export const searchDetail = (pattern: string, path: string | undefined): string =>
  path === undefined ? pattern : `${pattern} in ${path}`;

export const CIRCULAR = "[circular]";

export const notifyLoadError = (file: string, error: string): string => `${fileKind(file)} ${file} failed to load: ${error}`;

const fileKind = (file: string): string =>
  /(^|[\\/])package\.json$/.test(file) ? "Package manifest" : file.endsWith(".json") ? "Rule file" : "Permission module";

/** What the extension was doing when something inside it failed; named in notifyInternalError. */
export const DURING = {
  load: "loading permission modules",
  tree: "session tree",
  shutdown: "session shutdown",
  turnEnd: "turn end",
  note: "adding a note",
  toolCall: "checking a tool call",
  command: "/permissions",
  toggleAll: "switching all permission hooks",
  settings: "reading settings",
  reload: "reloading permission modules after a change",
} as const;

export const notifyInternalError = (where: string, error: string): string => `pi-permission-hooks: ${where} failed: ${error}`;

/** The extension could not get the packages of the pi that loaded it, so it blocks every tool call. */
export const notifyPiUnavailable = (error: string): string =>
  `pi-permission-hooks can't use this pi's own packages (${error}), so it blocks every tool call.`;

// ── The prompt ─────────────────────────────────────────────────────────────────────────────

export const promptTitle = (hookName: string): string => `! Authorization required: ${hookName}`;

export const hookFailureGuidance = (error: string): string =>
  `This hook failed while deciding (${error}), so you are asked instead.`;

export const choiceLine = (index: number, label: string, selected: boolean): string =>
  `${selected ? "→" : " "} ${index + 1}. ${label}`;

export const ARMING_HINT = "keys wake up in a moment…";
/** Ends the last line shown of a text cut short for lack of rows. */
export const TRUNCATION_MARKER = "…";
export const NOTE_PREFIX = "     note: ";
export const EDIT_LABELS = { command: "Command", note: "Note to agent" } as const;

export interface KeyNames {
  up: string;
  down: string;
  confirm: string;
  submit: string;
  newLine: string;
  tab: string;
  cancel: string;
  external: string;
  dontAsk: string;
}

/** Key hints: each is [key, action]. */
export type Hint = readonly [key: string, action: string];

export const selectHints = (keys: KeyNames, dontAskLabel: string): Hint[] => [
  [arrows(keys), "select"],
  [keys.confirm, "confirm"],
  [keys.tab, "add note"],
  ["shift+tab", "close"],
  [keys.cancel, "abort"],
  [keys.dontAsk, dontAskLabel],
];

const arrows = ({ up, down }: KeyNames): string => (up === "↑" && down === "↓" ? "↑↓" : `${up}/${down}`);

/** Two groups: each starts a line of hints (and wraps on its own where it doesn't fit). */
export const editHints = (keys: KeyNames): Hint[][] => [
  [
    [keys.submit, "run"],
    [keys.newLine, "newline"],
    [keys.tab, "switch field"],
  ],
  [
    [keys.external, "external editor"],
    ["ctrl+r", "restore command"],
    [keys.cancel, "back"],
  ],
];

/** Labels the script that made the call where the prompt shows it in place of the command, as `bash:` labels a command. */
export const SCRIPT_LABEL = "script:";

/** The hint for the key that shows the script that made the call, or the command again. */
export const scriptHint = (key: string, showing: boolean): Hint => [key, showing ? "show command" : "show script"];

/** The hint for the key that opens the grant step: the rule, already visible, on one line (the step shows it whole). */
export function grantHint(key: string, rule: string): Hint {
  const [first = "", ...more] = rule.split("\n");
  return [key, `don't ask again for ${first}${more.length ? TRUNCATION_MARKER : ""}`];
}

/** Heads the grant step, above the exact rule a grant would save. */
export const GRANT_HEADING = "Authorize, and don't ask again for";

/** The grant step's hints: pick a scope, save it, or go back to the choices. */
export const grantHints = (keys: KeyNames): Hint[] => [
  [arrows(keys), "select"],
  [keys.confirm, "authorize and save"],
  [keys.cancel, "back"],
];

/** The time left before an unanswered prompt closes as an Abort (the fail-safe timeout). */
export const countdownLine = (seconds: number): string => `Aborts in ${seconds} s if nobody answers`;

export const scrollMarker = (direction: "up" | "down", count: number): string =>
  `${direction === "up" ? "↑" : "↓"} ${count} more ${count === 1 ? "line" : "lines"}`;

export const externalEditorFailure = (reason: string): string => `External editor failed: ${reason}; nothing changed.`;

/** Key ids as pi spells them, the way a hint shows them. */
export const keyName = (id: string | undefined, fallback: string): string => (id ? (HINT_KEYS.get(id) ?? id) : fallback);

/** The key ids a hint spells otherwise; every other id shows as it is. */
const HINT_KEYS = new Map([
  ["escape", "esc"],
  ["up", "↑"],
  ["down", "↓"],
]);

// ── Managing hooks: /permissions, the toggle-all shortcut, the footer ────────────────────────

/** The footer status; none while no hook is loaded. */
export const permissionsStatus = (enabled: number, total: number): string | undefined =>
  total === 0 ? undefined : `permissions ${enabled}/${total}`;

export const notifyDontAskAgain = (hookName: string): string =>
  `Authorized; ${hookName} won't ask again on this branch. ${enableAgain(hookName)}`;

export function notifyHookSwitched(hookName: string, enabled: boolean): string {
  const state = enabled ? "on." : `off for this branch; ${enableAgain(hookName)}`;
  return `Permission hook ${hookName} is ${state}`;
}

/** How to switch a hook that is off on this branch back on. */
const enableAgain = (hookName: string): string => `/permissions enable ${hookName} turns it back on.`;

/** `undo` says how to switch them back on: the command, or the shortcut that switched them off. */
export const notifyAllSwitched = (enabled: boolean, undo: string): string =>
  `All permission hooks are ${enabled ? "on." : `off for this branch; ${undo} turns them back on.`}`;

export const NO_HOOKS = "No permission hooks are loaded.";

export const notifyUnknownHook = (name: string, known: readonly string[]): string =>
  `No permission hook is named "${name}". Loaded: ${known.join(", ")}.`;

/** Each way to call /permissions, after the command's name. */
const PERMISSIONS_FORMS = [
  "",
  " enable [hook]",
  " disable [hook]",
  " log",
  " test <command> | <tool> <JSON>",
  " grant <rule> [--project | --user]",
  " revoke <rule>",
  " new <name> [--project]",
];
export const PERMISSIONS_USAGE = `Usage: ${PERMISSIONS_FORMS.map((form) => `/permissions${form}`).join("  |  ")}`;
export const PERMISSIONS_DESCRIPTION = "List permission hooks; switch them on or off for this branch";
export const TOGGLE_ALL_DESCRIPTION = "Switch all permission hooks off, or back on";
export const SUBCOMMAND_DESCRIPTIONS = {
  enable: "Switch permission hooks on: all, or the one named",
  disable: "Switch permission hooks off for this branch: all, or the one named",
  log: "Show this branch's permission decisions",
  test: "Dry run: what the hooks and rules decide about a command (or <tool> <JSON>), without running it",
  grant: "Don't ask again for a rule: on this branch, --project (this project's rule file) or --user (everywhere)",
  revoke: "Take back a grant, wherever it is kept",
  new: "Create a permission module from a template, with types, and open it in $VISUAL/$EDITOR: yours, or --project",
} as const;

export const PERMISSIONS_TITLE = "Permission hooks";
export const FAILED_HEADING = "Failed to load";
/** Lines under a hook's row start here, below its name. */
export const HOOK_DETAIL_INDENT = "      ";
export const FAILURE_DETAIL_INDENT = "    ";

export const enabledCount = (enabled: number, total: number): string => `${enabled} of ${total} on`;

export const hookRow = (name: string, enabled: boolean, selected: boolean): string =>
  `${selected ? "→" : " "} [${enabled ? "x" : " "}] ${name}`;

export const failureRow = (file: string): string => `  ✗ ${file}`;

export const permissionsHints = (keys: KeyNames): Hint[] => [
  [arrows(keys), "move"],
  ["space", "toggle"],
  ["g", "toggle all"],
  [keys.confirm, "save"],
  [keys.cancel, "close"],
];

/** A path under the home directory reads as ~/…. */
export function displayPath(path: string, home: string): string {
  if (!home || home === "/") return path;
  const base = home.replace(/[\\/]+$/, "");
  return path.startsWith(`${base}/`) || path.startsWith(`${base}\\`) ? `~${path.slice(base.length)}` : path;
}

export interface HookSummary {
  name: string;
  enabled: boolean;
  scope: string;
  source: string;
  /** A rule file's rules, as ruleRows gives them. */
  rules?: string[];
}

/** /permissions without the TUI: the list as text. */
export function permissionsSummary(
  hooks: readonly HookSummary[],
  failures: readonly { file: string; error: string }[],
  grants: readonly GrantSummary[] = [],
): string {
  const on = hooks.filter((hook) => hook.enabled).length;
  const lines = hooks.length ? [`${PERMISSIONS_TITLE} (${enabledCount(on, hooks.length)}):`] : [NO_HOOKS];
  for (const hook of hooks) {
    lines.push(`  [${hook.enabled ? "x" : " "}] ${hook.name} (${hook.scope}) ${hook.source}`);
    for (const row of hook.rules ?? []) lines.push(HOOK_DETAIL_INDENT + row);
  }
  if (grants.length) lines.push(`${GRANTS_HEADING}:`, ...grants.map((grant) => `  ${grantSummaryRow(grant)}`));
  if (failures.length) lines.push(`${FAILED_HEADING}:`, ...failures.map(({ file, error }) => `  ✗ ${file}: ${error}`));
  return lines.join("\n");
}

// ── RPC clients: the prompt through pi's select, editor and input dialogs ───────────────────

/** The select's title: what the overlay shows above its choices, the origin under the title. Every part arrives visible. */
export function rpcPromptTitle(parts: {
  nameOfHook: string;
  origin?: string;
  description?: string;
  guidance?: string;
  toolName: string;
  detail: string;
}): string {
  const { nameOfHook: hookName, origin } = parts;
  const title = origin === undefined ? promptTitle(hookName) : `${promptTitle(hookName)}\n${origin}`;
  return [title, ...promptBody(parts)].join("\n\n");
}

/** The prompt's parts under its title, as text: description and guidance where given, then the call. */
const promptBody = (prompt: { description?: string; guidance?: string; toolName: string; detail: string }): string[] =>
  [prompt.description, prompt.guidance, `${prompt.toolName}: ${prompt.detail}`].filter((part): part is string => !!part?.trim());

/** The select's options, numbered so that equal Author labels still tell the choices apart. */
export const rpcChoice = {
  edit: (label: string) => `${label}…`,
  withNote: (label: string) => `${label}, with a note to the agent…`,
  dontAsk: (authorize: string, dontAsk: string) => `${authorize}, ${dontAsk}`,
  grant: (authorize: string, rule: string) => `${authorize}, don't ask again for ${rule}…`,
  numbered: (index: number, text: string) => `${index + 1}. ${text}`,
  script: "Show the script that made this call…",
} as const;

/** The script view: what the overlay's ctrl+o shows in the command's place, with one way back. */
export const rpcScriptTitle = (hookName: string, script: string): string =>
  `${promptTitle(hookName)}\n\n${SCRIPT_LABEL} ${script}`;

export const RPC_BACK = "Back to the choices";

/** The scope select's title, as the overlay's grant step reads: the exact rule a grant would save, under its heading. */
export const rpcGrantTitle = (hookName: string, rule: string): string => `${promptTitle(hookName)}\n\n${GRANT_HEADING}\n${rule}`;

export const rpcEditorTitle = (hookName: string): string => `Edit the command (${hookName}); it runs as you leave it.`;

export const rpcNoteTitle = (label: string): string => `Note to agent with ${label}; leave it empty for none.`;

// ── The fail-safe timeout ──────────────────────────────────────────────────────────────────

export const agentTimedOut = (hookName: string): string =>
  agentHookBlock(
    hookName,
    "nobody answered its prompt in time, so the call did not run. The turn stopped; wait for the user's next message.",
  );

export const notifyTimedOut = (hookName: string, seconds: number): string =>
  `Nobody answered the permission prompt (${hookName}) within ${seconds} s: the call was aborted and the turn stopped.`;

// ── Attention: telling the Approver a prompt waits ─────────────────────────────────────────

export const ATTENTION_TITLE = "pi: permission needed";

export const attentionMessage = (hookName: string, toolName: string): string =>
  `${hookName} asks you to approve a ${toolName} call.`;

// ── The decision log: /permissions log ─────────────────────────────────────────────────────

export type DecidedBy = "approver" | "hook" | "no UI" | "timeout" | "grant" | "script ended" | "turn stopped";
export type DecisionOutcome = "authorize" | "edit" | "abort" | "block";

export interface DecisionLine {
  /** When, as an ISO timestamp. */
  time: string;
  hook: string;
  tool: string;
  detail: string;
  edited?: string;
  outcome: DecisionOutcome;
  note: boolean;
  dontAskAgain?: boolean;
  /** The grant that let the call run, or that the Approver saved with an Authorize. */
  grant?: string;
  by: DecidedBy;
}

const OUTCOME_WORDS: Record<DecisionOutcome, string> = {
  authorize: "Authorized",
  edit: "Edited",
  abort: "Aborted",
  block: "Blocked",
};
const DECIDED_BY_WORDS: Record<DecidedBy, string> = {
  approver: "by you",
  hook: "by the hook",
  "no UI": "no UI to ask",
  timeout: "nobody answered",
  grant: "by a grant",
  "script ended": "its script had ended",
  "turn stopped": "the turn was stopped",
};
/** The outcomes and deciders a decision may name, which the log reads back. */
export const DECISION_OUTCOMES = Object.keys(OUTCOME_WORDS) as readonly DecisionOutcome[];
export const DECIDERS = Object.keys(DECIDED_BY_WORDS) as readonly DecidedBy[];
/** A command longer than this is cut in the log's one-line view. */
const LOG_DETAIL_CHARS = 80;
export const LOG_SHOWN = 50;

/** One decision on one line, its fields already visible: the command's first line, cut at LOG_DETAIL_CHARS. */
export function decisionLine(decision: DecisionLine): string {
  const extras = [DECIDED_BY_WORDS[decision.by]];
  if (decision.note) extras.push("with a note");
  if (decision.dontAskAgain) extras.push("don't ask again");
  if (decision.grant !== undefined) extras.push(decision.by === "grant" ? decision.grant : `granted ${decision.grant}`);
  const edited = decision.edited === undefined ? "" : ` → ${oneLine(decision.edited)}`;
  return `${clockTime(decision.time)}  ${OUTCOME_WORDS[decision.outcome]} (${extras.join(", ")})  ${decision.hook}  ${decision.tool}: ${oneLine(decision.detail)}${edited}`;
}

/** /permissions log: this branch's decisions, the latest LOG_SHOWN of them. */
export function decisionLog(decisions: readonly DecisionLine[]): string {
  if (!decisions.length) return NO_DECISIONS;
  const shown = decisions.slice(-LOG_SHOWN);
  const count = shown.length === decisions.length ? decisions.length : `the latest ${shown.length} of ${decisions.length}`;
  const head = `Permission decisions on this branch (${count}):`;
  return [head, ...shown.map((decision) => `  ${decisionLine(decision)}`)].join("\n");
}

export const NO_DECISIONS = "No permission decisions on this branch yet.";

export const notifyAuditFileFailed = (path: string, error: string): string =>
  `The permission audit file ${path} could not be written (${error}); decisions are still recorded in the session.`;

function oneLine(text: string): string {
  const [first = "", ...rest] = text.split("\n");
  const chars = [...first];
  if (chars.length > LOG_DETAIL_CHARS) return `${chars.slice(0, LOG_DETAIL_CHARS).join("")}…`;
  return rest.length ? `${first} …` : first;
}

/** Local time of day, hh:mm:ss: how toTimeString starts. */
function clockTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toTimeString().slice(0, 8);
}

// ── Settings: the "permissionHooks" key of pi's settings.json ──────────────────────────────

/** `key` is a key under "permissionHooks", or undefined for the whole value. */
export const notifySettingInvalid = (file: string, key: string | undefined, problem: string): string =>
  `${file}: "permissionHooks${key === undefined ? "" : `.${key}`}" ${problem}; ignored.`;

export const settingProblems = {
  notAnObject: "must be an object",
  unknown: "is not a setting",
  oneOf: (values: readonly string[]) => `must be one of ${values.map((value) => `"${value}"`).join(", ")}`,
  seconds: "must be a whole number of seconds, at least 1",
  path: 'must be an absolute path or start with "~/"',
} as const;

// ── Calls a tool makes (pi 1.x codemode scripts) and MCP tools ────────────────────────────────

/**
 * A note about a call another call made, on the result of the agent's own call (the script's
 * result): which call it is about, the arguments it was made with, then the note as for a direct call.
 */
export const agentNestedNote = (parentTool: string, toolName: string, args: string, note: string): string =>
  `Note on a call made by your ${parentTool} call: ${toolName}\n${args}\n\n${note}`;

/** A script's call the Approver decided on after the script had ended: pi cancels it, and it is blocked. */
export const notifyParentEnded = (hookName: string, parentTool: string): string =>
  `Not run (${hookName}): ${parentEnded(parentTool)}`;

export const agentParentEnded = (parentTool: string): string => `Blocked: ${parentEnded(parentTool)}`;

function parentEnded(parentTool: string): string {
  const parent = parentTool === "codemode" ? "the codemode script" : parentTool ? `the ${parentTool} call` : "the tool call";
  return `${parent} that made this call had already ended.`;
}

/** The prompt's line saying where a call comes from, when the agent didn't make it directly. */
export function promptOrigin(parentTool: string): string {
  if (parentTool === "codemode") return "Made by a codemode script the agent wrote.";
  return parentTool ? `Made by the agent's ${parentTool} call.` : "Made by another tool call, not by the agent directly.";
}

/** An MCP call's argument as the prompt shows it: a multi-line string as its lines, anything else as one line of JSON. */
export type ArgumentText = { lines: string } | { json: string };

export function mcpDetail(server: string, tool: string, args: readonly (readonly [string, ArgumentText])[]): string {
  const rows = args.map(([key, value]) =>
    "lines" in value ? `  ${key}: |\n${indented(value.lines, "    ")}` : `  ${key}: ${value.json}`,
  );
  return [`MCP server ${server}, tool ${tool}`, ...rows].join("\n");
}

// ── Rules: rule files, what their rules decide, grants ─────────────────────────────────────

/** Why a rule file, or an entry of it, can't be used. */
export const ruleProblems = {
  notJson: (message: string) => `not JSON (${message})`,
  notAnObject: "must be a JSON object",
  permissionsNotObject: '"permissions" must be an object',
  notAList: (at: string) => `"${at}" must be a list`,
  notRuleFileKey: "not part of a rule file; ignored",
  claudeSetting: "a Claude Code setting that pi-permission-hooks doesn't use; ignored",
  notARuleEntry: 'a rule is a string, or an object with a "rule" string',
  notText: (field: string) => `"${field}" must be a string`,
  notARule: "not a rule: write Tool or Tool(pattern)",
  toolPiLacks: (tool: string) => `pi has no ${tool} tool; ignored`,
  specifierOnTool: (tool: string) => `only Bash, Read, Edit, Write, Grep, Find and Ls take a pattern, not ${tool}; ignored`,
  prefixNotAtEnd: '":*" may only end a pattern',
  emptyPattern: "the pattern is empty",
  unclosedQuote: "a quote is not closed",
  examplesNotObject: '"examples" must be an object of "deny", "ask" and "pass" lists',
  notExampleKind: (key: string) => `"examples.${key}" is not one of "deny", "ask", "pass"`,
  notAnExample: (at: string, entry: string) => `${at}: ${entry} is neither a command nor { "tool": …, "input": … }`,
  exampleDecided: (example: string, expected: string, actual: string, rule: string | undefined) =>
    `example ${example} is listed under "${expected}", but ${rule === undefined ? "no rule decides it" : `rule ${rule} makes it "${actual}"`}`,
} as const;

/** What the agent reads after "Blocked by permission hook <rule file>: ". */
export const ruleDenyReason = (rule: string, reason: string | undefined): string =>
  reason ? `rule ${rule}: ${reason}` : `rule ${rule} denies this call.`;

/** The prompt's guidance when a rule asks: which rule, then the Author's guidance. */
export function ruleAskGuidance(rule: string, guidance: string | undefined): string {
  const head = `Asked by rule ${rule}.`;
  return guidance ? `${head}\n${guidance}` : head;
}

/** A rule file's rules under its row in /permissions, one per line: `deny   Bash(rm -rf:*)`. */
export const ruleRows = (rules: readonly (readonly [kind: string, rule: string])[]): string[] =>
  rules.map(([kind, rule]) => `${kind.padEnd(6)} ${rule}`);

/** A rule file's description in /permissions. */
export function ruleFileDescription(counts: { deny: number; ask: number; allow: number; grants: number }): string {
  const parts = [`${counts.deny} deny`, `${counts.ask} ask`, `${counts.allow} allow`];
  if (counts.grants > 0) parts.push(counted(counts.grants, "grant"));
  return `Rules: ${parts.join(", ")}`;
}

// ── /permissions test: a dry run ────────────────────────────────────────────────────────────

/** The prompt a request would open, as text; every part already visible. */
export interface DryRunPrompt {
  nameOfHook: string;
  description?: string;
  guidance?: string;
  toolName: string;
  detail: string;
  highlighted: string[];
  /** What the agent reads when there is no UI to ask. */
  withoutUi: string;
}

export type DryRunOutcome =
  | { kind: "block"; agentReads: string }
  | { kind: "request" | "failed"; prompt: DryRunPrompt }
  /** It would ask, but a grant covers it: the hooks after it decide. */
  | { kind: "granted"; grant: string };

export interface DryRunVerdict {
  nameOfHook: string;
  scope: string;
  source: string;
  enabled: boolean;
  outcome: DryRunOutcome;
  /** Set for a hook that failed. */
  error?: string;
}

const DRY_RUN_INDENT = "    ";

/** The dry run's report: the hook or rule file that decides, what it returns, then what else matched. */
export function dryRunReport(toolName: string, detail: string, verdicts: readonly DryRunVerdict[], home: string): string {
  const lines = [`Dry run of ${toolName}: ${detail}`, "Nothing runs."];
  const listed = (verdict: DryRunVerdict) => DRY_RUN_INDENT + dryRunEntry(verdict, home);
  const granted = verdicts.filter((verdict) => verdict.enabled && verdict.outcome.kind === "granted");
  const decider = verdicts.find((verdict) => verdict.enabled && verdict.outcome.kind !== "granted");
  if (!decider) lines.push("No hook or rule decides: the call would run.");
  else {
    lines.push(`Decided by ${dryRunEntry(decider, home)}`);
    const { outcome } = decider;
    if (outcome.kind === "block") lines.push(`${DRY_RUN_INDENT}The agent reads: ${outcome.agentReads}`);
    else if (outcome.kind !== "granted") {
      const { prompt } = outcome;
      const highlighted = prompt.highlighted.length ? `Highlighted: ${prompt.highlighted.join(" · ")}` : "Nothing highlighted.";
      const shown = [promptTitle(prompt.nameOfHook), ...promptBody(prompt), highlighted].join("\n");
      lines.push(
        `${DRY_RUN_INDENT}The prompt:`,
        indented(shown, DRY_RUN_INDENT.repeat(2)),
        `${DRY_RUN_INDENT}Without a UI (pi -p), the agent reads: ${prompt.withoutUi}`,
      );
    }
  }
  if (granted.length) lines.push("Not asked, because a grant covers it:", ...granted.map(listed));
  const others = verdicts.filter((verdict) => verdict !== decider && !granted.includes(verdict));
  if (others.length)
    lines.push(decider ? "Also matched, after it:" : "Would decide, but switched off on this branch:", ...others.map(listed));
  return lines.join("\n");
}

/** A hook or rule file in the dry run, where it comes from, and what it does: `name (user module ~/…): asks you`. */
function dryRunEntry(verdict: DryRunVerdict, home: string): string {
  const kind = verdict.source.endsWith(".json") ? "rule file" : "module";
  const off = verdict.enabled ? "" : " (off)";
  return `${verdict.nameOfHook} (${verdict.scope} ${kind} ${displayPath(verdict.source, home)}): ${dryRunVerb(verdict)}${off}`;
}

function dryRunVerb({ outcome, error }: DryRunVerdict): string {
  if (outcome.kind === "block") return "blocks the call";
  if (outcome.kind === "request") return "asks you";
  if (outcome.kind === "granted") return `would ask; grant ${outcome.grant} covers it`;
  return `failed (${error ?? ""}), so you are asked`;
}

const indented = (text: string, indent: string): string => indent + text.replaceAll("\n", `\n${indent}`);

// ── Grants: a saved "don't ask again" for one rule ─────────────────────────────────────────────

export type GrantScopeName = "branch" | "project" | "user";

/** Where a grant holds, as the Approver picks it and reads it back. */
export const GRANT_SCOPE_WORDS: Record<GrantScopeName, string> = {
  branch: "this branch",
  project: "this project",
  user: "everywhere",
};

export const GRANTS_HEADING = "Grants";

/** A grant as /permissions lists it; `file` (shown as ~/…) where a project or user grant is kept. */
export interface GrantSummary {
  rule: string;
  scope: GrantScopeName;
  file?: string;
}

const grantSummaryRow = ({ rule, scope, file }: GrantSummary): string =>
  `${rule}  ${GRANT_SCOPE_WORDS[scope]}${file ? `  ${file}` : ""}`;

/** The line under a grant's row in the overlay: where it holds, and whether saving revokes it. */
export function grantDetail(scope: GrantScopeName, file: string | undefined, revoking: boolean): string {
  const where = file ? `${GRANT_SCOPE_WORDS[scope]}, ${file}` : GRANT_SCOPE_WORDS[scope];
  return revoking ? `${where} — revoked when you save` : where;
}

/**
 * Ends the reasons a grant's file could not be changed. The plain-text reasons spell it out: a table
 * of plain values is one the bundler can take apart, and one built from this constant is ~100 B more.
 */
const LEFT_AS_IT_IS = "; the file was left as it is";

/** Why a grant could not be saved or revoked. */
export const grantProblems = {
  notJson: (message: string) => `it is not JSON (${message})${LEFT_AS_IT_IS}`,
  notAnObject: "it is not a JSON object; the file was left as it is",
  grantsNotList: '"grants" is not a list; the file was left as it is',
  notARuleFile: (error: string) => `the result would not be a rule file (${error})${LEFT_AS_IT_IS}`,
  notWritten: (error: string) => `it could not be written (${error})`,
  notARule: (rule: string, problem: string) => `${rule} is not a rule: ${problem}`,
  noGrants: "this session keeps no grants",
} as const;

export function notifyGranted(rule: string, scope: GrantScopeName, file: string | undefined): string {
  const where = file ? `${GRANT_SCOPE_WORDS[scope]} (saved in ${file})` : GRANT_SCOPE_WORDS[scope];
  return `Granted ${rule} for ${where}: what it covers no longer asks. /permissions revoke ${rule} takes it back.`;
}

/** The Approver authorized with a grant that could not be kept: the call ran, once. */
export function notifyGrantNotSaved(rule: string, scope: GrantScopeName, file: string | undefined, error: string): string {
  const where = file ?? GRANT_SCOPE_WORDS[scope];
  return `Authorized this call only: the grant ${rule} was not saved for ${where}, because ${error}. The next such call asks again.`;
}

export const notifyGrantFailed = (rule: string, error: string): string =>
  `Not granted: ${rule} could not be saved, because ${error}.`;

export const notifyRevoked = (rule: string, places: readonly string[]): string =>
  `Revoked ${rule} (${places.join(", ")}): what it covered asks again.`;

export const notifyRevokeFailed = (rule: string, place: string, error: string): string =>
  `Could not revoke ${rule} from ${place}, because ${error}; it is still granted.`;

export function notifyNoSuchGrant(rule: string, granted: readonly string[]): string {
  const known = granted.length ? `. Granted: ${granted.join(", ")}.` : "; there are none.";
  return `No grant is named ${rule}${known}`;
}

// ── Packages: permission modules and rule files a pi package provides ───────────────────────

export const packageProblems = {
  manifestNotJson: (message: string) => `it is not JSON (${message})`,
  manifestUnreadable: (message: string) => `it can't be read (${message})`,
  manifestNotList: 'its "pi.permissions" is not a list of paths',
  notFound: (entry: string) => `"pi.permissions" lists ${entry}, which is not there`,
} as const;

/** The prompt's origin line for a package's hook: which package it comes from; nothing for the user's and the project's. */
export const promptHookScope = (scope: string): string | undefined =>
  scope.startsWith("package:") ? `From the pi package ${scope.slice("package:".length)}.` : undefined;

// ── Live reload: permission folders watched, hooks loaded again after a save ────────────────

/** A save that doesn't load: the file's hooks from before the save go on gating until it does. */
export const notifyLoadErrorKept = (file: string, error: string): string =>
  `${notifyLoadError(file, error)}. Its previous version keeps gating until it loads.`;

// ── /permissions new: a module from a template ─────────────────────────────────────────────

export const scaffoldProblems = {
  noName: "give the hook a name with a letter or digit in it",
  exists: (file: string) => `${file} already exists`,
  projectNotTrusted: "you don't trust this project's permission modules",
} as const;

/** `written`: the declaration and tsconfig.json, when this was the folder's first module. */
export function notifyScaffolded(file: string, written: readonly string[]): string {
  const beside = written.length ? `, with ${written.join(" and ")} beside it for types` : "";
  return `Created ${file}${beside}. Each save takes effect for the next tool call.`;
}

/** The module was created but no editor opened it: where it is, and why. */
export const notifyScaffoldedNoEditor = (file: string, written: readonly string[], reason: string): string =>
  `${notifyScaffolded(file, written)} Open it in your editor (${reason}).`;

export const notifyScaffoldFailed = (name: string, error: string): string => `No module was created for "${name}": ${error}.`;
