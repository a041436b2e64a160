// lib/failure.ts
function describeError(error) {
  if (error instanceof Error)
    return firstLine(error.message) || error.name;
  return firstLine(printable(error));
}
function describeValue(value) {
  let text;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = printable(value);
  }
  return firstLine(text).slice(0, 80);
}
function firstLine(text) {
  return text.split(`
`)[0] ?? "";
}
function printable(value) {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
function withTimeLimit(promise, ms, message) {
  let timer;
  const limit = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

// lib/host.ts
if (typeof jitiImport !== "function")
  throw new Error("pi-permission-hooks must be loaded by pi's extension loader");
var Editor;
var Input;
var decodeKittyPrintable;
var fuzzyFilter;
var matchesKey;
var truncateToWidth;
var visibleWidth;
var wrapTextWithAnsi;
var CONFIG_DIR_NAME;
var getAgentDir;
var hasTrustRequiringProjectResources;
var isToolCallEventType;
var ProjectTrustStore;
async function loadPi() {
  let tui;
  let agent;
  try {
    [tui, agent] = await Promise.all([
      jitiImport("@earendil-works/pi-tui"),
      jitiImport("@earendil-works/pi-coding-agent")
    ]);
  } catch (error) {
    return describeError(error);
  }
  ({ Editor, Input, decodeKittyPrintable, fuzzyFilter, matchesKey, truncateToWidth, visibleWidth, wrapTextWithAnsi } = tui);
  ({ CONFIG_DIR_NAME, getAgentDir, hasTrustRequiringProjectResources, isToolCallEventType, ProjectTrustStore } = agent);
  const missing = Object.entries({
    Editor,
    Input,
    decodeKittyPrintable,
    fuzzyFilter,
    matchesKey,
    truncateToWidth,
    visibleWidth,
    wrapTextWithAnsi,
    CONFIG_DIR_NAME,
    getAgentDir,
    hasTrustRequiringProjectResources,
    isToolCallEventType,
    ProjectTrustStore
  }).flatMap(([name, value]) => value === undefined ? [name] : []);
  return missing.length > 0 ? `missing ${missing.join(", ")}` : undefined;
}

// lib/presenter.ts
var DEFAULT_LABELS = { authorize: "Authorize", edit: "Edit", abort: "Abort", dontAsk: "don't ask again" };
var EMPTY_COMMAND_WARNING = "An empty command achieves nothing";
function agentNote(note) {
  return note.kind === "edit" ? agentEditNote(note.hookName, note.command, note.note) : agentAuthorizeNote(note.hookName, note.note);
}
function agentEditNote(hookName, command, note) {
  const head = `Edited by user via permission hook ${hookName}

The user edited this command before execution. The command that actually ran:
${command}`;
  return note ? `${head}

The user also provided context for how to proceed:
${note}` : head;
}
function agentAuthorizeNote(hookName, note) {
  return `Approved by user via permission hook ${hookName}

The user provided context for how to proceed:
${note}`;
}
function agentAbort(hookName, note) {
  const head = `Blocked by user via permission hook ${hookName}.`;
  return note ? `${head}

The user provided context for how to proceed:
${note}` : `${head} The user stopped this turn; wait for their next message.`;
}
function agentHookBlock(hookName, reason) {
  return `Blocked by permission hook ${hookName}: ${reason}`;
}
function agentInternalError(error) {
  return `Blocked: pi-permission-hooks could not check this call (${error}), so it did not run.`;
}
function agentNoUi(hookName) {
  return `Blocked by permission hook ${hookName}: it asks the user to approve this call, and no UI is available to ask.`;
}
function agentHookFailure(hookName, error) {
  return `Blocked because permission hook ${hookName} failed (${error}) and no UI is available to ask the user.`;
}
function withNote(note, output) {
  return output === "" ? note : `${note}

${output}`;
}
function notifyAuthorizedWithNote(hookName) {
  return `Authorized (${hookName}); your note goes to the agent with the result.`;
}
function notifyEdited(hookName) {
  return `Ran your edited command (${hookName}); the agent is told what really ran.`;
}
function notifyAborted(hookName, withNote) {
  return withNote ? `Aborted (${hookName}); your note goes to the agent.` : `Aborted (${hookName}); the turn stops.`;
}
function notifyProjectModulesSkipped(dir) {
  return `Permission modules in ${dir} were not loaded: this project is not trusted.`;
}
function projectTrustTitle() {
  return "Trust this project's permission modules?";
}
function projectTrustQuestion(dir) {
  return `${dir} holds permission modules. They run as code with your permissions. Load them, and trust this project from now on?`;
}
function notifyPromptWaiting(hookName) {
  return `A permission prompt (${hookName}) is waiting for the open dialog to close.`;
}
function notifyLoadWarning(file, warning) {
  return `Permission module ${file}: ${warning}`;
}
var problems = {
  defaultExportNotFunction: "its default export is not a function",
  hookNotObject: "onToolUse needs a hook object",
  hookWithoutName: "a hook needs a name",
  hookWithoutHandler: (name) => `hook "${name}" has no handler function`,
  duplicateHookName: (name) => `hook name "${name}" is already taken; both hooks run`,
  notLoadedWithin: (seconds) => `did not load within ${seconds} s`,
  notDecidedWithin: (seconds) => `did not decide within ${seconds} s`,
  notADecision: (value) => `returned ${value}, not a decision`,
  noReason: "no reason given",
  notEditable: (toolName) => `an edited command can't be given to the ${toolName} tool`,
  outcomeNotUnderstood: (outcome) => `the prompt answered ${outcome}, which is not an outcome`,
  noEditor: "neither $VISUAL nor $EDITOR is set",
  editorNotFound: (command) => `${command}: command not found`,
  editorExited: (editor, code) => `${editor} exited with code ${code}`
};
function readDetail(path, from, count) {
  if (from === undefined && count === undefined)
    return path;
  const first = from ?? 1;
  return count === undefined ? `${path} (from line ${first})` : `${path} (lines ${first}-${first + count - 1})`;
}
function writeDetail(path, lines) {
  return `${path} (${lines} ${lines === 1 ? "line" : "lines"})`;
}
function editDetail(path, replacements, replaceAll) {
  const count = `${replacements} ${replacements === 1 ? "replacement" : "replacements"}`;
  return `${path} (${replaceAll ? "replace all" : count})`;
}
function searchDetail(pattern, path) {
  return path === undefined ? pattern : `${pattern} in ${path}`;
}
var CIRCULAR = "[circular]";
function notifyLoadError(file, error) {
  return `Permission module ${file} failed to load: ${error}`;
}
var DURING = {
  load: "loading permission modules",
  tree: "session tree",
  shutdown: "session shutdown",
  turnEnd: "turn end",
  note: "adding a note",
  toolCall: "checking a tool call",
  command: "/permissions",
  toggleAll: "switching all permission hooks"
};
function notifyInternalError(where, error) {
  return `pi-permission-hooks: ${where} failed: ${error}`;
}
function notifyPiUnavailable(error) {
  return `pi-permission-hooks can't use this pi's own packages (${error}), so it blocks every tool call.`;
}
function promptTitle(hookName) {
  return `! Authorization required: ${hookName}`;
}
function hookFailureGuidance(error) {
  return `This hook failed while deciding (${error}), so you are asked instead.`;
}
function choiceLine(index, label, selected) {
  return `${selected ? "→" : " "} ${index + 1}. ${label}`;
}
var ARMING_HINT = "keys wake up in a moment…";
var NOTE_PREFIX = "     note: ";
var EDIT_LABELS = { command: "Command", note: "Note to agent" };
function selectHints(keys, dontAskLabel) {
  return [
    [arrows(keys.up, keys.down), "select"],
    [keys.confirm, "confirm"],
    [keys.tab, "add note"],
    ["shift+tab", "close"],
    [keys.cancel, "abort"],
    [keys.dontAsk, dontAskLabel]
  ];
}
function arrows(up, down) {
  return up === "↑" && down === "↓" ? "↑↓" : `${up}/${down}`;
}
function editHints(keys) {
  return [
    [
      [keys.submit, "run"],
      [keys.newLine, "newline"],
      [keys.tab, "switch field"]
    ],
    [
      [keys.external, "external editor"],
      ["ctrl+r", "restore command"],
      [keys.cancel, "back"]
    ]
  ];
}
function renderHints(hints, paint) {
  return hints.map(([key, action]) => `${paint.fg("dim", key)} ${action}`).join("  ");
}
function renderHintRows(hints, width, paint) {
  const rows = [];
  let used = 0;
  for (const hint of hints) {
    const size = visibleWidth(`${hint[0]} ${hint[1]}`);
    const row = rows.at(-1);
    if (row && used + 2 + size <= width) {
      row.push(hint);
      used += 2 + size;
    } else {
      rows.push([hint]);
      used = size;
    }
  }
  return rows.map((row) => renderHints(row, paint));
}
function scrollMarker(direction, count) {
  return `${direction === "up" ? "↑" : "↓"} ${count} more ${count === 1 ? "line" : "lines"}`;
}
function externalEditorFailure(reason) {
  return `External editor failed: ${reason}; nothing changed.`;
}
function keyName(id, fallback) {
  if (!id)
    return fallback;
  return id.replace(/^escape$/, "esc").replace(/^up$/, "↑").replace(/^down$/, "↓");
}
function permissionsStatus(enabled, total) {
  return total === 0 ? undefined : `permissions ${enabled}/${total}`;
}
function notifyDontAskAgain(hookName) {
  return `Authorized; ${hookName} won't ask again on this branch. /permissions enable ${hookName} turns it back on.`;
}
function notifyHookSwitched(hookName, enabled) {
  return enabled ? `Permission hook ${hookName} is on.` : `Permission hook ${hookName} is off for this branch; /permissions enable ${hookName} turns it back on.`;
}
function notifyAllSwitched(enabled, undo) {
  return enabled ? "All permission hooks are on." : `All permission hooks are off for this branch; ${undo} turns them back on.`;
}
var NO_HOOKS = "No permission hooks are loaded.";
function notifyUnknownHook(name, known) {
  return `No permission hook is named "${name}". Loaded: ${known.join(", ")}.`;
}
var PERMISSIONS_USAGE = "Usage: /permissions  |  /permissions enable [hook]  |  /permissions disable [hook]";
var PERMISSIONS_DESCRIPTION = "List permission hooks; switch them on or off for this branch";
var TOGGLE_ALL_DESCRIPTION = "Switch all permission hooks off, or back on";
var SUBCOMMAND_DESCRIPTIONS = {
  enable: "Switch permission hooks on: all, or the one named",
  disable: "Switch permission hooks off for this branch: all, or the one named"
};
var PERMISSIONS_TITLE = "Permission hooks";
var FAILED_HEADING = "Failed to load";
var HOOK_DETAIL_INDENT = "      ";
var FAILURE_DETAIL_INDENT = "    ";
function enabledCount(enabled, total) {
  return `${enabled} of ${total} on`;
}
function hookRow(name, enabled, selected) {
  return `${selected ? "→" : " "} [${enabled ? "x" : " "}] ${name}`;
}
function failureRow(file) {
  return `  ✗ ${file}`;
}
function permissionsHints(keys) {
  return [
    [arrows(keys.up, keys.down), "move"],
    ["space", "toggle"],
    ["g", "toggle all"],
    [keys.confirm, "save"],
    [keys.cancel, "close"]
  ];
}
function displayPath(path, home) {
  if (home === "" || home === "/")
    return path;
  const base = home.replace(/[\\/]+$/, "");
  return path.startsWith(`${base}/`) || path.startsWith(`${base}\\`) ? `~${path.slice(base.length)}` : path;
}
function permissionsSummary(hooks, failures) {
  const on = hooks.filter((hook) => hook.enabled).length;
  const lines = hooks.length === 0 ? [NO_HOOKS] : [`${PERMISSIONS_TITLE} (${enabledCount(on, hooks.length)}):`];
  for (const hook of hooks)
    lines.push(`  [${hook.enabled ? "x" : " "}] ${hook.name} (${hook.scope}) ${hook.source}`);
  if (failures.length > 0)
    lines.push(`${FAILED_HEADING}:`);
  for (const { file, error } of failures)
    lines.push(`  ✗ ${file}: ${error}`);
  return lines.join(`
`);
}

// lib/enablement.ts
var ENABLEMENT_ENTRY = "permission-hooks-enablement";
var STATUS_KEY = "permission-hooks";

class Enablement {
  pi;
  disabled = new Set;
  names = [];
  constructor(pi) {
    this.pi = pi;
  }
  restore(ctx) {
    this.disabled = new Set(latestRecord(ctx.sessionManager.getBranch())?.disabled);
    this.showStatus(ctx);
  }
  track(names, ctx) {
    this.names = names;
    this.showStatus(ctx);
  }
  isEnabled(name) {
    return !this.disabled.has(name);
  }
  enabledCount() {
    return this.names.filter((name) => this.isEnabled(name)).length;
  }
  apply(changes, ctx) {
    const next = new Set(this.disabled);
    for (const [name, enabled] of changes) {
      if (enabled)
        next.delete(name);
      else
        next.add(name);
    }
    if (next.size === this.disabled.size && [...next].every((name) => this.disabled.has(name)))
      return false;
    this.disabled = next;
    this.pi.appendEntry(ENABLEMENT_ENTRY, { disabled: [...next].sort() });
    this.showStatus(ctx);
    return true;
  }
  toggleAll(ctx) {
    const on = !this.names.some((name) => this.isEnabled(name));
    this.apply(new Map(this.names.map((name) => [name, on])), ctx);
    return on;
  }
  showStatus(ctx) {
    try {
      ctx.ui.setStatus(STATUS_KEY, permissionsStatus(this.enabledCount(), this.names.length));
    } catch {}
  }
}
function latestRecord(branch) {
  for (let i = branch.length - 1;i >= 0; i--) {
    const entry = branch[i];
    if (entry?.type !== "custom" || entry.customType !== ENABLEMENT_ENTRY)
      continue;
    const disabled = entry.data?.disabled;
    return { disabled: Array.isArray(disabled) ? disabled.filter((name) => typeof name === "string") : [] };
  }
  return;
}

// lib/gatekeeper.ts
import { join as join4 } from "node:path";

// lib/evaluator.ts
var HOOK_TIME_LIMIT_MS = 1e4;
async function evaluate(hooks, input) {
  for (const hook of hooks) {
    if (hook.tools !== undefined && !hook.tools.includes(input.tool.name))
      continue;
    try {
      let decision = hook.handler({ ...input, permissionRoot: hook.permissionRoot });
      if (isPromise(decision))
        decision = await withTimeLimit(decision, HOOK_TIME_LIMIT_MS, problems.notDecidedWithin(HOOK_TIME_LIMIT_MS / 1000));
      if (decision !== undefined && decision !== null && decision !== false)
        return toVerdict(hook, decision);
    } catch (error) {
      return { kind: "failed", hook, error: describeError(error) };
    }
  }
  return;
}
function toVerdict(hook, decision) {
  const value = decision;
  if (value?.decision === "request") {
    const prompt = value.prompt;
    return { kind: "request", hook, prompt: typeof prompt === "object" && prompt !== null ? prompt : {} };
  }
  if (value?.decision === "block") {
    const reason = value.reason;
    return { kind: "block", hook, reason: typeof reason === "string" && reason.trim() !== "" ? reason : problems.noReason };
  }
  return { kind: "failed", hook, error: problems.notADecision(describeValue(decision)) };
}
function isPromise(value) {
  return typeof value?.then === "function";
}

// lib/guard.ts
async function guard(ctx, where, run) {
  try {
    return await run();
  } catch (error) {
    report(ctx, notifyInternalError(where, describeError(error)));
    return;
  }
}
function report(ctx, message, level = "error") {
  try {
    if (ctx.hasUI)
      ctx.ui.notify(message, level);
    else
      process.stderr.write(`${message}
`);
  } catch {
    process.stderr.write(`${message}
`);
  }
}

// lib/highlight.ts
function highlightSpans(detail, highlight) {
  try {
    return merge(collect(detail, highlight), detail.length);
  } catch {
    return [];
  }
}
function collect(detail, highlight) {
  if (highlight === undefined || highlight === null)
    return [];
  if (typeof highlight === "function") {
    const spans = highlight(detail);
    return Array.isArray(spans) ? spans : [];
  }
  const patterns = Array.isArray(highlight) ? highlight : [highlight];
  return patterns.flatMap((pattern) => matches(detail, pattern));
}
function matches(detail, pattern) {
  if (typeof pattern === "string")
    return literalMatches(detail, pattern);
  if (!(pattern instanceof RegExp))
    return [];
  const global = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
  const spans = [];
  for (const match of detail.matchAll(global)) {
    if (match[0].length > 0)
      spans.push({ start: match.index, end: match.index + match[0].length });
  }
  return spans;
}
function literalMatches(detail, literal) {
  const spans = [];
  if (literal === "")
    return spans;
  for (let at = detail.indexOf(literal);at !== -1; at = detail.indexOf(literal, at + literal.length)) {
    spans.push({ start: at, end: at + literal.length });
  }
  return spans;
}
function merge(spans, length) {
  const clamped = spans.filter((span) => span && Number.isFinite(span.start) && Number.isFinite(span.end)).map((span) => ({
    start: Math.max(0, Math.min(length, Math.floor(span.start))),
    end: Math.max(0, Math.min(length, Math.floor(span.end)))
  })).filter((span) => span.end > span.start).sort((a, b) => a.start - b.start);
  const merged = [];
  for (const span of clamped) {
    const last = merged.at(-1);
    if (last && span.start <= last.end)
      last.end = Math.max(last.end, span.end);
    else
      merged.push({ ...span });
  }
  return merged;
}

// lib/loader.ts
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
var MODULE_FILE = /\.(ts|js|mjs)$/;
var LOAD_TIME_LIMIT_MS = 1e4;
async function loadPermissionModules(dirs) {
  const result = { hooks: [], errors: [], warnings: [] };
  const generation = process.hrtime.bigint();
  const roots = [
    ["project", dirs.project],
    ["user", dirs.user]
  ];
  for (const [scope, root] of roots) {
    if (!root)
      continue;
    for (const file of moduleFiles(root))
      await loadModule(file, scope, root, generation, result);
  }
  return result;
}
function createPermissionsAPI(register) {
  return {
    onToolUse: register,
    request: (prompt) => ({ decision: "request", prompt: prompt && withSpans(prompt) }),
    block: (reason) => ({ decision: "block", reason }),
    highlightSpans,
    isTool: (name, tool) => tool.name === name
  };
}
function withSpans(prompt) {
  const { highlight } = prompt;
  const items = Array.isArray(highlight) ? highlight : [highlight];
  if (!items.some(isShellPart))
    return prompt;
  const spans = [];
  const patterns = [];
  for (const item of items) {
    if (isShellPart(item))
      spans.push("span" in item ? item.span : { start: item.start, end: item.end });
    else if (typeof item === "string" || item instanceof RegExp)
      patterns.push(item);
  }
  const resolved = (detail) => [...spans, ...highlightSpans(detail, patterns)];
  return { ...prompt, highlight: resolved };
}
function isShellPart(item) {
  if (typeof item !== "object" || item === null || item instanceof RegExp)
    return false;
  const span = "span" in item ? item.span : item;
  return typeof span?.start === "number" && typeof span?.end === "number";
}
function moduleFiles(root) {
  let names;
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  return names.filter((name) => MODULE_FILE.test(name) && !name.endsWith(".d.ts")).sort().map((name) => join(root, name)).filter((file) => isFile(file));
}
async function loadModule(file, scope, root, generation, result) {
  const hooks = [];
  try {
    const specifier = process.versions.bun ? file : pathToFileURL(file).href;
    const timeLimit = problems.notLoadedWithin(LOAD_TIME_LIMIT_MS / 1000);
    const module = await withTimeLimit(import(`${specifier}?generation=${generation}`), LOAD_TIME_LIMIT_MS, timeLimit);
    const factory = module.default;
    if (typeof factory !== "function")
      throw new Error(problems.defaultExportNotFunction);
    let open = true;
    const api = createPermissionsAPI((hook) => {
      if (open)
        hooks.push(checkedHook(hook, file, scope, root));
    });
    await withTimeLimit(Promise.resolve(factory(api)), LOAD_TIME_LIMIT_MS, timeLimit);
    open = false;
  } catch (error) {
    result.errors.push({ file, error: describeError(error) });
    return;
  }
  for (const hook of hooks) {
    if (result.hooks.some((other) => other.name === hook.name)) {
      result.warnings.push({ file, error: problems.duplicateHookName(hook.name) });
    }
    result.hooks.push(hook);
  }
}
function checkedHook(hook, file, scope, root) {
  if (!hook || typeof hook !== "object")
    throw new Error(problems.hookNotObject);
  if (typeof hook.name !== "string" || hook.name.trim() === "")
    throw new Error(problems.hookWithoutName);
  if (typeof hook.handler !== "function")
    throw new Error(problems.hookWithoutHandler(hook.name));
  const description = typeof hook.description === "string" ? hook.description : undefined;
  const tools = Array.isArray(hook.tools) && hook.tools.every((name) => typeof name === "string") ? [...hook.tools] : undefined;
  return { name: hook.name, description, ...tools && { tools }, handler: hook.handler, scope, source: file, permissionRoot: root };
}
function isFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

// lib/note-store.ts
class NoteStore {
  notes = new Map;
  remember(toolCallId, note) {
    this.notes.set(toolCallId, note);
  }
  consume(toolCallId) {
    const note = this.notes.get(toolCallId);
    this.notes.delete(toolCallId);
    return note;
  }
  discardAll() {
    this.notes.clear();
  }
}

// lib/project-trust.ts
import { readFileSync } from "node:fs";
import { join as join2 } from "node:path";
async function projectModulesTrusted(ctx, dir) {
  if (!ctx.isProjectTrusted())
    return false;
  if (hasTrustRequiringProjectResources(ctx.cwd))
    return true;
  const store = new ProjectTrustStore(getAgentDir());
  const saved = store.get(ctx.cwd);
  if (saved !== null)
    return saved;
  if (defaultProjectTrust() === "always")
    return true;
  if (!ctx.hasUI)
    return false;
  const trusted = await ctx.ui.confirm(projectTrustTitle(), projectTrustQuestion(dir));
  if (trusted)
    store.set(ctx.cwd, true);
  return trusted;
}
function defaultProjectTrust() {
  try {
    return JSON.parse(readFileSync(join2(getAgentDir(), "settings.json"), "utf8"))?.defaultProjectTrust;
  } catch {
    return;
  }
}

// lib/external-editor.ts
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync as readFileSync2, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join as join3 } from "node:path";
function externalEditorFor(tui, env = process.env) {
  return async (text, suffix) => {
    const editor = (env.VISUAL || env.EDITOR || "").trim();
    if (!editor)
      return { ok: false, reason: problems.noEditor };
    let dir;
    tui.stop();
    try {
      dir = mkdtempSync(join3(tmpdir(), "pi-permission-hooks-"));
      const file = join3(dir, `command${suffix}`);
      writeFileSync(file, text, { mode: 384 });
      const code = await run(editor, file, env);
      if (code === 127)
        return { ok: false, reason: problems.editorNotFound(editor.split(/\s+/)[0] ?? editor) };
      if (code !== 0)
        return { ok: false, reason: problems.editorExited(editor, code) };
      return { ok: true, text: readFileSync2(file, "utf8") };
    } catch (error) {
      return { ok: false, reason: describeError(error) };
    } finally {
      if (dir)
        rmSync(dir, { recursive: true, force: true });
      tui.start();
      tui.requestRender(true);
    }
  };
}
function run(editor, file, env) {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", `${editor} "$1"`, "sh", file], { stdio: "inherit", env });
    child.once("error", reject);
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

// lib/frame.ts
var EXACT_MIN_WIDTH = 32;

class Frame {
  paint;
  width = -1;
  body = [];
  rows = [];
  edges = ["", ""];
  constructor(paint) {
    this.paint = paint;
  }
  invalidate() {
    this.width = -1;
  }
  draw(body, width, exact) {
    if (width < 4)
      return body.map((line) => truncateToWidth(line, Math.max(0, width)));
    const reuse = width === this.width;
    const inner = width - 4;
    if (inner < EXACT_MIN_WIDTH)
      exact = undefined;
    const side = this.paint.fg("border", "│");
    const rows = body.map((line, index) => {
      if (exact && index >= exact.from && index < exact.to)
        return `${side} ${line} ${side}`;
      return reuse && this.body[index] === line ? this.rows[index] : bordered(line, inner, side);
    });
    if (!reuse) {
      const rule = "─".repeat(width - 2);
      this.edges = [this.paint.fg("border", `╭${rule}╮`), this.paint.fg("border", `╰${rule}╯`)];
    }
    this.width = width;
    this.body = body;
    this.rows = rows;
    return [this.edges[0], ...rows, this.edges[1]];
  }
}
function bordered(line, inner, side) {
  const fitted = fit(line, inner);
  return `${side} ${fitted}${" ".repeat(Math.max(0, inner - visibleWidth(fitted)))} ${side}`;
}
function fit(line, width) {
  return visibleWidth(line) > width ? truncateToWidth(line, width) : line;
}
function wrap(text, width) {
  const lines = wrapTextWithAnsi(text, width);
  return lines.length > 0 ? lines : [""];
}
function paintOf(theme) {
  return { fg: (tone, text) => theme.fg(tone, text), bold: (text) => theme.bold(text) };
}

// lib/keys.ts
var KEY = {
  up: "tui.select.up",
  down: "tui.select.down",
  pageUp: "tui.select.pageUp",
  pageDown: "tui.select.pageDown",
  confirm: "tui.select.confirm",
  cancel: "tui.select.cancel",
  tab: "tui.input.tab",
  submit: "tui.input.submit",
  newLine: "tui.input.newLine",
  external: "app.editor.external"
};
function isShiftTab(data) {
  return matchesKey(data, "shift+tab");
}
function isRestore(data) {
  return matchesKey(data, "ctrl+r");
}
var DONT_ASK_KEY = "ctrl+s";
function isDontAskAgain(data) {
  return matchesKey(data, DONT_ASK_KEY);
}
function keyNames(keys) {
  const first = (id, fallback) => keyName(safeKeys(keys, id)[0], fallback);
  return {
    up: first(KEY.up, "↑"),
    down: first(KEY.down, "↓"),
    confirm: first(KEY.confirm, "enter"),
    submit: first(KEY.submit, "enter"),
    newLine: first(KEY.newLine, "shift+enter"),
    tab: first(KEY.tab, "tab"),
    cancel: first(KEY.cancel, "esc"),
    external: first(KEY.external, "ctrl+g"),
    dontAsk: DONT_ASK_KEY
  };
}
function safeKeys(keys, id) {
  try {
    return keys.getKeys(id) ?? [];
  } catch {
    return [];
  }
}

// lib/visible.ts
var NAMES = {
  "\x00": "NUL",
  "\b": "BS",
  "\t": "TAB",
  "\r": "CR",
  "\x1B": "ESC",
  "": "DEL"
};
var CODES = new Map(Object.entries(NAMES).map(([char, name]) => [name, char]));
var SUSPECT = /[\x00-\x09\x0b-\x1f\x7f-\x9f\xa0\xad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u2066-\u206f\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]|[\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;
var ZWJ = "‍";
var ENDS_EMOJI = /(?:\p{Extended_Pictographic}\ufe0f?|\p{Emoji_Modifier})$/u;
var ENDS_PICTOGRAPH = /\p{Extended_Pictographic}$/u;
var STARTS_PICTOGRAPH = /^\p{Extended_Pictographic}/u;
var ENDS_KEYCAP_BASE = /[#*0-9]$/;
var NOTATION = /⟨(NUL|BS|TAB|CR|ESC|DEL|U\+[0-9A-F]{4,6})⟩/g;
function toVisible(text) {
  const escaped = text.includes("⟨") ? text.replace(NOTATION, (match) => `⟨U+27E8⟩${match.slice(1)}`) : text;
  return escaped.replace(SUSPECT, (char, offset, whole) => partOfEmoji(char, whole, offset) ? char : notation(char));
}
function fromVisible(text) {
  return text.replace(NOTATION, (match, name) => CODES.get(name) ?? fromCode(match, Number.parseInt(name.slice(2), 16)));
}
function fromCode(match, code) {
  return code <= 1114111 ? String.fromCodePoint(code) : match;
}
function notation(char) {
  const name = NAMES[char];
  if (name)
    return `⟨${name}⟩`;
  const code = char.codePointAt(0) ?? 0;
  return `⟨U+${code.toString(16).toUpperCase().padStart(4, "0")}⟩`;
}
function partOfEmoji(char, text, offset) {
  const before = text.slice(Math.max(0, offset - 3), offset);
  if (char === ZWJ)
    return ENDS_EMOJI.test(before) && STARTS_PICTOGRAPH.test(text.slice(offset + 1, offset + 3));
  if (char === "︎" || char === "️") {
    return ENDS_PICTOGRAPH.test(before) || ENDS_KEYCAP_BASE.test(before) && text[offset + 1] === "⃣";
  }
  return false;
}

// lib/visible-typing.ts
var PASTE_START = "\x1B[200~";
var PASTE_END = "\x1B[201~";
var PRINTABLE = /^[^\x00-\x1f\x7f]+$/;
var ZWJ2 = "‍";
var ENDS_IN_HIGH_SURROGATE = /[\ud800-\udbff]$/;
var ENDS_IN_PICTOGRAPH = /\p{Extended_Pictographic}\ufe0f?$/u;

class VisibleTyping {
  pending = "";
  previous = "";
  rewrite(data, hand) {
    if (this.pending === "" && data.length === 1 && data >= " " && data <= "~") {
      this.previous = data;
      return hand(data);
    }
    if (data.includes(PASTE_START)) {
      this.flush(hand);
      return hand(rewritePastes(data));
    }
    const printable = decodeKittyPrintable(data) ?? (PRINTABLE.test(data) ? data : undefined);
    if (printable === undefined) {
      this.flush(hand);
      return hand(data);
    }
    const text = this.pending + printable;
    this.pending = "";
    if (ENDS_IN_HIGH_SURROGATE.test(text) || text.endsWith(ZWJ2) && ENDS_IN_PICTOGRAPH.test(this.previous + text.slice(0, -1))) {
      this.pending = text;
      return;
    }
    const visible = toVisible(this.previous + text).slice(this.previous.length);
    this.previous = visible === text ? lastCharacter(text) : "";
    hand(visible === text ? text : asPaste(visible));
  }
  flush(hand) {
    this.previous = "";
    if (this.pending === "")
      return;
    const waiting = this.pending;
    this.pending = "";
    hand(asPaste(toVisible(waiting)));
  }
}
function rewritePastes(data) {
  return data.replace(/\x1b\[200~([\s\S]*?)\x1b\[201~/g, (_match, content) => asPaste(toVisible(content.replace(/\r\n?/g, `
`))));
}
function asPaste(text) {
  return `${PASTE_START}${text}${PASTE_END}`;
}
function lastCharacter(text) {
  return Array.from(text).at(-1) ?? "";
}

// lib/edit-mode.ts
class EditMode {
  paint;
  keys;
  original;
  note;
  editor;
  focus = "command";
  focused = false;
  stash;
  warning;
  typing = new VisibleTyping;
  toEditor = (part) => this.editor.handleInput(part);
  toNote = (part) => this.note.handleInput(part);
  noteLabel = "";
  hints = [];
  constructor(tui, paint, keys, original, note) {
    this.paint = paint;
    this.keys = keys;
    this.original = original;
    this.note = note;
    this.editor = new Editor(tui, {
      borderColor: (text) => paint.fg("border", text),
      selectList: {
        selectedPrefix: (text) => text,
        selectedText: (text) => text,
        description: (text) => text,
        scrollInfo: (text) => text,
        noMatch: (text) => text
      }
    });
    this.editor.setText(original);
    this.invalidate();
  }
  invalidate() {
    this.noteLabel = this.paint.fg("dim", EDIT_LABELS.note);
    this.hints = editHints(keyNames(this.keys)).map((row) => renderHints(row, this.paint));
    this.editor.invalidate();
  }
  get text() {
    return this.editor.getExpandedText();
  }
  setText(text) {
    this.editor.setText(text);
    this.stash = undefined;
  }
  say(text, tone) {
    this.warning = { text, tone };
  }
  handleInput(data) {
    this.warning = undefined;
    if (this.keys.matches(data, KEY.cancel))
      return { kind: "back" };
    if (this.keys.matches(data, KEY.tab)) {
      this.focus = this.focus === "command" ? "note" : "command";
      return;
    }
    if (!this.keys.matches(data, KEY.newLine) && this.keys.matches(data, KEY.submit)) {
      if (fromVisible(this.text).trim() !== "")
        return { kind: "submit", text: this.text };
      this.say(EMPTY_COMMAND_WARNING, "error");
      return;
    }
    if (this.keys.matches(data, KEY.external))
      return { kind: "external", field: this.focus };
    if (isRestore(data)) {
      this.toggleOriginal();
      return;
    }
    if (this.focus === "note") {
      this.typing.rewrite(data, this.toNote);
      return;
    }
    const before = this.stash === undefined ? undefined : this.editor.getText();
    this.typing.rewrite(data, this.toEditor);
    if (before !== undefined && this.editor.getText() !== before)
      this.stash = undefined;
    return;
  }
  toggleOriginal() {
    if (this.stash !== undefined) {
      const edits = this.stash;
      this.stash = undefined;
      this.editor.setText(edits);
    } else if (this.text !== this.original) {
      this.stash = this.text;
      this.editor.setText(this.original);
    }
  }
  render(width) {
    const { paint } = this;
    this.editor.focused = this.focused && this.focus === "command";
    this.note.focused = this.focused && this.focus === "note";
    const lines = [EDIT_LABELS.command, ...this.editor.render(width)];
    const editorRows = { from: 1, to: lines.length };
    if (this.warning)
      lines.push(paint.fg(this.warning.tone, this.warning.text));
    lines.push("", this.noteLabel, this.noteLine(width), "", ...this.hints);
    return { lines, editorRows };
  }
  noteLine(width) {
    if (this.focus === "note")
      return this.paint.fg("dim", this.note.render(width)[0] ?? "");
    return this.paint.fg("dim", toVisible(this.note.getValue()));
  }
}

// lib/prompt-overlay.ts
var ARMING_MS = 300;

class PermissionPrompt {
  request;
  env;
  focused = false;
  mode = "select";
  choices;
  selected = 0;
  drafting;
  tabUsed = false;
  detailScroll = 0;
  drafts;
  edit;
  finished = false;
  typing = new VisibleTyping;
  border;
  visibleOriginal;
  tui;
  paint;
  keys;
  now;
  armedAt;
  armingTimer;
  constructor(request, env) {
    this.request = request;
    this.env = env;
    ({ tui: this.tui, paint: this.paint, keys: this.keys } = env);
    this.border = new Frame(env.paint);
    this.visibleOriginal = toVisible(request.detail);
    this.now = env.now ?? Date.now;
    this.armedAt = this.now() + ARMING_MS;
    this.armingTimer = setTimeout(() => this.tui.requestRender(), ARMING_MS);
    this.choices = request.editable ? ["authorize", "edit", "abort"] : ["authorize", "abort"];
    this.drafts = { authorize: new Input, edit: new Input, abort: new Input };
  }
  cancel() {
    this.finish({ kind: "abort" });
  }
  dispose() {
    clearTimeout(this.armingTimer);
  }
  get arming() {
    return this.now() < this.armedAt;
  }
  handleInput(data) {
    if (this.finished || this.arming)
      return;
    if (this.mode === "edit")
      this.handleEditInput(data);
    else
      this.handleSelectInput(data);
    this.tui.requestRender();
  }
  render(width) {
    const inner = Math.max(1, width - 4);
    if (this.mode === "select" || !this.edit)
      return this.border.draw(this.renderSelect(inner), width);
    this.edit.focused = this.focused;
    const title = this.title(inner);
    const { lines, editorRows } = this.edit.render(inner);
    const offset = title.length + 1;
    return this.border.draw([...title, "", ...lines], width, { from: editorRows.from + offset, to: editorRows.to + offset });
  }
  invalidate() {
    this.titleCache = undefined;
    this.detailCache = undefined;
    this.border.invalidate();
    this.edit?.invalidate();
  }
  handleSelectInput(data) {
    const { keys } = this;
    if (keys.matches(data, KEY.cancel))
      return this.finish({ kind: "abort" });
    if (keys.matches(data, KEY.confirm))
      return this.confirm(this.choices[this.selected]);
    if (isDontAskAgain(data))
      return this.finish({ kind: "authorize", note: this.noteOf("authorize"), dontAskAgain: true });
    if (isShiftTab(data)) {
      this.drafting = undefined;
      return;
    }
    if (keys.matches(data, KEY.tab)) {
      this.drafting = this.choices[this.selected];
      this.tabUsed = true;
      return;
    }
    if (keys.matches(data, KEY.up))
      return this.move(-1);
    if (keys.matches(data, KEY.down))
      return this.move(1);
    if (keys.matches(data, KEY.pageUp))
      return this.scrollDetail(-1);
    if (keys.matches(data, KEY.pageDown))
      return this.scrollDetail(1);
    if (this.drafting) {
      const draft = this.drafts[this.drafting];
      this.typing.rewrite(data, (part) => draft.handleInput(part));
      return;
    }
    if (data === "k")
      return this.move(-1);
    if (data === "j")
      return this.move(1);
    const digit = /^[1-9]$/.test(data) ? Number(data) - 1 : -1;
    if (digit >= 0 && digit < this.choices.length) {
      this.selected = digit;
      if (!this.tabUsed)
        this.confirm(this.choices[digit]);
    }
  }
  move(step) {
    const count = this.choices.length;
    this.selected = (this.selected + step + count) % count;
    if (this.drafting)
      this.drafting = this.choices[this.selected];
  }
  scrollDetail(direction) {
    this.detailScroll = Math.max(0, this.detailScroll + direction * Math.max(1, this.detailPage - 1));
  }
  confirm(choice) {
    switch (choice) {
      case "authorize":
        return this.finish({ kind: "authorize", note: this.noteOf("authorize") });
      case "abort":
        return this.finish({ kind: "abort", note: this.noteOf("abort") });
      case "edit":
        return this.enterEditMode();
      case undefined:
        return;
      default:
        return this.finish({ kind: "abort" });
    }
  }
  renderSelect(inner) {
    const { paint, request } = this;
    const lines = this.header(inner);
    const tail = [""];
    this.choices.forEach((choice, index) => {
      const selected = index === this.selected;
      const line = choiceLine(index, toVisible(request.labels[choice]), selected);
      tail.push(selected ? paint.fg("accent", line) : line);
      const draft = this.drafts[choice];
      if (this.drafting === choice) {
        draft.focused = this.focused;
        tail.push(NOTE_PREFIX + (draft.render(Math.max(1, inner - NOTE_PREFIX.length))[0] ?? ""));
      } else if (draft.getValue().trim() !== "") {
        tail.push(paint.fg("dim", NOTE_PREFIX + toVisible(draft.getValue())));
      }
    });
    const hints = renderHintRows(selectHints(keyNames(this.keys), request.labels.dontAsk), inner, paint);
    tail.push("", ...this.arming ? hints.map((_, row) => row === 0 ? paint.fg("dim", ARMING_HINT) : "") : hints);
    const room = this.rows() - lines.length - tail.length - 2;
    return [...lines, ...this.detailWindow(inner, room), ...tail];
  }
  header(inner) {
    const { request } = this;
    const lines = [...this.title(inner)];
    for (const text of [request.description, request.guidance]) {
      if (text && text.trim() !== "")
        lines.push("", ...wrap(toVisible(text), inner));
    }
    lines.push("");
    return lines;
  }
  detailWindow(inner, room) {
    const all = this.detailLines(inner);
    const rows = Math.max(3, room);
    if (all.length <= rows)
      return all;
    const visible = rows - 2;
    this.detailPage = visible;
    const maxScroll = all.length - visible;
    this.detailScroll = Math.min(this.detailScroll, maxScroll);
    const above = this.detailScroll;
    const below = all.length - above - visible;
    return [
      this.paint.fg("dim", above > 0 ? scrollMarker("up", above) : ""),
      ...all.slice(above, above + visible),
      this.paint.fg("dim", below > 0 ? scrollMarker("down", below) : "")
    ];
  }
  detailCache;
  detailPage = 1;
  detailLines(inner) {
    const editText = this.choices[this.selected] === "edit" ? this.edit?.text : undefined;
    const edited = editText !== undefined && editText !== this.visibleOriginal;
    const key = edited ? `${inner}\x00edit\x00${editText}` : `${inner}\x00original`;
    if (this.detailCache?.key === key)
      return this.detailCache.lines;
    const styled = edited ? editText : this.highlightedDetail();
    const text = `${this.paint.fg("accent", `${toVisible(this.request.toolName)}:`)} ${styled}`;
    const lines = text.split(`
`).flatMap((line) => wrap(line, inner));
    this.detailCache = { key, lines };
    return lines;
  }
  highlightedDetail() {
    const { detail, highlights } = this.request;
    let out = "";
    let at = 0;
    for (const span of highlights) {
      out += toVisible(detail.slice(at, span.start));
      const marked = toVisible(detail.slice(span.start, span.end));
      out += marked.split(`
`).map((part) => this.paint.fg("warning", this.paint.bold(part))).join(`
`);
      at = span.end;
    }
    return out + toVisible(detail.slice(at));
  }
  enterEditMode() {
    this.edit ??= new EditMode(this.tui, this.paint, this.keys, this.visibleOriginal, this.drafts.edit);
    this.mode = "edit";
    this.drafting = undefined;
  }
  handleEditInput(data) {
    const edit = this.edit;
    if (!edit)
      return;
    const signal = edit.handleInput(data);
    if (!signal)
      return;
    if (signal.kind === "back") {
      this.mode = "select";
      return;
    }
    if (signal.kind === "external") {
      this.openExternal(edit, signal.field).catch((error) => {
        edit.say(externalEditorFailure(describeError(error)), "warning");
        this.tui.requestRender(true);
      });
      return;
    }
    const note = this.noteOf("edit");
    if (signal.text === this.visibleOriginal)
      this.finish({ kind: "authorize", note });
    else
      this.finish({ kind: "edit", command: fromVisible(signal.text), note });
  }
  async openExternal(edit, field) {
    if (!this.env.externalEditor)
      return;
    const command = field === "command";
    const current = fromVisible(command ? edit.text : edit.note.getValue());
    const result = await this.env.externalEditor(current, command ? ".sh" : ".txt");
    if (this.finished)
      return;
    if (!result.ok)
      edit.say(externalEditorFailure(result.reason), "warning");
    else if (command)
      edit.setText(toVisible(result.text.replace(/\n$/, "")));
    else
      edit.note.setValue(toVisible(result.text.replace(/\s+/g, " ").trim()));
    this.tui.requestRender(true);
  }
  titleCache;
  title(inner) {
    if (this.titleCache?.width !== inner) {
      const title = this.paint.fg("accent", this.paint.bold(promptTitle(toVisible(this.request.hookName))));
      this.titleCache = { width: inner, lines: wrap(title, inner) };
    }
    return this.titleCache.lines;
  }
  noteOf(choice) {
    const note = fromVisible(this.drafts[choice].getValue()).trim();
    return note === "" ? undefined : note;
  }
  rows() {
    return this.tui.terminal?.rows ?? 24;
  }
  finish(outcome) {
    if (this.finished)
      return;
    this.finished = true;
    this.dispose();
    this.env.done(outcome);
  }
}

// lib/show-prompt.ts
var OVERLAY = { anchor: "center", width: "80%", minWidth: 40, maxHeight: "100%" };
var OVERLAY_POLL_MS = 50;
var WAITING_NOTICE_MS = 2000;
async function showPrompt(ctx, request, track) {
  if (!await otherOverlaysClosed(ctx, request.hookName))
    return "interrupted";
  const signal = ctx.signal;
  return ctx.ui.custom((tui, theme, keybindings, done) => {
    const cancel = () => prompt.cancel();
    const prompt = new PermissionPrompt(request, {
      tui,
      paint: paintOf(theme),
      keys: keybindings,
      externalEditor: externalEditorFor(tui),
      done: (outcome) => {
        signal?.removeEventListener("abort", cancel);
        track(prompt, false);
        done(outcome);
      }
    });
    signal?.addEventListener("abort", cancel, { once: true });
    track(prompt, true);
    if (signal?.aborted)
      queueMicrotask(cancel);
    return prompt;
  }, { overlay: true, overlayOptions: OVERLAY });
}
async function otherOverlaysClosed(ctx, hookName) {
  const tui = tuiOf(ctx);
  for (let waited = 0;tui?.hasOverlay(); waited += OVERLAY_POLL_MS) {
    if (ctx.signal?.aborted)
      return false;
    if (waited === WAITING_NOTICE_MS)
      ctx.ui.notify(notifyPromptWaiting(hookName), "info");
    await new Promise((resolve) => setTimeout(resolve, OVERLAY_POLL_MS));
  }
  return !ctx.signal?.aborted;
}
function tuiOf(ctx) {
  let tui;
  const key = "pi-permission-hooks:tui";
  ctx.ui.setWidget(key, (given) => {
    tui = given;
    return { render: () => [], invalidate() {} };
  });
  ctx.ui.setWidget(key, undefined);
  return tui;
}

// lib/tool-input.ts
import { homedir } from "node:os";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

// lib/shell-command.ts
var KNOWN_VALUE_FLAGS = {
  git: ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env", "--super-prefix"],
  docker: ["-H", "--host", "-c", "--context", "--config", "-l", "--log-level"],
  kubectl: ["-n", "--namespace", "--context", "--cluster", "--kubeconfig", "-s", "--server", "--user", "--as"]
};
var NO_WORDS = Object.freeze([]);
var NO_REDIRECTS = Object.freeze([]);

class ShellCommand {
  words = [];
  assignments = NO_WORDS;
  redirects = NO_REDIRECTS;
  span;
  dir;
  via;
  wrappers = NO_WORDS;
  program = undefined;
  programName = "";
  args = NO_WORDS;
  constructor(start, dir, via) {
    this.span = { start, end: start };
    this.dir = dir;
    this.via = via;
  }
  hasFlag(...spellings) {
    for (const arg of this.args) {
      const text = arg.text;
      if (text === "--")
        return false;
      if (text.length < 2 || text.charCodeAt(0) !== 45 || arg.dynamic)
        continue;
      const long = text.charCodeAt(1) === 45;
      for (const spelling of spellings) {
        if (text === spelling)
          return true;
        if (long) {
          if (text.length > spelling.length && text.startsWith(spelling) && text.charCodeAt(spelling.length) === 61)
            return true;
        } else if (spelling.length === 2 && spelling.charCodeAt(0) === 45 && spelling.charCodeAt(1) !== 45) {
          if (text.includes(spelling[1], 1) && /^-[A-Za-z0-9]+$/.test(text))
            return true;
        }
      }
    }
    return false;
  }
  subcommand(options) {
    return this.positionalWords(options, true)[0];
  }
  positionals(options) {
    return this.positionalWords(options, false);
  }
  positionalWords(options, first) {
    const valueFlags = options?.valueFlags ?? KNOWN_VALUE_FLAGS[this.programName] ?? [];
    const found = [];
    const args = this.args;
    for (let index = 0;index < args.length; index++) {
      const text = args[index].text;
      if (text === "--") {
        for (let rest = index + 1;rest < args.length && !(first && found.length > 0); rest++)
          found.push(args[rest]);
        break;
      }
      if (text.length > 1 && text.charCodeAt(0) === 45 && !args[index].dynamic) {
        if (valueFlags.includes(text))
          index++;
        continue;
      }
      found.push(args[index]);
      if (first)
        break;
    }
    return found;
  }
}

// lib/shell-words.ts
var ESCAPES = {
  a: "\x07",
  b: "\b",
  e: "\x1B",
  E: "\x1B",
  f: "\f",
  n: `
`,
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?"
};
function decodeAnsiC(source, quote) {
  let text = "";
  let at = quote + 1;
  let run = at;
  while (at < source.length) {
    const char = source[at];
    if (char === "'")
      return [text + source.slice(run, at), at + 1];
    if (char !== "\\" || at + 1 >= source.length) {
      at++;
      continue;
    }
    text += source.slice(run, at);
    const next = source[at + 1];
    at += 2;
    if (next in ESCAPES)
      text += ESCAPES[next];
    else if (next >= "0" && next <= "7") {
      const digits = /^[0-7]{0,2}/.exec(source.slice(at, at + 2))?.[0] ?? "";
      text += String.fromCharCode(Number.parseInt(next + digits, 8) & 255);
      at += digits.length;
    } else if (next === "x" || next === "u" || next === "U") {
      const digits = (next === "x" ? /^[0-9A-Fa-f]{1,2}/ : next === "u" ? /^[0-9A-Fa-f]{1,4}/ : /^[0-9A-Fa-f]{1,8}/).exec(source.slice(at, at + 8))?.[0];
      if (digits === undefined)
        text += `\\${next}`;
      else {
        const code = Number.parseInt(digits, 16);
        text += code <= 1114111 ? String.fromCodePoint(code) : "";
        at += digits.length;
      }
    } else if (next === "c" && at < source.length) {
      text += String.fromCharCode(source.charCodeAt(at) & 31);
      at++;
    } else
      text += `\\${next}`;
    run = at;
  }
  return [text + source.slice(run), source.length + 1];
}
function decodeMapped(source, start, end) {
  let text = "";
  const map = [];
  const keep = (from, to) => {
    text += source.slice(from, to);
    for (let at = from;at < to; at++)
      map.push(at);
  };
  let at = start;
  let doubleQuoted = false;
  while (at < end) {
    const char = source[at];
    if (char === '"') {
      doubleQuoted = !doubleQuoted;
      at++;
    } else if (char === "\\") {
      const next = source[at + 1];
      if (next === `
`)
        at += 2;
      else if (!doubleQuoted || next === "$" || next === "`" || next === '"' || next === "\\") {
        keep(at + 1, Math.min(at + 2, end));
        at += 2;
      } else {
        keep(at, at + 1);
        at++;
      }
    } else if (char === "'" && !doubleQuoted) {
      const close = source.indexOf("'", at + 1);
      const stop = close === -1 || close > end ? end : close;
      keep(at + 1, stop);
      at = stop + 1;
    } else if (char === "$" && !doubleQuoted && source[at + 1] === "'") {
      const [decoded, after] = decodeAnsiC(source, at + 1);
      text += decoded;
      for (let index = 0;index < decoded.length; index++)
        map.push(at);
      at = after;
    } else if (char === "$" && !doubleQuoted && source[at + 1] === '"') {
      doubleQuoted = true;
      at += 2;
    } else {
      keep(at, at + 1);
      at++;
    }
  }
  map.push(end);
  return { text, map };
}
function basename(path) {
  const slash = path.lastIndexOf("/");
  return slash === -1 || slash === path.length - 1 ? path : path.slice(slash + 1);
}
function changeDir(base, target) {
  const rooted = target.startsWith("/") || target === "~" || target.startsWith("~/");
  const joined = rooted ? target : `${base}/${target}`;
  const root = joined.startsWith("/") ? "/" : joined === "~" || joined.startsWith("~/") ? "~" : "";
  const parts = [];
  for (const part of joined.slice(root.length).split("/")) {
    if (part === "" || part === ".")
      continue;
    if (part === ".." && parts.length > 0 && parts[parts.length - 1] !== "..")
      parts.pop();
    else if (part !== ".." || root !== "/")
      parts.push(part);
  }
  const path = parts.join("/");
  if (root === "/")
    return `/${path}`;
  if (root === "~")
    return path === "" ? "~" : `~/${path}`;
  return path === "" ? "." : path;
}

// lib/shell-scan.ts
var TAB = 9;
var NL = 10;
var SP = 32;
var BANG = 33;
var DQ = 34;
var HASH = 35;
var DOLLAR = 36;
var AMP = 38;
var SQ = 39;
var LP = 40;
var RP = 41;
var STAR = 42;
var COMMA = 44;
var DOT = 46;
var SEMI = 59;
var LT = 60;
var GT = 62;
var QM = 63;
var AT = 64;
var LB = 91;
var BS = 92;
var RB = 93;
var BT = 96;
var LC = 123;
var PIPE = 124;
var RC = 125;
var TILDE = 126;
var MAX_DEPTH = 32;
var LIST = 0;
var WORD = 1;
var PARAM = 2;
var ARITH = 3;
var HERE = 4;
var S_CMD = 0;
var S_REDIR = 1;
var S_FOR_NAME = 2;
var S_FOR_REST = 3;
var S_CASE_SUBJECT = 4;
var S_CASE_IN = 5;
var S_CASE_PAT = 6;
var S_DBRACKET = 7;
var S_FUNC_NAME = 8;
var C_SUBSHELL = 0;
var C_BRACE = 1;
var C_IF = 2;
var C_LOOP = 3;
var C_CASE = 4;
var C_FUNCTION = 5;
var ARITH_WORD = 0;
var ARITH_COMMAND = 1;
var ARITH_FOR = 2;
var ARITH_RETRIES = 64;
var KEYWORDS = new Set([
  "if",
  "then",
  "elif",
  "else",
  "fi",
  "do",
  "done",
  "while",
  "until",
  "for",
  "select",
  "case",
  "esac",
  "{",
  "}",
  "!",
  "[[",
  "function",
  "time"
]);
var ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
var NAMED_FD = /\{[A-Za-z_][A-Za-z0-9_]*\}(?=[<>])/y;
var ARRAY_OPENING = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=$/;
function scan(source, via, dir, depth) {
  const scanner = new Scanner(source, via, depth);
  scanner.run(dir);
  return { commands: scanner.result(), complete: scanner.complete };
}

class Scanner {
  source;
  via;
  depth;
  pos = 0;
  complete = true;
  commands = [];
  stack = [];
  dropped = [];
  unsorted = false;
  freeWords = [];
  arithRetries = 0;
  heredocs = [];
  heredocOwner = null;
  constructor(source, via, depth) {
    this.source = source;
    this.via = via;
    this.depth = depth;
  }
  run(dir) {
    this.stack.push(newList(false, dir));
    const stack = this.stack;
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      switch (top.kind) {
        case LIST:
          this.stepList(top);
          break;
        case WORD:
          this.stepWord(top);
          break;
        case PARAM:
          this.stepParam(top);
          break;
        case ARITH:
          this.stepArith(top);
          break;
        case HERE:
          this.stepHere(top);
          break;
      }
    }
  }
  result() {
    let commands = this.commands;
    if (this.dropped.length > 0) {
      const dropped = new Set(this.dropped);
      commands = commands.filter((command) => !dropped.has(command));
    }
    if (this.unsorted)
      commands.sort((a, b) => a.span.start - b.span.start);
    return commands;
  }
  stepList(f) {
    if (this.heredocOwner === f) {
      this.heredocOwner = null;
      if (this.readHeredocs(f))
        return;
    }
    const s = this.source;
    const n = s.length;
    let p = this.pos;
    for (;; ) {
      if (p >= n) {
        this.pos = n;
        this.closeList(f, false);
        return;
      }
      const c = s.charCodeAt(p);
      if (f.state === S_DBRACKET && (c === AMP || c === PIPE || c === LP || c === RP || c === LT || c === GT || c === BANG)) {
        p++;
        continue;
      }
      switch (c) {
        case SP:
        case TAB:
          p++;
          continue;
        case NL:
          p++;
          if (f.state === S_CMD || f.state === S_REDIR || f.state === S_FOR_REST) {
            this.endCommand(f);
            endAndOr(f);
          }
          if (this.heredocs.length > 0 && this.heredocOwner === null) {
            this.pos = p;
            if (this.readHeredocs(f))
              return;
            p = this.pos;
          }
          continue;
        case HASH: {
          const newline = s.indexOf(`
`, p);
          p = newline === -1 ? n : newline;
          continue;
        }
        case SEMI: {
          const next = s.charCodeAt(p + 1);
          if (next === SEMI || next === AMP) {
            p += next === SEMI && s.charCodeAt(p + 2) === AMP ? 3 : 2;
            this.endCommand(f);
            endAndOr(f);
            if (top(f)?.kind === C_CASE)
              f.state = S_CASE_PAT;
            else
              this.complete = false;
            continue;
          }
          p++;
          if (f.state === S_FOR_REST)
            f.state = S_CMD;
          else {
            this.endCommand(f);
            endAndOr(f);
          }
          continue;
        }
        case AMP: {
          const next = s.charCodeAt(p + 1);
          if (next === AMP) {
            p += 2;
            this.endCommand(f);
            endPipeline(f);
            f.conditional = true;
            f.expectsCommand = true;
            continue;
          }
          if (next === GT) {
            p = this.redirect(f, p, p + (s.charCodeAt(p + 2) === GT ? 3 : 2));
            continue;
          }
          p++;
          this.endCommand(f);
          endPipeline(f);
          f.dir = f.andOrDir;
          f.doubt = false;
          endAndOr(f);
          continue;
        }
        case PIPE: {
          if (f.state === S_CASE_PAT) {
            p++;
            continue;
          }
          const next = s.charCodeAt(p + 1);
          this.endCommand(f);
          f.expectsCommand = true;
          if (next === PIPE) {
            p += 2;
            endPipeline(f);
            f.conditional = true;
            continue;
          }
          p += next === AMP ? 2 : 1;
          f.piped = true;
          f.dir = f.pipeDir;
          continue;
        }
        case LT:
        case GT: {
          if (s.charCodeAt(p + 1) === LP && f.state !== S_CASE_PAT) {
            this.pos = p;
            this.stack.push(this.newWord(f, p));
            return;
          }
          p = this.redirect(f, p, operatorEnd(s, p));
          continue;
        }
        case LP:
          p = this.openParen(f, p);
          if (p < 0)
            return;
          continue;
        case RP:
          if (f.state === S_CASE_PAT) {
            f.state = S_CMD;
            p++;
            continue;
          }
          this.endCommand(f);
          if (top(f)?.kind === C_SUBSHELL) {
            this.popConstruct(f, C_SUBSHELL);
            p++;
            continue;
          }
          if (f.closes) {
            this.pos = p + 1;
            this.closeList(f, true);
            return;
          }
          this.complete = false;
          p++;
          continue;
        case BS:
          if (s.charCodeAt(p + 1) === NL) {
            p += 2;
            continue;
          }
          break;
        case LC: {
          NAMED_FD.lastIndex = p;
          if (NAMED_FD.test(s)) {
            p = this.redirect(f, p, operatorEnd(s, NAMED_FD.lastIndex));
            continue;
          }
          break;
        }
        default:
          if (c >= 48 && c <= 57) {
            let q = p + 1;
            while (q < n && s.charCodeAt(q) >= 48 && s.charCodeAt(q) <= 57)
              q++;
            const after = s.charCodeAt(q);
            if ((after === LT || after === GT) && s.charCodeAt(q + 1) !== LP) {
              p = this.redirect(f, p, operatorEnd(s, q));
              continue;
            }
          }
      }
      this.pos = p;
      this.stack.push(this.newWord(f, p));
      return;
    }
  }
  openParen(f, p) {
    const s = this.source;
    if (f.state === S_CASE_PAT)
      return p + 1;
    if (f.state === S_FOR_NAME && s.charCodeAt(p + 1) === LP) {
      f.state = S_FOR_REST;
      this.pushArith(f, ARITH_FOR, p);
      return -1;
    }
    if (f.state === S_CMD && f.cmd === null) {
      f.expectsCommand = false;
      if (s.charCodeAt(p + 1) === LP && this.arithRetries <= ARITH_RETRIES) {
        this.pushArith(f, ARITH_COMMAND, p);
        return -1;
      }
      this.pushConstruct(f, C_SUBSHELL);
      return p + 1;
    }
    const cmd = f.cmd;
    if (f.state === S_CMD && cmd !== null && cmd.words.length === 1 && cmd.assignments.length === 0 && cmd.redirects.length === 0) {
      const close = skipBlanks(s, p + 1);
      if (s.charCodeAt(close) === RP) {
        this.dropped.push(cmd);
        f.cmd = null;
        this.pushConstruct(f, C_FUNCTION);
        return close + 1;
      }
    }
    this.complete = false;
    return p + 1;
  }
  redirect(f, start, end) {
    if (f.state === S_REDIR)
      this.complete = false;
    const op = this.source.slice(start, end);
    const cmd = this.command(f, start);
    const redirect = { op, target: undefined };
    if (cmd.redirects === NO_REDIRECTS)
      cmd.redirects = [redirect];
    else
      cmd.redirects.push(redirect);
    f.lastEnd = end;
    f.redirect = redirect;
    f.heredoc = op.endsWith("<<<") ? 0 : op.endsWith("<<") ? 1 : op.endsWith("<<-") ? 2 : 0;
    f.state = S_REDIR;
    return end;
  }
  command(f, start) {
    if (f.cmd !== null)
      return f.cmd;
    f.expectsCommand = false;
    const cmd = new ShellCommand(start, f.dir, this.via);
    const commands = this.commands;
    if (commands.length > 0 && commands[commands.length - 1].span.start > start)
      this.unsorted = true;
    commands.push(cmd);
    f.cmd = cmd;
    return cmd;
  }
  endCommand(f) {
    if (f.state === S_REDIR) {
      this.complete = false;
      f.state = S_CMD;
    } else if (f.state === S_FOR_REST)
      f.state = S_CMD;
    const cmd = f.cmd;
    if (cmd === null)
      return;
    f.cmd = null;
    cmd.span.end = f.lastEnd;
    const words = cmd.words;
    if (words.length === 0) {
      if (cmd.redirects.length === 0)
        this.dropped.push(cmd);
      return;
    }
    let first = 0;
    while (first < words.length - 1 && (words[first].text === "builtin" || words[first].text === "command") && !words[first].dynamic)
      first++;
    const name = words[first].dynamic ? "" : words[first].text;
    if (name === "cd" || name === "pushd" || name === "popd") {
      changeDirectory(f, name, words.slice(first + 1));
      if (f.conditional)
        f.doubt = true;
    }
  }
  closeList(f, closed) {
    this.endCommand(f);
    endAndOr(f);
    if (f.constructs.length > 0 || closed !== f.closes || f.state !== S_CMD || f.expectsCommand)
      this.complete = false;
    if (!f.closes && this.heredocs.length > 0) {
      this.complete = false;
      this.heredocs.length = 0;
    }
    this.stack.pop();
  }
  pushConstruct(f, kind) {
    f.constructs.push({
      kind,
      dir: f.dir,
      pipeDir: f.pipeDir,
      andOrDir: f.andOrDir,
      piped: f.piped,
      conditional: f.conditional,
      doubt: f.doubt
    });
    f.piped = false;
    f.conditional = false;
    f.expectsCommand = false;
    f.doubt = false;
    f.pipeDir = f.dir;
    f.andOrDir = f.dir;
  }
  popConstruct(f, kind) {
    const construct = top(f);
    if (construct?.kind !== kind) {
      this.complete = false;
      return;
    }
    endAndOr(f);
    f.constructs.pop();
    if (kind === C_SUBSHELL)
      f.dir = construct.dir;
    else if (kind !== C_BRACE && f.dir !== construct.dir)
      f.dir = undefined;
    f.pipeDir = construct.pipeDir;
    f.andOrDir = construct.andOrDir;
    f.piped = construct.piped;
    f.conditional = construct.conditional;
    f.doubt = construct.doubt;
    const outer = top(f);
    if (outer?.kind === C_FUNCTION) {
      f.constructs.pop();
      f.dir = outer.dir;
      f.pipeDir = outer.pipeDir;
      f.andOrDir = outer.andOrDir;
      f.piped = outer.piped;
      f.conditional = outer.conditional;
      f.doubt = outer.doubt;
    }
  }
  acceptWord(f, word, w) {
    switch (f.state) {
      case S_CMD: {
        if (f.cmd === null && plain(w) && word.text.length <= 8 && KEYWORDS.has(word.text) && this.keyword(f, word))
          return;
        const cmd = this.command(f, word.start);
        f.lastEnd = word.end;
        if (cmd.words.length === 0 && isAssignment(word, w)) {
          if (cmd.assignments === NO_WORDS)
            cmd.assignments = [word];
          else
            cmd.assignments.push(word);
        } else
          cmd.words.push(word);
        return;
      }
      case S_REDIR: {
        const redirect = f.redirect;
        redirect.target = word;
        f.lastEnd = word.end;
        f.state = S_CMD;
        if (f.heredoc !== 0) {
          this.heredocs.push({
            delimiter: word.text,
            quoted: w.firstQuote !== Number.MAX_SAFE_INTEGER,
            strip: f.heredoc === 2,
            redirect
          });
        }
        return;
      }
      case S_FOR_NAME:
        f.state = S_FOR_REST;
        return;
      case S_FOR_REST:
        if (word.text === "do" && plain(w))
          f.state = S_CMD;
        return;
      case S_CASE_SUBJECT:
        f.state = S_CASE_IN;
        return;
      case S_CASE_IN:
        if (word.text === "in" && plain(w))
          f.state = S_CASE_PAT;
        else
          this.complete = false;
        return;
      case S_CASE_PAT:
        if (word.text === "esac" && plain(w)) {
          f.state = S_CMD;
          this.popConstruct(f, C_CASE);
        }
        return;
      case S_DBRACKET:
        if (word.text === "]]" && plain(w))
          f.state = S_CMD;
        return;
      case S_FUNC_NAME: {
        f.state = S_CMD;
        this.pushConstruct(f, C_FUNCTION);
        const s = this.source;
        const open = skipBlanks(s, word.end);
        if (s.charCodeAt(open) === LP) {
          const close = skipBlanks(s, open + 1);
          if (s.charCodeAt(close) === RP)
            this.pos = close + 1;
        }
        return;
      }
    }
  }
  keyword(f, word) {
    f.expectsCommand = false;
    switch (word.text) {
      case "if":
      case "while":
      case "until":
        this.pushConstruct(f, word.text === "if" ? C_IF : C_LOOP);
        return true;
      case "then":
      case "do":
      case "else":
      case "elif":
      case "!":
        return true;
      case "fi":
        this.popConstruct(f, C_IF);
        return true;
      case "done":
        this.popConstruct(f, C_LOOP);
        return true;
      case "for":
      case "select":
        this.pushConstruct(f, C_LOOP);
        f.state = S_FOR_NAME;
        return true;
      case "case":
        this.pushConstruct(f, C_CASE);
        f.state = S_CASE_SUBJECT;
        return true;
      case "esac":
        this.popConstruct(f, C_CASE);
        return true;
      case "{":
        this.pushConstruct(f, C_BRACE);
        return true;
      case "}":
        this.popConstruct(f, C_BRACE);
        return true;
      case "[[":
        f.state = S_DBRACKET;
        return true;
      case "function":
        f.state = S_FUNC_NAME;
        return true;
      default: {
        const next = this.source.charCodeAt(skipBlanks(this.source, word.end));
        return next === LC || next === LP || next === BANG;
      }
    }
  }
  stepWord(w) {
    const s = this.source;
    const n = s.length;
    let p = this.pos;
    if (p === w.start && (s.charCodeAt(p) === LT || s.charCodeAt(p) === GT) && s.charCodeAt(p + 1) === LP) {
      w.dynamic = true;
      this.pushList(w.list, p + 2);
      return;
    }
    for (;; ) {
      if (p >= n) {
        if (w.doubleQuoted || w.paren > 0)
          this.complete = false;
        this.finishWord(w, n);
        return;
      }
      const c = s.charCodeAt(p);
      if (w.doubleQuoted) {
        if (c === DQ) {
          w.text += s.slice(w.run, p);
          w.doubleQuoted = false;
          w.run = ++p;
        } else if (c === BS) {
          const next = s.charCodeAt(p + 1);
          if (next === DOLLAR || next === BT || next === DQ || next === BS || next === NL) {
            w.text += s.slice(w.run, p);
            w.run = next === NL ? p + 2 : p + 1;
            p += 2;
          } else
            p++;
        } else if (c === DOLLAR) {
          const after = this.dollar(w.list, p, true);
          if (after === PUSHED) {
            w.dynamic = true;
            return;
          }
          if (after !== LITERAL)
            w.dynamic = true;
          p = after === LITERAL ? p + 1 : after;
        } else if (c === BT) {
          w.dynamic = true;
          p = this.backtick(w.list, p);
        } else
          p++;
        continue;
      }
      switch (c) {
        case SP:
        case TAB:
        case NL:
        case SEMI:
        case AMP:
        case PIPE:
        case LT:
        case GT:
          if (w.paren > 0) {
            p++;
            continue;
          }
          this.finishWord(w, p);
          return;
        case LP:
          if (w.paren > 0)
            w.paren++;
          else if (isExtglobOpener(s.charCodeAt(p - 1)) && p > w.start) {
            w.paren = 1;
            w.dynamic = true;
          } else if (w.list.state === S_CMD && (w.list.cmd?.words.length ?? 0) === 0 && w.firstQuote > p && ARRAY_OPENING.test(s.slice(w.start, p)))
            w.paren = 1;
          else {
            this.finishWord(w, p);
            return;
          }
          p++;
          continue;
        case RP:
          if (w.paren > 0) {
            w.paren--;
            p++;
            continue;
          }
          this.finishWord(w, p);
          return;
        case SQ: {
          w.text += s.slice(w.run, p);
          if (w.firstQuote > p)
            w.firstQuote = p;
          const close = s.indexOf("'", p + 1);
          if (close === -1) {
            this.complete = false;
            w.text += s.slice(p + 1);
            w.run = p = n;
            continue;
          }
          w.text += s.slice(p + 1, close);
          w.run = p = close + 1;
          continue;
        }
        case DQ:
          w.text += s.slice(w.run, p);
          if (w.firstQuote > p)
            w.firstQuote = p;
          w.doubleQuoted = true;
          w.run = ++p;
          continue;
        case BS:
          w.text += s.slice(w.run, p);
          if (s.charCodeAt(p + 1) === NL) {
            w.run = p += 2;
            continue;
          }
          if (w.firstQuote > p)
            w.firstQuote = p;
          if (p + 1 >= n) {
            w.run = p;
            p++;
            continue;
          }
          w.run = p + 1;
          p += 2;
          continue;
        case DOLLAR: {
          const next = s.charCodeAt(p + 1);
          if (next === SQ) {
            w.text += s.slice(w.run, p);
            if (w.firstQuote > p)
              w.firstQuote = p;
            const [decoded, after] = decodeAnsiC(s, p + 1);
            if (after > n)
              this.complete = false;
            w.text += decoded;
            w.run = p = Math.min(after, n);
            continue;
          }
          if (next === DQ) {
            w.text += s.slice(w.run, p);
            if (w.firstQuote > p)
              w.firstQuote = p;
            w.doubleQuoted = true;
            w.run = p += 2;
            continue;
          }
          const after = this.dollar(w.list, p, false);
          if (after === PUSHED) {
            w.dynamic = true;
            return;
          }
          if (after !== LITERAL)
            w.dynamic = true;
          p = after === LITERAL ? p + 1 : after;
          continue;
        }
        case BT:
          w.dynamic = true;
          p = this.backtick(w.list, p);
          continue;
        case STAR:
        case QM:
          w.dynamic = true;
          p++;
          continue;
        case LB:
          w.bracket = true;
          p++;
          continue;
        case RB:
          if (w.bracket)
            w.dynamic = true;
          p++;
          continue;
        case LC:
          if (w.brace === 0)
            w.brace = 1;
          p++;
          continue;
        case COMMA:
          if (w.brace === 1)
            w.brace = 2;
          p++;
          continue;
        case DOT:
          if (w.brace === 1 && s.charCodeAt(p + 1) === DOT)
            w.brace = 2;
          p++;
          continue;
        case RC:
          if (w.brace === 2)
            w.dynamic = true;
          p++;
          continue;
        case TILDE:
          if (p === w.start)
            w.dynamic = true;
          p++;
          continue;
        default:
          p++;
      }
    }
  }
  finishWord(w, end) {
    const text = w.run === w.start ? this.source.slice(w.start, end) : w.text + this.source.slice(w.run, end);
    const word = { text, start: w.start, end, dynamic: w.dynamic };
    this.stack.pop();
    this.pos = end;
    this.acceptWord(w.list, word, w);
    this.freeWords.push(w);
  }
  newWord(list, start) {
    const w = this.freeWords.pop();
    if (w === undefined)
      return newWord(list, start);
    w.list = list;
    w.start = w.run = start;
    w.text = "";
    w.doubleQuoted = w.dynamic = w.bracket = false;
    w.firstQuote = Number.MAX_SAFE_INTEGER;
    w.paren = w.brace = 0;
    return w;
  }
  dollar(list, p, inDoubleQuotes) {
    const s = this.source;
    const next = s.charCodeAt(p + 1);
    if (next === LP) {
      if (s.charCodeAt(p + 2) === LP && this.arithRetries <= ARITH_RETRIES)
        this.pushArith(list, ARITH_WORD, p);
      else
        this.pushList(list, p + 2);
      return PUSHED;
    }
    if (next === LC) {
      this.pos = p + 2;
      this.stack.push({ kind: PARAM, list, depth: 1, doubleQuoted: false, inDoubleQuotes });
      return PUSHED;
    }
    if (next === LB) {
      const close = s.indexOf("]", p + 2);
      if (close === -1)
        this.complete = false;
      return close === -1 ? s.length : close + 1;
    }
    if (isNameStart(next)) {
      let q = p + 2;
      while (isNameChar(s.charCodeAt(q)))
        q++;
      return q;
    }
    if (next >= 48 && next <= 57 || next === AT || next === STAR || next === HASH || next === QM || next === 45 || next === DOLLAR || next === BANG)
      return p + 2;
    return LITERAL;
  }
  pushArith(list, form, open) {
    this.pos = open + (form === ARITH_WORD ? 3 : 2);
    this.stack.push({ kind: ARITH, list, depth: 0, form, open, commandsBefore: this.commands.length });
  }
  pushList(outer, at) {
    this.pos = at;
    this.stack.push(newList(true, outer.dir));
  }
  backtick(list, p) {
    const s = this.source;
    let close = p + 1;
    let escaped = false;
    while (close < s.length && s.charCodeAt(close) !== BT) {
      if (s.charCodeAt(close) === BS) {
        escaped = true;
        close++;
      }
      close++;
    }
    if (close >= s.length) {
      this.complete = false;
      close = s.length;
    }
    if (this.depth >= MAX_DEPTH) {
      this.complete = false;
      return close + 1;
    }
    let inner = s.slice(p + 1, close);
    let map;
    if (escaped) {
      let text = "";
      map = [];
      for (let at = p + 1;at < close; at++) {
        const next = s.charCodeAt(at + 1);
        if (s.charCodeAt(at) === BS && (next === BS || next === BT || next === DOLLAR))
          at++;
        text += s[at];
        map.push(at);
      }
      map.push(close);
      inner = text;
    }
    const sub = scan(inner, this.via, list.dir, this.depth + 1);
    if (!sub.complete)
      this.complete = false;
    const shift = p + 1;
    for (const command of sub.commands) {
      relocate(command, map ? (offset) => map[offset] : (offset) => offset + shift);
      if (this.commands.length > 0 && this.commands[this.commands.length - 1].span.start > command.span.start)
        this.unsorted = true;
      this.commands.push(command);
    }
    return close + 1;
  }
  stepParam(f) {
    const s = this.source;
    const n = s.length;
    let p = this.pos;
    while (p < n) {
      const c = s.charCodeAt(p);
      if (c === BS)
        p += 2;
      else if (c === SQ && !f.doubleQuoted && !f.inDoubleQuotes) {
        const close = s.indexOf("'", p + 1);
        p = close === -1 ? n : close + 1;
      } else if (c === DQ) {
        f.doubleQuoted = !f.doubleQuoted;
        p++;
      } else if (c === DOLLAR) {
        const after = this.dollar(f.list, p, f.doubleQuoted || f.inDoubleQuotes);
        if (after === PUSHED)
          return;
        p = after === LITERAL ? p + 1 : after;
      } else if (c === BT)
        p = this.backtick(f.list, p);
      else if (c === LC && !f.doubleQuoted) {
        f.depth++;
        p++;
      } else if (c === RC && !f.doubleQuoted && --f.depth === 0) {
        this.pos = p + 1;
        this.stack.pop();
        return;
      } else
        p++;
    }
    this.complete = false;
    this.pos = n;
    this.stack.pop();
  }
  stepArith(f) {
    const s = this.source;
    const n = s.length;
    let p = this.pos;
    while (p < n) {
      const c = s.charCodeAt(p);
      if (c === LP) {
        f.depth++;
        p++;
      } else if (c === RP) {
        if (f.depth === 0) {
          this.stack.pop();
          if (s.charCodeAt(p + 1) === RP)
            this.pos = p + 2;
          else
            this.notArithmetic(f);
          return;
        }
        f.depth--;
        p++;
      } else if (c === DOLLAR) {
        const after = this.dollar(f.list, p, false);
        if (after === PUSHED)
          return;
        p = after === LITERAL ? p + 1 : after;
      } else if (c === BT)
        p = this.backtick(f.list, p);
      else if (c === BS)
        p += 2;
      else if (c === SQ || c === DQ)
        p = skipQuoted(s, p);
      else
        p++;
    }
    this.complete = false;
    this.pos = n;
    this.stack.pop();
  }
  notArithmetic(f) {
    this.arithRetries++;
    this.commands.length = f.commandsBefore;
    if (f.form === ARITH_FOR) {
      this.complete = false;
      this.pos = f.open + 2;
    } else if (f.form === ARITH_COMMAND) {
      this.pushConstruct(f.list, C_SUBSHELL);
      this.pos = f.open + 1;
    } else
      this.pushList(f.list, f.open + 2);
  }
  stepHere(f) {
    const s = this.source;
    let p = this.pos;
    while (p < f.end) {
      const c = s.charCodeAt(p);
      if (c === BS)
        p += 2;
      else if (c === DOLLAR) {
        const after = this.dollar(f.list, p, true);
        if (after === PUSHED)
          return;
        p = after === LITERAL ? p + 1 : after;
      } else if (c === BT)
        p = this.backtick(f.list, p);
      else
        p++;
    }
    this.pos = f.resume;
    this.stack.pop();
    this.heredocOwner = f.list;
  }
  readHeredocs(f) {
    const s = this.source;
    const n = s.length;
    while (this.heredocs.length > 0) {
      const heredoc = this.heredocs.shift();
      const start = this.pos;
      let end = n;
      let resume = n;
      for (let line = start;line < n; ) {
        let text = line;
        if (heredoc.strip)
          while (s.charCodeAt(text) === TAB)
            text++;
        let lineEnd = s.indexOf(`
`, line);
        if (lineEnd === -1)
          lineEnd = n;
        if (lineEnd - text === heredoc.delimiter.length && s.startsWith(heredoc.delimiter, text)) {
          end = line;
          resume = Math.min(lineEnd + 1, n);
          break;
        }
        line = lineEnd + 1;
      }
      if (end === n)
        this.complete = false;
      heredoc.redirect.body = { start, end };
      this.pos = resume;
      if (!heredoc.quoted && hasExpansion(s, start, end)) {
        this.pos = start;
        this.stack.push({ kind: HERE, list: f, end, resume });
        return true;
      }
    }
    return false;
  }
}
var PUSHED = -1;
var LITERAL = -2;
function newList(closes, dir) {
  return {
    kind: LIST,
    closes,
    state: S_CMD,
    cmd: null,
    lastEnd: 0,
    redirect: null,
    heredoc: 0,
    constructs: [],
    dir,
    pipeDir: dir,
    andOrDir: dir,
    piped: false,
    conditional: false,
    expectsCommand: false,
    doubt: false,
    dirStack: null
  };
}
function newWord(list, start) {
  return {
    kind: WORD,
    list,
    start,
    run: start,
    text: "",
    doubleQuoted: false,
    firstQuote: Number.MAX_SAFE_INTEGER,
    dynamic: false,
    paren: 0,
    bracket: false,
    brace: 0
  };
}
function top(f) {
  return f.constructs[f.constructs.length - 1];
}
function endPipeline(f) {
  if (f.piped) {
    f.dir = f.pipeDir;
    f.piped = false;
  }
  f.pipeDir = f.dir;
}
function endAndOr(f) {
  endPipeline(f);
  if (f.doubt)
    f.dir = undefined;
  f.doubt = false;
  f.conditional = false;
  f.pipeDir = f.dir;
  f.andOrDir = f.dir;
}
function changeDirectory(f, name, args) {
  let index = 0;
  while (index < args.length && /^-[LPe@]+$/.test(args[index].text))
    index++;
  if (args[index]?.text === "--")
    index++;
  const target = args[index];
  if (name === "popd") {
    f.dir = target === undefined && f.dirStack !== null && f.dirStack.length > 0 ? f.dirStack.pop() : undefined;
    return;
  }
  const before = f.dir;
  if (target === undefined)
    f.dir = name === "cd" ? "~" : undefined;
  else if (/^~(\/[^$`*?[{\\'"]*)?$/.test(target.text) || !target.dynamic) {
    const path = target.text;
    const rooted = path.startsWith("/") || path.startsWith("~");
    f.dir = path === "-" || /^[+-]\d+$/.test(path) || path === "" ? undefined : before === undefined && !rooted ? undefined : changeDir(before ?? ".", path);
  } else
    f.dir = undefined;
  if (name === "pushd") {
    f.dirStack ??= [];
    f.dirStack.push(before);
  }
}
function relocate(command, at) {
  const move = (span) => {
    const empty = span.end <= span.start;
    const start = at(span.start);
    span.end = empty ? start : at(span.end - 1) + 1;
    span.start = start;
  };
  move(command.span);
  for (const word of command.words)
    move(word);
  for (const word of command.assignments)
    move(word);
  for (const redirect of command.redirects) {
    if (redirect.target)
      move(redirect.target);
    if (redirect.body)
      move(redirect.body);
  }
}
function isAssignment(word, w) {
  if (w.firstQuote === w.start || !isNameStart(word.text.charCodeAt(0)))
    return false;
  const match = ASSIGNMENT.exec(word.text);
  return match !== null && w.start + match[0].length - 1 < w.firstQuote;
}
function plain(w) {
  return !w.dynamic && w.firstQuote === Number.MAX_SAFE_INTEGER;
}
function isNameStart(c) {
  return c >= 65 && c <= 90 || c >= 97 && c <= 122 || c === 95;
}
function isNameChar(c) {
  return isNameStart(c) || c >= 48 && c <= 57;
}
function isExtglobOpener(c) {
  return c === QM || c === STAR || c === 43 || c === AT || c === BANG;
}
function skipBlanks(s, p) {
  while (s.charCodeAt(p) === SP || s.charCodeAt(p) === TAB)
    p++;
  return p;
}
function operatorEnd(s, p) {
  const c = s.charCodeAt(p);
  const next = s.charCodeAt(p + 1);
  if (c === LT) {
    if (next === LT) {
      const third = s.charCodeAt(p + 2);
      return third === LT || third === 45 ? p + 3 : p + 2;
    }
    return next === AMP || next === GT ? p + 2 : p + 1;
  }
  return next === GT || next === AMP || next === PIPE ? p + 2 : p + 1;
}
function skipQuoted(s, p) {
  const quote = s.charCodeAt(p);
  let at = p + 1;
  while (at < s.length && s.charCodeAt(at) !== quote)
    at += quote === DQ && s.charCodeAt(at) === BS ? 2 : 1;
  return at + 1;
}
function hasExpansion(s, start, end) {
  for (let p = start;p < end; p++) {
    const c = s.charCodeAt(p);
    if (c === DOLLAR || c === BT)
      return true;
  }
  return false;
}

// lib/shell-wrappers.ts
var WRAPPERS = {
  command: { noRunFlags: ["-v", "-V"] },
  builtin: {},
  exec: { valueFlags: ["-a"] },
  env: {
    assignments: true,
    valueFlags: ["-u", "--unset", "-C", "--chdir", "-S", "--split-string"],
    payloadFlags: ["-S", "--split-string"],
    dirFlags: ["-C", "--chdir"]
  },
  sudo: {
    valueFlags: [
      "-u",
      "--user",
      "-g",
      "--group",
      "-h",
      "--host",
      "-p",
      "--prompt",
      "-C",
      "--close-from",
      "-D",
      "--chdir",
      "-r",
      "--role",
      "-t",
      "--type",
      "-U",
      "--other-user",
      "-T",
      "--command-timeout",
      "-R",
      "--chroot"
    ],
    noRunFlags: ["-l", "--list", "-v", "--validate", "-V", "--version", "-e", "--edit", "-K", "--remove-timestamp"],
    dirFlags: ["-D", "--chdir"]
  },
  doas: { valueFlags: ["-u", "-a", "-C"], noRunFlags: ["-C", "-L"] },
  nohup: {},
  nice: { valueFlags: ["-n", "--adjustment"] },
  time: { valueFlags: ["-f", "--format", "-o", "--output"] },
  timeout: { valueFlags: ["-s", "--signal", "-k", "--kill-after"], operands: 1 },
  stdbuf: { valueFlags: ["-i", "--input", "-o", "--output", "-e", "--error"] },
  setsid: {},
  ionice: { valueFlags: ["-c", "--class", "-n", "--classdata"], noRunFlags: ["-p", "--pid", "-P", "--pgid", "-u", "--uid"] }
};
var ASSIGNMENT2 = /^[A-Za-z_][A-Za-z0-9_]*=/;
function unwrap(words, from, wrappers) {
  const found = { program: from };
  let at = from;
  while (at < words.length) {
    const word = words[at];
    const name = basename(word.text);
    const spec = !word.dynamic && Object.hasOwn(wrappers, name) ? wrappers[name] : undefined;
    if (spec === undefined)
      break;
    const next = afterOptions(words, at + 1, spec, found);
    if (next < 0 || next >= words.length)
      break;
    at = next;
  }
  found.program = Math.min(at, Math.max(words.length - 1, 0));
  return found;
}
function afterOptions(words, at, spec, found) {
  const valueFlags = spec.valueFlags ?? [];
  const noRun = spec.noRunFlags ?? [];
  const take = (flag, value) => {
    if (found === undefined || value === undefined)
      return;
    if (spec.payloadFlags?.includes(flag))
      found.payload = value;
    if (spec.dirFlags?.includes(flag))
      found.dir = value.dynamic ? null : value;
  };
  while (at < words.length) {
    const word = words[at];
    const text = word.text;
    if (spec.assignments && ASSIGNMENT2.test(text)) {
      at++;
      continue;
    }
    if (text === "--") {
      at++;
      break;
    }
    if (text.length < 2 || text[0] !== "-" || word.dynamic)
      break;
    if (text[1] === "-") {
      const equals = text.indexOf("=");
      const flag = equals === -1 ? text : text.slice(0, equals);
      if (noRun.includes(flag))
        return -1;
      if (valueFlags.includes(flag)) {
        if (equals === -1) {
          take(flag, words[at + 1]);
          at++;
        } else
          take(flag, part(word, equals + 1));
      }
      at++;
      continue;
    }
    for (let index = 1;index < text.length; index++) {
      const flag = `-${text[index]}`;
      if (noRun.includes(flag))
        return -1;
      if (valueFlags.includes(flag)) {
        if (index + 1 < text.length)
          take(flag, part(word, index + 1));
        else {
          take(flag, words[at + 1]);
          at++;
        }
        break;
      }
    }
    at++;
  }
  return at + (spec.operands ?? 0);
}
function part(word, offset) {
  return { text: word.text.slice(offset), start: Math.min(word.start + offset, word.end), end: word.end, dynamic: word.dynamic };
}

// lib/shell-parse.ts
var NOT_WRAPPED = Object.freeze({ program: 0 });
var SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh"]);
var XARGS = {
  valueFlags: [
    "-I",
    "-L",
    "-n",
    "-P",
    "-s",
    "-d",
    "-E",
    "-a",
    "--arg-file",
    "--delimiter",
    "--max-lines",
    "--max-args",
    "--max-procs",
    "--max-chars",
    "--process-slot-var"
  ]
};
var FIND_ACTIONS = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
function parseShell(source, options) {
  try {
    return expand(source, options?.wrappers ?? WRAPPERS);
  } catch {
    return { commands: [], complete: false };
  }
}
function expand(source, wrappers) {
  const scanned = scan(source, "source", ".", 0);
  const commands = scanned.commands;
  let complete = scanned.complete;
  const depths = [];
  let unsorted = false;
  const add = (command, depth) => {
    if (depth > MAX_DEPTH) {
      complete = false;
      return;
    }
    if (commands[commands.length - 1].span.start > command.span.start)
      unsorted = true;
    commands.push(command);
    depths[commands.length - 1] = depth;
  };
  let budget = 4 * source.length + 4096;
  const payload = (words, via, dir, depth) => {
    budget -= words[words.length - 1].end - words[0].start;
    if (budget < 0) {
      complete = false;
      return;
    }
    const parsed = parsePayload(source, words, via, dir, depth);
    if (!parsed.complete)
      complete = false;
    for (const command of parsed.commands)
      add(command, depth);
  };
  for (let index = 0;index < commands.length; index++) {
    const command = commands[index];
    const words = command.words;
    if (words.length === 0)
      continue;
    const depth = (depths[index] ?? 0) + 1;
    const first = words[0];
    const wrapped = !first.dynamic && Object.hasOwn(wrappers, basename(first.text));
    const found = wrapped ? unwrap(words, 0, wrappers) : NOT_WRAPPED;
    const program = words[found.program];
    if (found.program > 0)
      command.wrappers = words.slice(0, found.program);
    command.program = program;
    command.programName = program.dynamic ? program.text : basename(program.text);
    command.args = words.length > found.program + 1 ? words.slice(found.program + 1) : NO_WORDS;
    if (found.dir !== undefined)
      command.dir = found.dir === null ? undefined : joinDir(command.dir, found.dir.text);
    if (found.payload)
      payload([found.payload], "eval", command.dir, depth);
    if (program.dynamic)
      continue;
    const name = command.programName;
    if (SHELLS.has(name)) {
      const run = shellInput(command.args);
      if (run === "stdin") {
        for (const redirect of command.redirects) {
          if (redirect.op.endsWith("<<<") && redirect.target)
            payload([redirect.target], "stdin", command.dir, depth);
          else if (redirect.body && redirect.target) {
            const body = redirect.body;
            const quoted = redirect.target.text !== source.slice(redirect.target.start, redirect.target.end);
            const text = source.slice(body.start, body.end);
            const parsed = scan(text, "stdin", command.dir, depth);
            if (!parsed.complete || !quoted && /[$`]/.test(text))
              complete = false;
            for (const inner of parsed.commands) {
              relocate(inner, (offset) => offset + body.start);
              add(inner, depth);
            }
          }
        }
      } else if (run !== undefined)
        payload([run], "-c", command.dir, depth);
    } else if (name === "eval") {
      if (command.args.length > 0)
        payload(command.args, "eval", command.dir, depth);
    } else if (name === "xargs") {
      const start = afterOptions(words, found.program + 1, XARGS);
      if (start < words.length)
        add(derived(words.slice(start), "xargs", command.dir), depth);
    } else if (name === "find") {
      const args = command.args;
      for (let at = 0;at < args.length; at++) {
        if (!FIND_ACTIONS.has(args[at].text))
          continue;
        const first = at + 1;
        let end = first;
        while (end < args.length && args[end].text !== ";" && !(args[end].text === "+" && args[end - 1].text === "{}"))
          end++;
        if (end >= args.length)
          complete = false;
        if (end > first)
          add(derived(args.slice(first, end), "find", args[at].text.endsWith("dir") ? undefined : command.dir), depth);
        at = end;
      }
    }
  }
  if (unsorted)
    commands.sort((a, b) => a.span.start - b.span.start);
  return { commands, complete };
}
function shellInput(args) {
  let command = false;
  let stdin = false;
  let at = 0;
  while (at < args.length) {
    const word = args[at];
    const text = word.text;
    if (word.dynamic)
      break;
    if (text === "--" || text === "-") {
      at++;
      break;
    }
    if (/^[-+][A-Za-z]+$/.test(text)) {
      if (text[0] === "-" && text.includes("c"))
        command = true;
      if (text[0] === "-" && text.includes("s"))
        stdin = true;
      at += /[oO]$/.test(text) ? 2 : 1;
      continue;
    }
    if (text.startsWith("--")) {
      at += text === "--rcfile" || text === "--init-file" ? 2 : 1;
      continue;
    }
    break;
  }
  if (command)
    return args[at];
  return stdin || at >= args.length ? "stdin" : undefined;
}
function derived(words, via, dir) {
  const command = new ShellCommand(words[0].start, dir, via);
  command.words = words;
  command.span.end = words[words.length - 1].end;
  return command;
}
function parsePayload(source, words, via, dir, depth) {
  if (depth > MAX_DEPTH)
    return { commands: [], complete: false };
  const dynamic = words.some((word) => word.dynamic);
  let text = "";
  let at;
  if (dynamic) {
    text = words.map((word) => word.text).join(" ");
    const first = words[0].start;
    const last = words[words.length - 1].end;
    at = (offset) => Math.min(first + offset, Math.max(last - 1, first));
  } else {
    const map = [];
    for (const word of words) {
      if (map.length > 0)
        text += " ";
      const decoded = decodeMapped(source, word.start, word.end);
      text += decoded.text;
      map.push(...decoded.map);
    }
    at = (offset) => map[offset];
  }
  const parsed = scan(text, via, ".", depth);
  for (const command of parsed.commands) {
    relocate(command, at);
    command.dir = dir === undefined || command.dir === undefined ? undefined : changeDir(dir, command.dir);
  }
  return { commands: parsed.commands, complete: parsed.complete && !dynamic };
}
function joinDir(base, target) {
  if (target.startsWith("/") || target === "~" || target.startsWith("~/"))
    return changeDir(".", target);
  return base === undefined ? undefined : changeDir(base, target);
}

// lib/tool-input.ts
function isCommandTool(name) {
  return name === "bash" || name === "powershell";
}
function normalizeToolInput(name, rawInput, cwd) {
  const input = isRecord(rawInput) ? rawInput : {};
  const kind = name === "Edit" && typeof input.file_path === "string" ? "edit" : name;
  switch (kind) {
    case "bash": {
      const fields = input;
      const command = text(fields.command);
      let parsed;
      const parse = () => {
        parsed ??= parseShell(command);
        return parsed;
      };
      return {
        name: kind,
        input,
        detail: command,
        command,
        timeout: number(fields.timeout),
        get commands() {
          return parse().commands;
        },
        get commandsComplete() {
          return parse().complete;
        }
      };
    }
    case "powershell": {
      const fields = input;
      const command = text(fields.command);
      return { name: kind, input, detail: command, command, timeout: number(fields.timeout) };
    }
    case "read": {
      const fields = input;
      const path = text(fields.path);
      const offset = number(fields.offset);
      const limit = number(fields.limit);
      return { name: kind, input, ...pathFields(path, cwd), offset, limit, detail: readDetail(path, offset, limit) };
    }
    case "write": {
      const fields = input;
      const path = text(fields.path);
      const content = text(fields.content);
      return { name: kind, input, ...pathFields(path, cwd), content, detail: writeDetail(path, lineCount(content)) };
    }
    case "ls": {
      const fields = input;
      const path = text(fields.path) || ".";
      return { name: kind, input, ...pathFields(path, cwd), limit: number(fields.limit), detail: path };
    }
    case "edit":
      return editTool(input, cwd);
    case "grep":
    case "find": {
      const fields = input;
      const pattern = text(fields.pattern);
      const path = typeof fields.path === "string" ? fields.path : undefined;
      return { name: kind, input, pattern, path, detail: searchDetail(pattern, path) };
    }
    default:
      return { name, input, detail: stableJson(input) };
  }
}
function editTool(input, cwd) {
  const pi = input;
  const claude = input;
  const claudeShape = typeof claude.file_path === "string";
  const path = text(claudeShape ? claude.file_path : pi.path);
  const edits = claudeShape ? [{ oldText: text(claude.old_string), newText: text(claude.new_string) }] : (Array.isArray(pi.edits) ? pi.edits : []).filter(isRecord).map((edit) => {
    const replacement = edit;
    return { oldText: text(replacement.oldText), newText: text(replacement.newText) };
  });
  const replaceAll = claudeShape && claude.replace_all === true;
  return {
    name: "edit",
    input,
    ...pathFields(path, cwd),
    edits,
    replaceAll,
    detail: editDetail(path, edits.length, replaceAll)
  };
}
function lineCount(content) {
  if (content === "")
    return 0;
  let lines = 1;
  for (let at = content.indexOf(`
`);at !== -1 && at < content.length - 1; at = content.indexOf(`
`, at + 1))
    lines++;
  return lines;
}
function pathFields(path, cwd) {
  const absolutePath = resolvePath(path, cwd);
  const fromCwd = relative(cwd, absolutePath);
  const inside = fromCwd === "" || !fromCwd.startsWith(`..${sep}`) && fromCwd !== ".." && !isAbsolute(fromCwd);
  return { path, absolutePath, projectPath: inside ? fromCwd || "." : undefined };
}
var UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;
function resolvePath(path, cwd) {
  const spaced = path.replace(UNICODE_SPACES, " ");
  const bare = spaced.startsWith("@") ? spaced.slice(1) : spaced;
  if (bare === "~")
    return homedir();
  if (bare.startsWith("~/"))
    return resolve(homedir(), bare.slice(2));
  if (bare.startsWith("file://"))
    return fileUrlPath(bare) ?? resolve(cwd, bare);
  return resolve(cwd, bare);
}
function fileUrlPath(url) {
  try {
    return fileURLToPath(url);
  } catch {
    return;
  }
}
function stableJson(value) {
  return JSON.stringify(sortKeys(value), null, 2) ?? "";
}
function sortKeys(value, seen = new Set) {
  if (typeof value === "bigint")
    return value.toString();
  if (typeof value !== "object" || value === null)
    return value;
  if (seen.has(value))
    return CIRCULAR;
  seen.add(value);
  const sorted = Array.isArray(value) ? value.map((item) => sortKeys(item, seen)) : Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys(value[key], seen)]));
  seen.delete(value);
  return sorted;
}
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function text(value) {
  return typeof value === "string" ? value : "";
}
function number(value) {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

// lib/gatekeeper.ts
class Gatekeeper {
  enablement;
  show;
  loading = Promise.resolve({ hooks: [], errors: [], warnings: [] });
  notes = new NoteStore;
  promptQueue = Promise.resolve();
  openPrompts = new Set;
  stoppedBy;
  closed = false;
  constructor(enablement, show = showPrompt) {
    this.enablement = enablement;
    this.show = show;
  }
  load(ctx) {
    this.notes.discardAll();
    this.stoppedBy = undefined;
    this.closed = false;
    this.loading = permissionDirs(ctx).then(loadPermissionModules).then((result) => {
      for (const { file, error } of result.errors)
        report(ctx, notifyLoadError(file, error));
      for (const { file, error } of result.warnings)
        report(ctx, notifyLoadWarning(file, error), "warning");
      return result;
    });
    this.loading.then((result) => this.enablement.track(result.hooks.map((hook) => hook.name), ctx), () => {
      return;
    });
  }
  loaded() {
    return this.loading;
  }
  onTree() {
    this.notes.discardAll();
    this.stoppedBy = undefined;
  }
  onTurnEnd(ctx) {
    this.notes.discardAll();
    if (this.stoppedBy === undefined)
      return;
    this.stoppedBy = undefined;
    ctx.abort();
  }
  async onToolCall(event, ctx) {
    if (this.stoppedBy !== undefined)
      return this.stopped();
    const hooks = (await this.loading).hooks.filter((hook) => this.enablement.isEnabled(hook.name));
    if (hooks.length === 0)
      return;
    const tool = normalizeToolInput(event.toolName, event.input, ctx.cwd);
    const verdict = await evaluate(hooks, { cwd: ctx.cwd, tool });
    if (!verdict)
      return;
    const hookName = verdict.hook.name;
    if (verdict.kind === "block")
      return { block: true, reason: agentHookBlock(hookName, verdict.reason) };
    if (!ctx.hasUI || ctx.mode !== "tui")
      return { block: true, reason: noUiReason(verdict) };
    const outcome = await this.ask(ctx, promptRequest(verdict, event.toolName, tool.detail));
    if (outcome === "interrupted" || this.closed)
      return this.stopped(hookName);
    if (outcome === "switched off")
      return this.onToolCall(event, ctx);
    if (outcome === undefined)
      return { block: true, reason: noUiReason(verdict) };
    return this.apply(outcome, hookName, event, ctx);
  }
  stopped(hookName = this.stoppedBy ?? "") {
    return { block: true, reason: agentAbort(hookName) };
  }
  onToolResult(event) {
    const note = this.notes.consume(event.toolCallId);
    if (!note)
      return;
    return { content: prepend(agentNote(note), event.content) };
  }
  close() {
    this.closed = true;
    this.notes.discardAll();
    for (const prompt of this.openPrompts)
      prompt.cancel();
  }
  ask(ctx, request) {
    const show = async () => {
      if (this.stoppedBy !== undefined || this.closed)
        return "interrupted";
      if (!this.enablement.isEnabled(request.hookName))
        return "switched off";
      return this.show(ctx, request, (prompt, open) => {
        if (open)
          this.openPrompts.add(prompt);
        else
          this.openPrompts.delete(prompt);
      });
    };
    const answer = this.promptQueue.then(show, show);
    this.promptQueue = answer.catch(() => {
      return;
    });
    return answer;
  }
  apply(outcome, hookName, event, ctx) {
    const id = event.toolCallId;
    switch (outcome.kind) {
      case "authorize":
        if (outcome.note) {
          this.notes.remember(id, { kind: "authorize", hookName, note: outcome.note });
          ctx.ui.notify(notifyAuthorizedWithNote(hookName), "info");
        }
        if (outcome.dontAskAgain) {
          this.enablement.apply(new Map([[hookName, false]]), ctx);
          ctx.ui.notify(notifyDontAskAgain(hookName), "info");
        }
        return;
      case "edit": {
        const input = commandInput(event);
        if (!input)
          return { block: true, reason: agentInternalError(problems.notEditable(event.toolName)) };
        input.command = outcome.command;
        this.notes.remember(id, { kind: "edit", hookName, command: outcome.command, note: outcome.note });
        ctx.ui.notify(notifyEdited(hookName), "info");
        return;
      }
      case "abort":
        if (ctx.signal?.aborted)
          return this.stopped(hookName);
        ctx.ui.notify(notifyAborted(hookName, outcome.note !== undefined), "info");
        if (!outcome.note)
          this.stoppedBy = hookName;
        return { block: true, reason: agentAbort(hookName, outcome.note) };
      default:
        return { block: true, reason: agentInternalError(problems.outcomeNotUnderstood(describeValue(outcome))) };
    }
  }
}
function commandInput(event) {
  if (isToolCallEventType("bash", event))
    return event.input;
  if (isToolCallEventType("powershell", event) && typeof event.input.command === "string") {
    return event.input;
  }
  return;
}
function promptRequest(verdict, toolName, detail) {
  const prompt = verdict.kind === "request" ? verdict.prompt : {};
  const guidance = verdict.kind === "failed" ? hookFailureGuidance(verdict.error) : text2(prompt.guidance);
  return {
    hookName: verdict.hook.name,
    description: verdict.hook.description,
    guidance,
    toolName,
    detail,
    highlights: highlightSpans(detail, prompt.highlight),
    labels: {
      authorize: label(prompt.authorizeLabel ?? prompt.approveLabel, DEFAULT_LABELS.authorize),
      edit: label(prompt.editLabel, DEFAULT_LABELS.edit),
      abort: label(prompt.abortLabel ?? prompt.rejectLabel, DEFAULT_LABELS.abort),
      dontAsk: label(prompt.dontAskLabel, DEFAULT_LABELS.dontAsk)
    },
    editable: isCommandTool(toolName)
  };
}
function noUiReason(verdict) {
  return verdict.kind === "failed" ? agentHookFailure(verdict.hook.name, verdict.error) : agentNoUi(verdict.hook.name);
}
function prepend(note, content) {
  const [first, ...rest] = content;
  if (first?.type === "text")
    return [{ ...first, text: withNote(note, first.text) }, ...rest];
  return [{ type: "text", text: note }, ...content];
}
function text2(value) {
  return typeof value === "string" ? value : undefined;
}
function label(value, fallback) {
  return typeof value === "string" && value.trim() !== "" ? value : fallback;
}
async function permissionDirs(ctx) {
  const user = join4(getAgentDir(), "permissions");
  const project = join4(ctx.cwd, CONFIG_DIR_NAME, "permissions");
  if (moduleFiles(project).length === 0)
    return { user };
  if (await projectModulesTrusted(ctx, project))
    return { project, user };
  report(ctx, notifyProjectModulesSkipped(project), "warning");
  return { user };
}

// lib/permissions.ts
import { homedir as homedir2 } from "node:os";

// lib/permissions-command.ts
var SUBCOMMANDS = ["enable", "disable"];
function parsePermissionsCommand(args) {
  const { word, rest } = split(args);
  if (word === "")
    return { kind: "list" };
  const subcommand = asSubcommand(word);
  if (!subcommand)
    return { kind: "usage" };
  const name = rest.trim();
  return name === "" ? { kind: "switch", enabled: subcommand === "enable" } : { kind: "switch", enabled: subcommand === "enable", name };
}
function resolveHookName(typed, names) {
  if (names.includes(typed))
    return typed;
  const folded = names.filter((name) => name.toLowerCase() === typed.toLowerCase());
  return new Set(folded).size === 1 ? folded[0] : undefined;
}
function completePermissionsArgs(prefix, hooks) {
  const { word, space, rest } = split(prefix);
  const subcommand = asSubcommand(word);
  const items = !space ? subcommandItems(word) : subcommand ? hookItems(subcommand, rest, hooks) : [];
  if (items.length === 0 || items.some((item) => item.value === prefix.trim()))
    return null;
  return items;
}
function subcommandItems(typed) {
  return fuzzyFilter([...SUBCOMMANDS], typed, (subcommand) => subcommand).map((subcommand) => ({
    value: subcommand,
    label: subcommand,
    description: SUBCOMMAND_DESCRIPTIONS[subcommand]
  }));
}
function hookItems(subcommand, typed, hooks) {
  const switchable = hooks.filter((hook) => hook.enabled !== (subcommand === "enable"));
  const unique = switchable.filter((hook, index) => switchable.findIndex((other) => other.name === hook.name) === index);
  return fuzzyFilter(unique, typed, (hook) => hook.name).map((hook) => ({
    value: `${subcommand} ${hook.name}`,
    label: toVisible(hook.name),
    ...hook.description ? { description: toVisible(hook.description) } : {}
  }));
}
function split(args) {
  const [, word = "", space = "", rest = ""] = /^\s*(\S*)(\s*)([\s\S]*)$/.exec(args) ?? [];
  return { word, space: space !== "", rest };
}
function asSubcommand(word) {
  return SUBCOMMANDS.find((subcommand) => subcommand === word.toLowerCase());
}

// lib/permissions-overlay.ts
class PermissionsList {
  hooks;
  failures;
  env;
  selected = 0;
  scroll = 0;
  enabled;
  finished = false;
  border;
  constructor(hooks, failures, isEnabled, env) {
    this.hooks = hooks;
    this.failures = failures;
    this.env = env;
    this.enabled = hooks.map((hook) => isEnabled(hook.name));
    this.border = new Frame(env.paint);
  }
  handleInput(data) {
    if (this.finished)
      return;
    const { keys } = this.env;
    if (keys.matches(data, KEY.cancel))
      return this.finish(undefined);
    if (keys.matches(data, KEY.confirm))
      return this.finish(this.switches());
    if (keys.matches(data, KEY.up) || matchesKey(data, "k"))
      this.move(-1);
    else if (keys.matches(data, KEY.down) || matchesKey(data, "j"))
      this.move(1);
    else if (matchesKey(data, "space"))
      this.toggle(this.selected);
    else if (matchesKey(data, "g"))
      this.toggleAll();
    else
      return;
    this.env.tui.requestRender();
  }
  render(width) {
    const inner = Math.max(1, width - 4);
    const { paint } = this.env;
    const on = this.enabled.filter(Boolean).length;
    const title = paint.fg("accent", paint.bold(PERMISSIONS_TITLE));
    const header = [this.hooks.length > 0 ? `${title}  ${paint.fg("dim", enabledCount(on, this.hooks.length))}` : title, ""];
    const footer = ["", ...renderHintRows(permissionsHints(keyNames(this.env.keys)), inner, paint)];
    const { lines, focus } = this.listLines(inner);
    const room = this.rows() - 2 - header.length - footer.length;
    return this.border.draw([...header, ...this.window(lines, room, focus), ...footer], width);
  }
  invalidate() {}
  move(step) {
    const count = this.hooks.length;
    if (count > 0)
      this.selected = (this.selected + step + count) % count;
  }
  toggle(index) {
    const hook = this.hooks[index];
    if (!hook)
      return;
    const on = !this.enabled[index];
    this.hooks.forEach((other, at) => {
      if (other.name === hook.name)
        this.enabled[at] = on;
    });
  }
  toggleAll() {
    this.enabled.fill(!this.enabled.some(Boolean));
  }
  switches() {
    return new Map(this.hooks.map((hook, index) => [hook.name, this.enabled[index] ?? true]));
  }
  listLines(inner) {
    const { paint, home } = this.env;
    const lines = [];
    let focus = { start: 0, end: 0 };
    if (this.hooks.length === 0)
      lines.push(NO_HOOKS);
    this.hooks.forEach((hook, index) => {
      const start = lines.length;
      const selected = index === this.selected;
      const row = toVisible(hookRow(hook.name, this.enabled[index] ?? true, selected));
      const scope = paint.fg("dim", `  ${hook.scope}`);
      lines.push(...wrap(`${selected ? paint.fg("accent", row) : row}${scope}`, inner));
      const detail = inner - HOOK_DETAIL_INDENT.length;
      if (hook.description && hook.description.trim() !== "") {
        for (const line of wrap(toVisible(hook.description), detail))
          lines.push(HOOK_DETAIL_INDENT + line);
      }
      lines.push(HOOK_DETAIL_INDENT + paint.fg("dim", toVisible(displayPath(hook.source, home))));
      if (selected)
        focus = { start, end: lines.length };
    });
    if (this.failures.length > 0) {
      lines.push("", paint.fg("error", FAILED_HEADING));
      for (const { file, error } of this.failures) {
        lines.push(paint.fg("error", toVisible(failureRow(displayPath(file, home)))));
        const detail = inner - FAILURE_DETAIL_INDENT.length;
        for (const line of wrap(toVisible(error), detail))
          lines.push(FAILURE_DETAIL_INDENT + paint.fg("dim", line));
      }
    }
    if (this.hooks.length === 0 || this.selected === this.hooks.length - 1)
      focus.end = lines.length;
    return { lines, focus };
  }
  window(lines, room, focus) {
    const rows = Math.max(3, room);
    if (lines.length <= rows)
      return lines;
    const visible = rows - 2;
    if (focus.end - this.scroll > visible)
      this.scroll = focus.end - visible;
    if (focus.start < this.scroll)
      this.scroll = focus.start;
    this.scroll = Math.max(0, Math.min(this.scroll, lines.length - visible));
    const above = this.scroll;
    const below = lines.length - above - visible;
    const { paint } = this.env;
    return [
      paint.fg("dim", above > 0 ? scrollMarker("up", above) : ""),
      ...lines.slice(above, above + visible),
      paint.fg("dim", below > 0 ? scrollMarker("down", below) : "")
    ];
  }
  rows() {
    return this.env.tui.terminal?.rows ?? 24;
  }
  finish(switches) {
    this.finished = true;
    this.env.done(switches);
  }
}

// lib/toggle-all-key.ts
import { readFileSync as readFileSync3 } from "node:fs";
import { join as join5 } from "node:path";
var TOGGLE_ALL = "permissionHooks.toggleAll";
var DEFAULT_KEY = "alt+p";
function toggleAllKeys(agentDir) {
  let config;
  try {
    config = JSON.parse(readFileSync3(join5(agentDir, "keybindings.json"), "utf8").replace(/^\uFEFF/, ""));
  } catch {
    return [DEFAULT_KEY];
  }
  const keys = config?.[TOGGLE_ALL];
  if (typeof keys === "string")
    return keys.trim() === "" ? [] : [keys];
  if (Array.isArray(keys) && keys.every((key) => typeof key === "string"))
    return [...new Set(keys)].filter((key) => key.trim() !== "");
  return [DEFAULT_KEY];
}

// lib/permissions.ts
var OVERLAY2 = { anchor: "center", width: "80%", minWidth: 40, maxHeight: "100%" };
function registerPermissionControls(pi, gatekeeper, enablement) {
  pi.registerCommand("permissions", {
    description: PERMISSIONS_DESCRIPTION,
    getArgumentCompletions: async (prefix) => {
      try {
        const { hooks } = await gatekeeper.loaded();
        const candidates = hooks.map(({ name, description }) => ({ name, description, enabled: enablement.isEnabled(name) }));
        return completePermissionsArgs(prefix, candidates);
      } catch {
        return null;
      }
    },
    handler: async (args, ctx) => {
      await guard(ctx, DURING.command, async () => run(parsePermissionsCommand(args), await gatekeeper.loaded(), ctx));
    }
  });
  for (const key of toggleAllKeys(getAgentDir())) {
    pi.registerShortcut(key, {
      description: TOGGLE_ALL_DESCRIPTION,
      handler: async (ctx) => {
        await guard(ctx, DURING.toggleAll, async () => {
          if ((await gatekeeper.loaded()).hooks.length === 0)
            return ctx.ui.notify(NO_HOOKS, "warning");
          ctx.ui.notify(notifyAllSwitched(enablement.toggleAll(ctx), key), "info");
        });
      }
    });
  }
  async function run(command, { hooks, errors }, ctx) {
    if (command.kind === "usage")
      return ctx.ui.notify(PERMISSIONS_USAGE, "warning");
    if (command.kind === "list")
      return list(hooks, errors, ctx);
    const names = [...new Set(hooks.map((hook) => hook.name))];
    if (names.length === 0)
      return ctx.ui.notify(NO_HOOKS, "warning");
    if (command.name === undefined) {
      enablement.apply(new Map(names.map((name) => [name, command.enabled])), ctx);
      return ctx.ui.notify(notifyAllSwitched(command.enabled, "/permissions enable"), "info");
    }
    const name = resolveHookName(command.name, names);
    if (name === undefined)
      return ctx.ui.notify(notifyUnknownHook(command.name, names), "error");
    enablement.apply(new Map([[name, command.enabled]]), ctx);
    ctx.ui.notify(notifyHookSwitched(name, command.enabled), "info");
  }
  async function list(hooks, errors, ctx) {
    if (!ctx.hasUI || ctx.mode !== "tui") {
      const rows = hooks.map(({ name, scope, source }) => ({ name, scope, source, enabled: enablement.isEnabled(name) }));
      return ctx.ui.notify(permissionsSummary(rows, errors), "info");
    }
    const switches = await ctx.ui.custom((tui, theme, keybindings, done) => new PermissionsList(hooks, errors, (name) => enablement.isEnabled(name), {
      tui,
      paint: paintOf(theme),
      keys: keybindings,
      home: homedir2(),
      done
    }), { overlay: true, overlayOptions: OVERLAY2 });
    if (switches)
      enablement.apply(switches, ctx);
  }
}

// index.ts
async function permissionHooks(pi) {
  const unavailable = await loadPi();
  if (unavailable !== undefined)
    return blockEverything(pi, unavailable);
  const enablement = new Enablement(pi);
  const gatekeeper = new Gatekeeper(enablement);
  registerPermissionControls(pi, gatekeeper, enablement);
  pi.on("session_start", (_event, ctx) => guard(ctx, DURING.load, () => {
    enablement.restore(ctx);
    gatekeeper.load(ctx);
  }));
  pi.on("session_tree", (_event, ctx) => guard(ctx, DURING.tree, () => {
    gatekeeper.onTree();
    enablement.restore(ctx);
  }));
  pi.on("session_shutdown", (_event, ctx) => guard(ctx, DURING.shutdown, () => gatekeeper.close()));
  pi.on("turn_end", (_event, ctx) => guard(ctx, DURING.turnEnd, () => gatekeeper.onTurnEnd(ctx)));
  pi.on("tool_result", (event, ctx) => guard(ctx, DURING.note, () => gatekeeper.onToolResult(event)));
  pi.on("tool_call", async (event, ctx) => {
    try {
      return await gatekeeper.onToolCall(event, ctx);
    } catch (error) {
      const message = describeError(error);
      report(ctx, notifyInternalError(DURING.toolCall, message));
      return { block: true, reason: agentInternalError(message) };
    }
  });
}
function blockEverything(pi, error) {
  pi.on("session_start", (_event, ctx) => report(ctx, notifyPiUnavailable(error)));
  pi.on("tool_call", () => ({ block: true, reason: agentInternalError(error) }));
}
export {
  permissionHooks as default
};
