import type {
  AuthorRequestPrompt,
  BashTool,
  BlockDecision,
  CommandRule,
  HighlightSpan,
  Hook,
  PermissionHighlight,
  PermissionRequestPrompt,
  PermissionsAPI,
  RequestDecision,
  ShellWord,
  WrapperSpec,
} from "./api.ts";
import { describeError, withTimeLimit } from "./failure.ts";
import { GRANTS_FILE, noteAskingRule, noteGrantedCall } from "./grants.ts";
import { highlightSpans } from "./highlight.ts";
import { importNatively, importsOnlyBuiltins } from "./native-import.ts";
import { basename, type Dirent, dirname, homedir, join, readdirSync, readFileSync } from "./node.ts";
import type { PackagePermissions } from "./packages.ts";
import { problems, ruleAskGuidance, ruleDenyReason, ruleFileDescription } from "./presenter.ts";
import { pathKind, realPath } from "./real-path.ts";
import { decide, failedExample, type PathResolver, parseRuleFile, type RuleFile, type RuleSet } from "./rules-file.ts";
import { WRAPPERS } from "./shell-wrappers.ts";
import { getOrAdd, isRecord, isString, isStringList } from "./values.ts";

/** A package's hooks are scoped by the package's source as pi's settings name it: `package:npm:deploy-tools`. */
export type Scope = "project" | "user" | `package:${string}`;

export interface LoadedHook extends Hook {
  scope: Scope;
  /** The module file that registered the hook. */
  source: string;
  /** The permissions directory the module was loaded from; a package's root for a package's. */
  permissionRoot: string;
  /** Set when a rule file is the hook. */
  rules?: RuleFile;
}

export interface LoadError {
  file: string;
  error: string;
  /** Set on a reload when the hooks from before go on gating in the place of what failed. */
  kept?: true;
}

export interface LoadResult {
  hooks: LoadedHook[];
  /** Modules that did not load. */
  errors: LoadError[];
  /** Modules that loaded, with something the Author should know. */
  warnings: LoadError[];
  /** The wrapper table with the entries modules added (`api.wrappers`); absent when none did. */
  wrappers?: Record<string, WrapperSpec>;
}

export interface PermissionDirs {
  project?: string;
  user: string;
  /** The packages' files, loaded after the project's and the user's. */
  packages?: readonly PackagePermissions[];
}

const MODULE_FILE = /\.(ts|js|mjs|json)$/;
/** The Author's type-check settings beside the modules (README, lib/scaffold.ts), not a rule file. */
export const TSCONFIG = "tsconfig.json";
/** A module that neither loads nor fails (an import that never settles) must not hold up every call. */
export const LOAD_TIME_LIMIT_MS = 10_000;

/** A load after a change (live reload), in the same extension instance as the load before it. */
export interface Reload {
  /** The hooks before the change: a file that fails to load keeps its own, in its place. */
  previous: readonly LoadedHook[];
  /** The wrapper table before the change: while a module fails to load, its entries may be among them. */
  wrappers?: Record<string, WrapperSpec>;
  /** Imports a module as its file is now, where an import would return what pi's loader cached (lib/host.ts). */
  importAfresh?: (file: string) => Promise<unknown>;
}

/**
 * Loads every permission module and rule file: project ones first, then user ones, each in name
 * order, then each package's in its order. Every rule file honours the grants `inForce` gives at
 * each call; without it, the grants of every rule file loaded with it.
 */
export async function loadPermissionModules(
  dirs: PermissionDirs,
  inForce?: () => readonly RuleSet[],
  reload?: Reload,
): Promise<LoadResult> {
  const result: LoadResult = { hooks: [], errors: [], warnings: [] };
  const fileGrants: RuleSet[] = [];
  const grants = inForce ?? (() => fileGrants);
  // A clock, not a counter: pi's /reload evaluates this extension afresh, which would restart a counter.
  const generation = process.hrtime.bigint();
  const folder = (scope: Scope, root: string): Source => ({ scope, root, files: moduleFiles(root) });
  const sources = dirs.project ? [folder("project", dirs.project)] : [];
  sources.push(folder("user", dirs.user));
  for (const { source, ...provided } of dirs.packages ?? []) sources.push({ scope: `package:${source}`, ...provided });
  // Every module's import starts before any factory runs: Bun imports twenty in about half the time
  // it takes one after another. The factories run in load order all the same.
  const imports = new Map<string, Promise<unknown>>();
  for (const { files } of sources)
    for (const file of files) if (!file.endsWith(".json")) imports.set(file, startImport(file, generation, reload?.importAfresh));
  for (const { scope, root, files, errors = [], manifestFailed } of sources) {
    const failures = result.errors.length;
    result.errors.push(...errors);
    if (manifestFailed) keepPrevious(result, failures, reload, (hook) => hook.scope === scope && hook.permissionRoot === root);
    for (const file of files) {
      try {
        if (file.endsWith(".json")) loadRuleFile(file, scope, root, result, fileGrants, grants);
        else await loadModule(file, scope, root, imports.get(file) as Promise<unknown>, result);
      } catch (error) {
        result.errors.push({ file, error: describeError(error) });
        keepPrevious(result, result.errors.length - 1, reload, (hook) => hook.source === file);
      }
    }
  }
  return result;
}

