import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type {
  AuthorRequestPrompt,
  BashTool,
  CommandRule,
  Hook,
  HighlightSpan,
  PermissionHighlight,
  PermissionRequestPrompt,
  PermissionsAPI,
  ShellWord,
} from "./api.ts";
import { describeError, withTimeLimit } from "./failure.ts";
import { highlightSpans } from "./highlight.ts";
import { problems } from "./presenter.ts";

export type Scope = "project" | "user";

export interface LoadedHook extends Hook {
  scope: Scope;
  /** The module file that registered the hook. */
  source: string;
  /** The permissions directory the module was loaded from. */
  permissionRoot: string;
}

export interface LoadError {
  file: string;
  error: string;
}

export interface LoadResult {
  hooks: LoadedHook[];
  /** Modules that did not load. */
  errors: LoadError[];
  /** Modules that loaded, with something the Author should know. */
  warnings: LoadError[];
}

export interface PermissionDirs {
  project?: string;
  user: string;
}

const MODULE_FILE = /\.(ts|js|mjs)$/;
/** A module that neither loads nor fails (an import that never settles) must not hold up every call. */
export const LOAD_TIME_LIMIT_MS = 10_000;

/** Loads every permission module: project modules first, then user modules, each in name order. */
export async function loadPermissionModules(dirs: PermissionDirs): Promise<LoadResult> {
  const result: LoadResult = { hooks: [], errors: [], warnings: [] };
  // A clock, not a counter: pi's /reload evaluates this extension afresh, which would restart a counter.
  const generation = process.hrtime.bigint();
  const roots: [Scope, string | undefined][] = [
    ["project", dirs.project],
    ["user", dirs.user],
  ];
  for (const [scope, root] of roots) {
    if (!root) continue;
    for (const file of moduleFiles(root)) await loadModule(file, scope, root, generation, result);
  }
  return result;
}

export function createPermissionsAPI(register: (hook: Hook) => void): PermissionsAPI {
  return {
    onToolUse: register as PermissionsAPI["onToolUse"],
    request: (prompt) => ({ decision: "request", prompt: prompt && withSpans(prompt) }),
    block: (reason) => ({ decision: "block", reason }),
    highlightSpans,
    isTool: (name, tool): tool is never => tool.name === name,
    matchCommand: (rule) => register(commandHook(rule)),
  };
}

/** The hook `api.matchCommand` registers. */
function commandHook(rule: CommandRule): Hook {
  const programs = typeof rule.program === "string" ? [rule.program] : rule.program;
  const options = { valueFlags: rule.valueFlags };
  return {
    name: rule.name,
    description: rule.description,
    tools: ["bash"],
    handler({ tool }) {
      const words: ShellWord[] = [];
      for (const command of (tool as BashTool).commands) {
        if (!programs.includes(command.programName)) continue;
        const subcommand = command.subcommand(options);
        if (rule.subcommands && !(subcommand && rule.subcommands.includes(subcommand.text))) continue;
        if (rule.when && !rule.when(command)) continue;
        words.push(command.program as ShellWord, ...(rule.subcommands && subcommand ? [subcommand] : []));
      }
      if (words.length === 0) return undefined;
      if (rule.block !== undefined) return { decision: "block", reason: rule.block };
      return { decision: "request", prompt: withSpans({ ...rule.prompt, highlight: rule.prompt?.highlight ?? words }) };
    },
  };
}

/** Commands and words from `tool.commands` in a highlight become the spans they cover. */
function withSpans(prompt: AuthorRequestPrompt): PermissionRequestPrompt {
  const { highlight } = prompt;
  const items = Array.isArray(highlight) ? highlight : [highlight];
  if (!items.some(isShellPart)) return prompt as PermissionRequestPrompt;
  const spans: HighlightSpan[] = [];
  const patterns: (string | RegExp)[] = [];
  for (const item of items) {
    if (isShellPart(item)) spans.push("span" in item ? item.span : { start: item.start, end: item.end });
    else if (typeof item === "string" || item instanceof RegExp) patterns.push(item);
  }
  const resolved: PermissionHighlight = (detail) => [...spans, ...highlightSpans(detail, patterns)];
  return { ...prompt, highlight: resolved };
}

function isShellPart(item: unknown): item is { start: number; end: number } | { span: HighlightSpan } {
  if (typeof item !== "object" || item === null || item instanceof RegExp) return false;
  const span = "span" in item ? (item as { span: unknown }).span : item;
  return typeof (span as HighlightSpan)?.start === "number" && typeof (span as HighlightSpan)?.end === "number";
}

/** The module files a permissions directory holds, in load order. */
export function moduleFiles(root: string): string[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  return names
    .filter((name) => MODULE_FILE.test(name) && !name.endsWith(".d.ts"))
    .sort()
    .map((name) => join(root, name))
    .filter((file) => isFile(file));
}

async function loadModule(file: string, scope: Scope, root: string, generation: bigint, result: LoadResult): Promise<void> {
  const hooks: LoadedHook[] = [];
  try {
    // The query defeats the module cache, so /reload picks up an edited module. Bun ignores the
    // query of a file: URL but honours it on a path; Node needs a URL for a Windows path.
    const specifier = process.versions.bun ? file : pathToFileURL(file).href;
    const timeLimit = problems.notLoadedWithin(LOAD_TIME_LIMIT_MS / 1000);
    const module = await withTimeLimit(import(`${specifier}?generation=${generation}`), LOAD_TIME_LIMIT_MS, timeLimit);
    const factory = module.default;
    if (typeof factory !== "function") throw new Error(problems.defaultExportNotFunction);
    let open = true;
    const api = createPermissionsAPI((hook) => {
      // Hooks belong to a load; one registered later (from a timer, say) would never be reported.
      if (open) hooks.push(checkedHook(hook, file, scope, root));
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

function checkedHook(hook: Hook, file: string, scope: Scope, root: string): LoadedHook {
  if (!hook || typeof hook !== "object") throw new Error(problems.hookNotObject);
  if (typeof hook.name !== "string" || hook.name.trim() === "") throw new Error(problems.hookWithoutName);
  if (typeof hook.handler !== "function") throw new Error(problems.hookWithoutHandler(hook.name));
  const description = typeof hook.description === "string" ? hook.description : undefined;
  // A `tools` that is not a list of names filters nothing: the hook sees every call.
  const tools = Array.isArray(hook.tools) && hook.tools.every((name) => typeof name === "string") ? [...hook.tools] : undefined;
  return {
    name: hook.name,
    description,
    ...(tools && { tools }),
    handler: hook.handler,
    scope,
    source: file,
    permissionRoot: root,
  };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
