// A rule file: its JSON (Claude Code's `permissions` block, plus examples and grants), and what its
// rules decide about one call. Pure: the file's text comes in, symlinks are resolved by the caller.
import type { HighlightSpan, PermissionTool, ShellCommand } from "./api.ts";
import { ruleProblems } from "./presenter.ts";
import { type BashPattern, PATH_RULE_TOOLS, type PathRuleTool, parseRule, type Rule } from "./rules-grammar.ts";
import { commandMatches, type PathBases, pathMatches, patternProgram, redirectAccess, redirectPath } from "./rules-match.ts";
import { flags } from "./shell-wrappers.ts";
import { normalizeToolInput } from "./tool-input.ts";
import { getOrAdd, isRecord, isString, parseJson } from "./values.ts";

export type RuleKind = "deny" | "ask" | "allow";
export const RULE_KINDS: readonly RuleKind[] = ["deny", "ask", "allow"];
export type ExampleExpectation = "deny" | "ask" | "pass";

export interface Example {
  expect: ExampleExpectation;
  /** As the file writes it: the command, or the call as JSON. */
  text: string;
  tool: string;
  input: Record<string, unknown>;
}

/** An entry the file holds that can't take effect, reported once. */
export interface UnsupportedEntry {
  entry: string;
  problem: string;
}

export interface RuleFile {
  deny: RuleSet;
  ask: RuleSet;
  allow: RuleSet;
  /** Rules the Approver said not to be asked about again. */
  grants: RuleSet;
  examples: Example[];
  unsupported: UnsupportedEntry[];
}

/** A file that can't be used: not JSON, not the shape, or a rule that is not a rule. */
export interface RuleFileError {
  error: string;
}

const CLAUDE_PERMISSION_KEYS = new Set(flags("defaultMode additionalDirectories disableBypassPermissionsMode"));

export function parseRuleFile(text: string): RuleFile | RuleFileError {
  let json: unknown;
  try {
    json = parseJson(text);
  } catch (error) {
    return { error: ruleProblems.notJson(error instanceof Error ? error.message : String(error)) };
  }
  if (!isRecord(json)) return { error: ruleProblems.notAnObject };
  const unsupported: UnsupportedEntry[] = [];
  for (const key of Object.keys(json)) {
    if (key !== "permissions" && key !== "examples" && key !== "grants" && key !== "$schema")
      unsupported.push({ entry: key, problem: ruleProblems.notRuleFileKey });
  }
  const permissions = json.permissions ?? {};
  if (!isRecord(permissions)) return { error: ruleProblems.permissionsNotObject };
  for (const key of Object.keys(permissions)) {
    if (RULE_KINDS.includes(key as RuleKind)) continue;
    unsupported.push({
      entry: `permissions.${key}`,
      problem: CLAUDE_PERMISSION_KEYS.has(key) ? ruleProblems.claudeSetting : ruleProblems.notRuleFileKey,
    });
  }
  const lists: Record<RuleKind | "grants", Rule[]> = { deny: [], ask: [], allow: [], grants: [] };
  for (const kind of [...RULE_KINDS, "grants"] as const) {
    const [at, entries] = kind === "grants" ? [kind, json.grants] : [`permissions.${kind}`, permissions[kind]];
    if (entries === undefined) continue;
    if (!Array.isArray(entries)) return { error: ruleProblems.notAList(at) };
    for (const entry of entries) {
      const rule = ruleEntry(entry);
      if ("problem" in rule) {
        const where = `${at}: ${entryText(entry)}`;
        if (!rule.unsupported) return { error: `${where}: ${rule.problem}` };
        unsupported.push({ entry: where, problem: rule.problem });
      } else lists[kind].push(rule);
    }
  }
  const examples = parseExamples(json.examples);
  if ("error" in examples) return examples;
  return {
    deny: new RuleSet(lists.deny),
    ask: new RuleSet(lists.ask),
    allow: new RuleSet(lists.allow),
    grants: new RuleSet(lists.grants),
    examples,
    unsupported,
  };
}