/** Where hooks come from: a permissions folder, or a package (its errors, and whether its manifest failed). */
interface Source {
  scope: Scope;
  root: string;
  files: readonly string[];
  errors?: readonly LoadError[];
  manifestFailed?: true;
}

/**
 * On a reload, the hooks from before of what failed (`result.errors[failed]`) go on gating, in its
 * place; which wrapper entries it added is unknown now, so all from before go on reading commands.
 */
function keepPrevious(result: LoadResult, failed: number, reload: Reload | undefined, had: (hook: LoadedHook) => boolean): void {
  if (reload?.wrappers) result.wrappers = Object.freeze({ ...reload.wrappers, ...result.wrappers });
  const kept = reload?.previous.filter(had) ?? [];
  if (!kept.length) return;
  result.hooks.push(...kept);
  result.errors[failed] = { ...(result.errors[failed] as LoadError), kept: true };
}

/** A hook's decisions, as the Author API's `block` and `request` make them. */
const blockDecision = (reason: string): BlockDecision => ({ decision: "block", reason });
const requestDecision = (prompt?: PermissionRequestPrompt): RequestDecision => ({ decision: "request", prompt });

export function createPermissionsAPI(
  register: (hook: Hook) => void,
  addWrappers: (table: Record<string, WrapperSpec>) => void,
): PermissionsAPI {
  return {
    onToolUse: register as PermissionsAPI["onToolUse"],
    request: (prompt) => requestDecision(prompt && withSpans(prompt)),
    block: blockDecision,
    highlightSpans,
    isTool: (name, tool): tool is never => tool.name === name,
    matchCommand: (rule) => register(commandHook(rule)),
    wrappers: (table) => addWrappers(checkedWrappers(table)),
  };
}

const WRAPPER_LISTS = ["valueFlags", "noRunFlags", "payloadFlags", "dirFlags"] as const;

/**
 * A copy of an Author's wrapper entries, or an error naming the first that is not a `WrapperSpec`:
 * a malformed entry would make every parse fail, and every hook see no commands.
 */
function checkedWrappers(table: unknown): Record<string, WrapperSpec> {
  if (!isRecord(table)) throw new Error(problems.wrappersNotObject);
  const checked: [string, WrapperSpec][] = [];
  for (const [name, spec] of Object.entries(table)) {
    if (!isRecord(spec)) throw new Error(problems.notWrapperSpec(name));
    const copy: WrapperSpec = {};
    for (const [field, value] of Object.entries(spec)) {
      if ((WRAPPER_LISTS as readonly string[]).includes(field) && isStringList(value))
        copy[field as (typeof WRAPPER_LISTS)[number]] = [...value];
      else if (field === "operands" && typeof value === "number" && Number.isSafeInteger(value) && value >= 0)
        copy.operands = value;
      else if (field === "assignments" && typeof value === "boolean") copy.assignments = value;
      else throw new Error(problems.notWrapperSpec(name));
    }
    // A payload or a directory is the value of its flag.
    for (const flags of [copy.payloadFlags, copy.dirFlags]) if (flags) copy.valueFlags = [...(copy.valueFlags ?? []), ...flags];
    checked.push([name, copy]);
  }
  // Not assigned key by key: `checked.__proto__ = copy` would set the prototype, not add an entry.
  return Object.fromEntries(checked);
}

/** The hook `api.matchCommand` registers. */
function commandHook(rule: CommandRule): Hook {
  const programs = isString(rule.program) ? [rule.program] : rule.program;
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
      if (!words.length) return undefined;
      if (rule.block !== undefined) return blockDecision(rule.block);
      return requestDecision(withSpans({ ...rule.prompt, highlight: rule.prompt?.highlight ?? words }));
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
    else if (isString(item) || item instanceof RegExp) patterns.push(item);
  }
  const resolved: PermissionHighlight = (detail) => [...spans, ...highlightSpans(detail, patterns)];
  return { ...prompt, highlight: resolved };
}

function isShellPart(item: unknown): item is { start: number; end: number } | { span: HighlightSpan } {
  if (typeof item !== "object" || !item || item instanceof RegExp) return false;
  const span = "span" in item ? (item as { span: unknown }).span : item;
  return typeof (span as HighlightSpan)?.start === "number" && typeof (span as HighlightSpan)?.end === "number";
}

/** Whether a file name in a permissions directory is a module or a rule file. */
export const isPermissionFile = (name: string): boolean =>
  // A name starting with a dot is an editor's (`.#gate.ts`) or set aside, as pi's resource folders skip it.
  MODULE_FILE.test(name) && !name.startsWith(".") && !name.endsWith(".d.ts") && name !== TSCONFIG;

/** The module and rule files a permissions directory holds, in load order. */
export function moduleFiles(root: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    return [];
  }
  // The listing tells files and folders apart; anything else (a symlink, say) is looked up.
  return entries
    .filter(
      (entry) =>
        isPermissionFile(entry.name) && (entry.isFile() || (!entry.isDirectory() && pathKind(join(root, entry.name)) === "file")),
    )
    .map((entry) => entry.name)
    .sort()
    .map((name) => join(root, name));
}

/**
 * A rule file is one hook. Entries it can't use are warnings; a file that is not JSON, not the
 * shape, holds a malformed rule or an example its rules decide otherwise does not load: that throws.
 */
function loadRuleFile(
  file: string,
  scope: Scope,
  root: string,
  result: LoadResult,
  fileGrants: RuleSet[],
  grants: () => readonly RuleSet[],
): void {
  const rules = parseRuleFile(readFileSync(file, "utf8"));
  if ("error" in rules) throw new Error(rules.error);
  // A project's rule file lives in <project>/.pi/permissions; a user's `/x` starts at the project.
  const projectRoot = scope === "project" ? dirname(dirname(root)) : undefined;
  const exampleCwd = projectRoot ?? process.cwd();
  const failed = failedExample(rules, exampleCwd, pathResolver(exampleCwd, projectRoot));
  if (failed) throw new Error(failed);
  for (const { entry, problem } of rules.unsupported) result.warnings.push({ file, error: `${entry}: ${problem}` });
  fileGrants.push(rules.grants);
  const name = basename(file);
  const tools = ruleTools(rules);
  const resolvers = new Map<string, PathResolver>();
  addHook(result, {
    name,
    description: ruleFileDescription({
      deny: rules.deny.rules.length,
      ask: rules.ask.rules.length,
      allow: rules.allow.rules.length,
      grants: rules.grants.rules.length,
    }),
    ...(tools && { tools }),
    handler({ cwd, tool }) {
      const verdict = decide(
        rules,
        tool,
        cwd,
        getOrAdd(resolvers, cwd, () => pathResolver(cwd, projectRoot)),
        grants(),
      );
      if (verdict?.kind === "deny") return blockDecision(ruleDenyReason(verdict.rule.text, verdict.rule.reason));
      if (verdict?.kind === "ask") {
        const { rule, spans } = verdict;
        const prompt = { guidance: ruleAskGuidance(rule.text, rule.guidance), highlight: () => spans };
        noteAskingRule(prompt, rule.text);
        return requestDecision(prompt);
      }
      if (verdict?.kind === "granted") noteGrantedCall(tool, { nameOfHook: name, rule: verdict.grant.text });
      return undefined;
    },
    scope,
    source: file,
    permissionRoot: root,
    rules,
  });
}

/** A hook joins the load; one whose name another hook has already is a warning, and both gate. */
function addHook(result: LoadResult, hook: LoadedHook): void {
  // The project's and the user's grants.json share a name by design: the Approver saves grants to both.
  if (hook.name !== GRANTS_FILE && result.hooks.some((other) => other.name === hook.name))
    result.warnings.push({ file: hook.source, error: problems.duplicateHookName(hook.name) });
  result.hooks.push(hook);
}