/** `"Bash(git push:*)"`, or `{ "rule": "…", "reason": "…", "guidance": "…" }`. */
function ruleEntry(entry: unknown): Rule | { problem: string; unsupported?: true } {
  if (isString(entry)) return parseRule(entry);
  if (!isRecord(entry) || !isString(entry.rule)) return { problem: ruleProblems.notARuleEntry };
  const notes: Pick<Rule, (typeof RULE_NOTES)[number]> = {};
  for (const field of RULE_NOTES) {
    const note = entry[field];
    if (isString(note)) notes[field] = note;
    else if (note !== undefined) return { problem: ruleProblems.notText(field) };
  }
  const rule = parseRule(entry.rule);
  return "problem" in rule ? rule : { ...rule, ...notes };
}

const RULE_NOTES = ["reason", "guidance"] as const;

function parseExamples(value: unknown): Example[] | RuleFileError {
  if (value === undefined) return [];
  if (!isRecord(value)) return { error: ruleProblems.examplesNotObject };
  const examples: Example[] = [];
  for (const key of Object.keys(value)) {
    if (key !== "deny" && key !== "ask" && key !== "pass") return { error: ruleProblems.notExampleKind(key) };
    const at = `examples.${key}`;
    const entries = value[key];
    if (!Array.isArray(entries)) return { error: ruleProblems.notAList(at) };
    for (const entry of entries) {
      const text = entryText(entry);
      if (isString(entry)) examples.push({ expect: key, text, tool: "bash", input: { command: entry } });
      else if (isRecord(entry) && isString(entry.tool) && isRecord(entry.input ?? {}))
        examples.push({ expect: key, text, tool: entry.tool, input: (entry.input ?? {}) as Record<string, unknown> });
      else return { error: ruleProblems.notAnExample(at, text) };
    }
  }
  return examples;
}

/** An entry as the file writes it: a string as it is, anything else as JSON. */
const entryText = (entry: unknown): string => (isString(entry) ? entry : JSON.stringify(entry));

/** Rules of one kind, indexed by the program a bash pattern names, so a call costs a lookup per command. */
export class RuleSet {
  readonly #byProgram = new Map<string, IndexedPattern[]>();
  /** Bash patterns whose program may be anything. */
  readonly #anyProgram: IndexedPattern[] = [];
  /** Every other rule: whole-tool, path and named-tool rules. */
  readonly #others: Rule[] = [];
  readonly hasPathRules: boolean;