/** The tools a rule file's deny and ask rules can match; undefined when any tool may match. */
function ruleTools(rules: RuleFile): string[] | undefined {
  const deny = rules.deny.tools();
  const ask = rules.ask.tools();
  return deny && ask ? [...new Set([...deny, ...ask])] : undefined;
}

/**
 * The directories rule paths start from, as written and with symlinks resolved (on first need),
 * for calls in `cwd`.
 */
function pathResolver(cwd: string, projectRoot: string | undefined): PathResolver {
  const root = projectRoot ?? cwd;
  const home = homedir();
  let realBases: PathResolver["realBases"] | undefined;
  return {
    bases: { project: cwd, root, home },
    get realBases() {
      realBases ??= { project: realPath(cwd), root: realPath(root), home: realPath(home) };
      return realBases;
    },
    realPath,
  };
}

/** A module's import, started; what it fails with is reported when the load comes to the module. */
function startImport(file: string, generation: bigint, importAfresh: ((file: string) => Promise<unknown>) | undefined) {
  const imported = (async () => (importAfresh ? importAfresh(loaderPath(file)) : importModule(file, generation)))();
  imported.catch(() => undefined);
  return imported;
}

/** A module's hooks and wrapper entries join the load; a module that does not load throws. */
async function loadModule(
  file: string,
  scope: Scope,
  root: string,
  imported: Promise<unknown>,
  result: LoadResult,
): Promise<void> {
  const hooks: LoadedHook[] = [];
  let wrappers: Record<string, WrapperSpec> | undefined;
  const timeLimit = problems.notLoadedWithin(LOAD_TIME_LIMIT_MS / 1000);
  const module = (await withTimeLimit(imported, LOAD_TIME_LIMIT_MS, timeLimit)) as { default?: unknown };
  const factory = module.default;
  if (typeof factory !== "function") throw new Error(problems.defaultExportNotFunction);
  let open = true;
  const api = createPermissionsAPI(
    (hook) => {
      // Hooks belong to a load; one registered later (from a timer, say) would never be reported.
      if (open) hooks.push(checkedHook(hook, file, scope, root));
    },
    (table) => {
      if (open) wrappers = { ...wrappers, ...table };
    },
  );
  await withTimeLimit(Promise.resolve(factory(api)), LOAD_TIME_LIMIT_MS, timeLimit);
  open = false;
  for (const hook of hooks) addHook(result, hook);
  if (wrappers) result.wrappers = Object.freeze({ ...(result.wrappers ?? WRAPPERS), ...wrappers });
}

// pi's loader (jiti) runs this code with `jitiImport` in scope, and turns `import()` into a call of it.
declare const jitiImport: unknown;

/**
 * A module for a load. pi's loader keeps a module per file until /reload whatever the query (live
 * reload imports through `importAfresh`), by its real path under Bun, which resolves symlinks. Bun
 * imports a module that imports only Node's built-ins itself (native-import.ts), as unit tests
 * import every module: with a query, so that an edited module loads afresh. Should that fail, pi's
 * loader imports it, and what it says is what is reported: after a /reload, Bun's resolver may not
 * see a module made since, as it keeps a folder's listing from its first look.
 */
function importModule(file: string, generation: bigint): Promise<unknown> {
  const specifier = `${file}?${generation}`;
  if (typeof jitiImport !== "function") return import(specifier);
  const viaPi = () => import(loaderPath(file));
  if (!process.versions.bun || !importsOnlyBuiltins(readFileSync(file, "utf8"))) return viaPi();
  return importNatively(specifier).catch(viaPi);
}

/** A module file as pi's loader first imports it, and so caches it: the real path under Bun. */
const loaderPath = (file: string): string => (process.versions.bun ? realPath(file) : file);

function checkedHook(hook: Hook, file: string, scope: Scope, root: string): LoadedHook {
  if (!hook || typeof hook !== "object") throw new Error(problems.hookNotObject);
  if (!isString(hook.name) || !hook.name.trim()) throw new Error(problems.hookWithoutName);
  if (typeof hook.handler !== "function") throw new Error(problems.hookWithoutHandler(hook.name));
  const description = isString(hook.description) ? hook.description : undefined;
  // A `tools` that is not a list of names filters nothing: the hook sees every call.
  const tools = isStringList(hook.tools) ? [...hook.tools] : undefined;
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