  constructor(readonly rules: readonly Rule[]) {
    rules.forEach((rule, index) => {
      const pattern = rule.target.kind === "bash" ? rule.target.pattern : undefined;
      if (!pattern) {
        this.#others.push(rule);
        return;
      }
      const indexed = { rule, index, pattern };
      const program = patternProgram(pattern);
      if (program === undefined) this.#anyProgram.push(indexed);
      else getOrAdd(this.#byProgram, program, () => []).push(indexed);
    });
    this.hasPathRules = this.#others.some((rule) => rule.target.kind === "path");
  }

  /** The first rule in file order that matches the command. */
  matchCommand(command: ShellCommand): Rule | undefined {
    let best: IndexedPattern | undefined;
    for (const list of [this.#byProgram.get(command.programName), this.#anyProgram]) {
      if (!list) continue;
      for (const candidate of list) {
        if (best && candidate.index > best.index) break;
        if (commandMatches(candidate.pattern, command)) best = candidate;
      }
    }
    return best?.rule;
  }

  /** A command's first rule as matchCommand finds it; for the call or a file, the first whole-tool, named-tool or path rule. */
  match(item: Item, paths: PathResolver, written: boolean): Rule | undefined {
    if (item.kind === "command") return this.matchCommand(item.command);
    for (const rule of this.#others) if (otherMatches(rule, item, paths, written)) return rule;
    return undefined;
  }

  /** The tools a call must be of for any rule here to match; undefined: any tool. */
  tools(): Set<string> | undefined {
    const tools = new Set<string>();
    for (const { target } of this.rules) {
      if (target.kind === "bash") tools.add("bash");
      else if (target.kind === "path") {
        for (const tool of PATH_RULE_TOOLS[target.tool]) tools.add(tool);
        // Read, Edit and Write rules also match the files a bash redirect touches.
        if ((REDIRECT_COVERS.both as readonly PathRuleTool[]).includes(target.tool)) tools.add("bash");
      } else if (target.server) return undefined;
      else tools.add(target.name);
    }
    return tools;
  }
}

interface IndexedPattern {
  rule: Rule;
  index: number;
  pattern: BashPattern;
}

/** Every rule of the file, in the order /permissions lists them: deny, ask, allow, then grants. */
export function listedRules(file: RuleFile): [kind: RuleKind | "grant", rule: string][] {
  const rows: [RuleKind | "grant", string][] = [];
  for (const kind of RULE_KINDS) for (const rule of file[kind].rules) rows.push([kind, rule.text]);
  for (const rule of file.grants.rules) rows.push(["grant", rule.text]);
  return rows;
}

/** Symlinks resolved: the real path of a file, and the directories patterns start from. */
export interface PathResolver {
  /** As written (`..` resolved). */
  bases: PathBases;
  /** With symlinks resolved. */
  realBases: PathBases;
  realPath(path: string): string;
}

/** The call as a whole, for rules that name a tool without a pattern. */
interface CallItem {
  kind: "call";
  tool: PermissionTool;
  span: HighlightSpan;
}
/** A file the call touches, and the rule tools that cover what it does to it. */
interface PathItem {
  kind: "path";
  path: string;
  covers: readonly PathRuleTool[];
  span: HighlightSpan;
}
interface CommandItem {
  kind: "command";
  command: ShellCommand;
  span: HighlightSpan;
}
type Item = CallItem | PathItem | CommandItem;

const REDIRECT_COVERS = {
  write: ["Edit", "Write"],
  read: ["Read"],
  both: ["Read", "Edit", "Write"],
} as const satisfies Record<string, readonly PathRuleTool[]>;
/** The rule tools that cover what a pi file tool does to its file: PATH_RULE_TOOLS the other way round. */
const TOOL_COVERS = new Map<string, PathRuleTool[]>(
  [...new Set(Object.values(PATH_RULE_TOOLS).flat())].map((tool) => [
    tool,
    (Object.keys(PATH_RULE_TOOLS) as PathRuleTool[]).filter((ruleTool) =>
      (PATH_RULE_TOOLS[ruleTool] as readonly string[]).includes(tool),
    ),
  ]),
);

function otherMatches(rule: Rule, item: CallItem | PathItem, paths: PathResolver, written: boolean): boolean {
  const target = rule.target;
  if (item.kind === "call") {
    const name = item.tool.name;
    if (target.kind === "bash") return !target.pattern && name === "bash";
    if (target.kind === "tool") return name === target.name || (!!target.server && name.startsWith(`${target.name}__`));
    return !target.pattern && (PATH_RULE_TOOLS[target.tool] as readonly string[]).includes(name);
  }
  if (target.kind !== "path" || !item.covers.includes(target.tool)) return false;
  // A path rule without a pattern names a tool: it matches the file a redirect touches as well.
  if (!target.pattern) return true;
  if (written && pathMatches(target.pattern, item.path, paths.bases)) return true;
  return pathMatches(target.pattern, paths.realPath(item.path), paths.realBases);
}

/** What a rule file decides about one call; `granted`: it would ask, but a grant covers each ask. */
export type RuleVerdict =
  | { kind: "deny"; rule: Rule }
  | { kind: "ask"; rule: Rule; spans: HighlightSpan[] }
  | { kind: "granted"; rule: Rule; grant: Rule };

/**
 * Deny wins: a call is blocked when any of its commands or files matches a deny rule. Otherwise
 * it is asked for when any matches an ask rule and is not exempt: matched by an allow rule of the
 * same file or by a grant. Exemptions match a file by its real path only, so a symlink can't
 * widen them.
 */
export function decide(
  file: RuleFile,
  tool: PermissionTool,
  cwd: string,
  paths: PathResolver,
  grants: readonly RuleSet[],
): RuleVerdict | undefined {
  const items = callItems(tool, cwd, paths.bases.home, file);
  for (const item of items) {
    const rule = file.deny.match(item, paths, true);
    if (rule) return { kind: "deny", rule };
  }
  let first: Rule | undefined;
  const spans: HighlightSpan[] = [];
  let exemptions: RuleSet[] | undefined;
  let granted: { rule: Rule; grant: Rule } | undefined;
  for (const item of items) {
    const rule = file.ask.match(item, paths, true);
    if (!rule) continue;
    exemptions ??= [file.allow, ...grants];
    if (exempt(item, items, exemptions, paths, tool)) {
      if (!granted && grants.length && !exempt(item, items, [file.allow], paths, tool)) {
        const grant = grantFor(item, items, grants, paths);
        if (grant) granted = { rule, grant };
      }
      continue;
    }
    first ??= rule;
    spans.push(item.span);
  }
  if (first) return { kind: "ask", rule: first, spans };
  return granted && { kind: "granted", ...granted };
}

/** A grant that matches the item, or, for the whole call, one of its parts. */
function grantFor(item: Item, items: readonly Item[], grants: readonly RuleSet[], paths: PathResolver): Rule | undefined {
  for (const candidate of item.kind === "call" ? items : [item])
    for (const set of grants) {
      const rule = set.match(candidate, paths, false);
      if (rule) return rule;
    }
  return undefined;
}

/** A whole bash call is exempt when every command and file in it is: none may hide behind the others. */
function exempt(
  item: Item,
  items: readonly Item[],
  sets: readonly RuleSet[],
  paths: PathResolver,
  tool: PermissionTool,
): boolean {
  const exempted = (part: Item) => sets.some((set) => set.match(part, paths, false));
  if (exempted(item)) return true;
  if (item.kind !== "call") return false;
  const parts = items.filter((other) => other !== item);
  if (!parts.length || ("commandsComplete" in tool && !tool.commandsComplete)) return false;
  return parts.every(exempted);
}

/** The call, then its commands and the files its redirects touch, or the file a file tool touches. */
function callItems(tool: PermissionTool, cwd: string, home: string, file: RuleFile): Item[] {
  const whole = { start: 0, end: tool.detail.length };
  const items: Item[] = [{ kind: "call", tool, span: whole }];
  if ("commands" in tool) {
    const withPaths = file.deny.hasPathRules || file.ask.hasPathRules;
    for (const command of tool.commands) {
      items.push({ kind: "command", command, span: command.span });
      if (!withPaths) continue;
      for (const redirect of command.redirects) {
        const access = redirectAccess(redirect);
        const path = access && redirectPath(redirect, command, cwd, home);
        const target = redirect.target;
        if (!access || !path || !target) continue;
        items.push({ kind: "path", path, covers: REDIRECT_COVERS[access], span: { start: target.start, end: target.end } });
      }
    }
    return items;
  }
  const covers = TOOL_COVERS.get(tool.name);
  if (!covers || !("absolutePath" in tool)) return items;
  const path = tool.absolutePath;
  const shown = "path" in tool && isString(tool.path) ? tool.path : "";
  const at = shown ? tool.detail.indexOf(shown) : -1;
  items.push({ kind: "path", path, covers, span: at === -1 ? whole : { start: at, end: at + shown.length } });
  return items;
}

/**
 * The first example the file's rules (without grants) decide otherwise, as the load error that
 * names it and what decided it; undefined when every example holds.
 */
export function failedExample(file: RuleFile, cwd: string, paths: PathResolver): string | undefined {
  for (const example of file.examples) {
    const tool = normalizeToolInput(example.tool, example.input, cwd);
    const verdict = decide(file, tool, cwd, paths, []);
    const actual: ExampleExpectation = !verdict || verdict.kind === "granted" ? "pass" : verdict.kind;
    if (actual !== example.expect) return ruleProblems.exampleDecided(example.text, example.expect, actual, verdict?.rule.text);
  }
  return undefined;
}
