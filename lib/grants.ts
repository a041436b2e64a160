// Grants: a narrower "don't ask again" than switching a hook off. A grant is a rule the Approver
// saw, kept on the session branch (a custom entry, like enablement), in the project's rule file or
// in the user's. A request a grant covers gives way to the hooks after it; a block never does.
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { CONFIG_DIR_NAME, getAgentDir } from "@earendil-works/pi-coding-agent";
import type { HookInput, PermissionRequestPrompt, PermissionTool } from "./api.ts";
import { evaluate, type Verdict } from "./evaluator.ts";
import { describeError } from "./failure.ts";
import { highlightSpans } from "./highlight.ts";
import type { LoadedHook } from "./loader.ts";
import { dirname, join, mkdirSync, renameSync, writeFileSync } from "./node.ts";
import { type GrantScopeName, grantProblems } from "./presenter.ts";
import { parseRuleFile, RuleSet } from "./rules-file.ts";
import { parseBashPattern, parseRule, type Rule } from "./rules-grammar.ts";
import { commandMatches } from "./rules-match.ts";
import type { ShellCommand } from "./shell-command.ts";
import { isRecord, isString, latestStrings, parseJson, readIfPresent } from "./values.ts";

export type GrantScope = GrantScopeName;
type FileScope = Exclude<GrantScope, "branch">;
/** What the Approver chose: the exact rule shown, and where it holds. */
export interface Grant {
  rule: string;
  scope: GrantScope;
}
/** A grant in force and where it is kept: the session branch, or a rule file. */
export type HeldGrant = { rule: string; scope: "branch" } | { rule: string; scope: FileScope; file: string };
/** The grant that let a call run without a prompt, and the hook or rule file whose ask it covered. */
export interface GrantUse {
  nameOfHook: string;
  rule: string;
}

/** The custom session entry that records the branch's grants from there on down the branch. */
export const GRANTS_ENTRY = "permission-hooks-grants";
export interface GrantsRecord {
  grants: string[];
}
/** The rule file a project or user grant is appended to, in that scope's permissions folder. */
export const GRANTS_FILE = "grants.json";

// ── Deriving the rule a grant saves ─────────────────────────────────────────────────────────

/** A rule file's request carries the rule that asked; the evaluator hands the prompt on as it is. */
const askingRules = new WeakMap<object, string>();
/** A call a rule file would have asked about, had a grant not covered it. */
const grantedCalls = new WeakMap<PermissionTool, GrantUse>();

export function noteAskingRule(prompt: object, rule: string): void {
  askingRules.set(prompt, rule);
}

export function noteGrantedCall(tool: PermissionTool, use: GrantUse): void {
  grantedCalls.set(tool, use);
}

/** The grant a rule file used on this call, if one let it through; each use is read once. */
export function takeGrantedCall(tool: PermissionTool): GrantUse | undefined {
  const use = grantedCalls.get(tool);
  grantedCalls.delete(tool);
  return use;
}

/**
 * The rule a grant for this request would save, as the Approver must see it: a rule file's asking
 * rule as written; for a module's request about a bash call, the first command (in source order)
 * whose program the prompt highlights, as commandGrantRule gives it. Undefined when nothing
 * narrower than the hook can be named: a failed hook, a module's request about another tool or
 * without a highlighted program, a command line the parser could not fully follow.
 */
export function grantRule(verdict: Exclude<Verdict, { kind: "block" }>, tool: PermissionTool): string | undefined {
  if (verdict.kind !== "request") return undefined;
  const rule = askingRules.get(verdict.prompt);
  if (rule !== undefined || verdict.hook.rules) return rule;
  const [command] = askingCommands(tool, verdict.prompt);
  return command && commandGrantRule(command);
}

/**
 * `Bash(<program> <words up to its subcommand>:*)`: `git push origin` → `Bash(git push:*)`,
 * `git -C repo push` → `Bash(git -C repo push:*)`, `ls -la` → `Bash(ls:*)`, `npm test` → `Bash(npm test:*)`.
 * Words are quoted as the rule grammar reads them. Undefined for a word known only at run time,
 * and for a rule that would not match the command it came from.
 */
export function commandGrantRule(command: ShellCommand): string | undefined {
  const program = command.program;
  if (!program || program.dynamic) return undefined;
  const subcommand = command.subcommand();
  const words = subcommand ? command.args.slice(0, command.args.indexOf(subcommand) + 1) : [];
  if (words.some((word) => word.dynamic)) return undefined;
  const specifier = `${[command.programName, ...words.map((word) => word.text)].map(ruleWord).join(" ")}:*`;
  const pattern = parseBashPattern(specifier);
  return !("problem" in pattern) && commandMatches(pattern, command) ? `Bash(${specifier})` : undefined;
}

const ruleWord = (text: string): string => (/^[\w@%+=,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`);

/** The commands whose program the prompt highlights; none when the parse is incomplete. */
function askingCommands(tool: PermissionTool, prompt: PermissionRequestPrompt): ShellCommand[] {
  const spans = highlightSpans(tool.detail, prompt.highlight);
  if (!("commands" in tool) || !tool.commandsComplete) return [];
  return (tool.commands as ShellCommand[]).filter((command) => {
    const program = command.program;
    return program && spans.some((span) => span.start < program.end && span.end > program.start);
  });
}

// ── Grants in force ─────────────────────────────────────────────────────────────────────────

/**
 * The grants of this session: the branch's, restored from its latest record (resume, /tree,
 * /fork, /reload), and the rule files' `grants`, as loaded and as saved or revoked since.
 */
export class Grants {
  #branch: readonly string[] = [];
  readonly #files = new Map<string, { scope: FileScope; set: RuleSet }>();
  #sets: readonly RuleSet[] = [];
  /** Absent while the branch has no grant: a session without grants never compiles the rules' code. */
  #branchSet: RuleSet | undefined;

  readonly #pi: Pick<ExtensionAPI, "appendEntry">;

  constructor(pi: Pick<ExtensionAPI, "appendEntry">) {
    this.#pi = pi;
  }

  /** The branch's grants: its latest record wins; none means none. */
  restore(ctx: ExtensionContext): void {
    this.#setBranch(latestStrings<GrantsRecord>(ctx, GRANTS_ENTRY, "grants"));
  }

  /** The grants of the rule files this load found. */
  track(hooks: readonly LoadedHook[]): void {
    this.#files.clear();
    // A package's rule file grants nothing: grants are the Approver's.
    for (const hook of hooks)
      if (hook.rules && (hook.scope === "project" || hook.scope === "user"))
        this.#files.set(hook.source, { scope: hook.scope, set: hook.rules.grants });
    this.#rebuild();
  }

  /** Every grant set in force, for rule files' exemptions; empty when there is no grant. */
  inForce(): readonly RuleSet[] {
    return this.#sets;
  }

  any(): boolean {
    return this.#sets.length > 0;
  }

  /** Every grant, the branch's first, then each rule file's in load order. */
  list(): HeldGrant[] {
    const held: HeldGrant[] = this.#branch.map((rule) => ({ rule, scope: "branch" }));
    for (const [file, { scope, set }] of this.#files) for (const rule of set.rules) held.push({ rule: rule.text, scope, file });
    return held;
  }

  /**
   * A request runs without a prompt when a grant covers it: a rule file's when a grant covered
   * each of its asks (decided by the rule file), a module's when each command whose program it
   * highlighted matches a grant. Then the hooks after it decide. Blocks are never covered.
   */
  async pass(
    verdict: Verdict | undefined,
    hooks: readonly LoadedHook[],
    input: Omit<HookInput, "permissionRoot">,
  ): Promise<{ verdict: Verdict | undefined; granted?: GrantUse }> {
    let current: Verdict | undefined = verdict;
    let granted: GrantUse | undefined;
    while (current?.kind === "request") {
      const rule = this.covering(current, input.tool);
      if (rule === undefined) break;
      granted ??= { nameOfHook: current.hook.name, rule };
      current = await evaluate(hooks.slice(hooks.indexOf(current.hook) + 1), input);
    }
    granted ??= current ? undefined : takeGrantedCall(input.tool);
    return granted ? { verdict: current, granted } : { verdict: current };
  }

  /** The grant that covers a module's request, if every command whose program it highlighted matches one. */
  covering(verdict: Extract<Verdict, { kind: "request" }>, tool: PermissionTool): string | undefined {
    if (verdict.hook.rules) return undefined;
    const commands = askingCommands(tool, verdict.prompt);
    let first: string | undefined;
    for (const command of commands) {
      const rule = this.#sets.map((set) => set.matchCommand(command)).find(Boolean);
      if (!rule) return undefined;
      first ??= rule.text;
    }
    return first;
  }

  /** Saves a grant where its scope says; the problem, when it could not be saved. */
  save(grant: Grant, ctx: ExtensionContext): { file?: string; error?: string } {
    const parsed = parseRule(grant.rule);
    if ("problem" in parsed) return { error: grantProblems.notARule(grant.rule, parsed.problem) };
    if (grant.scope === "branch") {
      if (!this.#branch.includes(grant.rule)) this.#recordBranch([...this.#branch, grant.rule]);
      return {};
    }
    const file = grantFile(grant.scope, ctx.cwd);
    const error = this.#editFile(file, grant.scope, (text) => withGrant(text, grant.rule));
    return error ? { file, error } : { file };
  }

  /** Takes a grant back from where it is kept; the problem, when the file could not be changed. */
  revoke(held: HeldGrant): string | undefined {
    if (held.scope === "branch") {
      this.#recordBranch(this.#branch.filter((rule) => rule !== held.rule));
      return undefined;
    }
    return this.#editFile(held.file, held.scope, (text) => withoutGrant(text, held.rule));
  }

  #recordBranch(grants: readonly string[]): void {
    this.#setBranch(grants);
    this.#pi.appendEntry<GrantsRecord>(GRANTS_ENTRY, { grants: [...grants] });
  }

  #setBranch(grants: readonly string[]): void {
    this.#branch = grants;
    this.#branchSet = grants.length ? new RuleSet(parsedRules(grants)) : undefined;
    this.#rebuild();
  }

  /** Rewrites a rule file through `edit`, atomically; what is in force follows what the file now holds. */
  #editFile(file: string, scope: FileScope, edit: (text: string | undefined) => string | { error: string }): string | undefined {
    try {
      const next = edit(readIfPresent(file));
      if (!isString(next)) return next.error;
      mkdirSync(dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, next);
      renameSync(temporary, file);
      const parsed = parseRuleFile(next);
      if (!("error" in parsed)) this.#files.set(file, { scope, set: parsed.grants });
      this.#rebuild();
      return undefined;
    } catch (error) {
      return grantProblems.notWritten(describeError(error));
    }
  }

  #rebuild(): void {
    const sets = [...this.#files.values()].map(({ set }) => set);
    this.#sets = (this.#branchSet ? [this.#branchSet, ...sets] : sets).filter((set) => set.rules.length);
  }
}

/** Where a project or user grant is kept: `grants.json` in that scope's permissions folder. */
export const grantFile = (scope: FileScope, cwd: string): string => join(permissionsFolder(scope, cwd), GRANTS_FILE);

/** The project's permissions folder (in `cwd`'s pi folder), or the user's (in pi's agent folder). */
export const permissionsFolder = (scope: FileScope, cwd: string): string =>
  join(scope === "project" ? join(cwd, CONFIG_DIR_NAME) : getAgentDir(), "permissions");

// ── Rule file text: a grant added or removed, everything else kept ───────────────────────────

/** The file with the rule appended to its `"grants"` (created when absent); unchanged when already granted. */
export function withGrant(text: string | undefined, rule: string): string | { error: string } {
  return withGrants(text, (grants) => (grants.some((entry) => entryRule(entry) === rule.trim()) ? grants : [...grants, rule]));
}

/** The file without the rule in its `"grants"` (as a string or a `{ "rule": … }` entry). */
export function withoutGrant(text: string | undefined, rule: string): string | { error: string } {
  return withGrants(text, (grants) => grants.filter((entry) => entryRule(entry) !== rule.trim()));
}

/** The file with its `"grants"` list as `change` makes it; the text as it is when `change` returns the same list. */
function withGrants(text: string | undefined, change: (grants: unknown[]) => unknown[]): string | { error: string } {
  let value: unknown = {};
  try {
    if (text !== undefined) value = parseJson(text);
  } catch (error) {
    return { error: grantProblems.notJson(describeError(error)) };
  }
  if (!isRecord(value)) return { error: grantProblems.notAnObject };
  const grants = value.grants ?? [];
  if (!Array.isArray(grants)) return { error: grantProblems.grantsNotList };
  const changed = change(grants);
  return changed === grants && text !== undefined ? text : checked({ ...value, grants: changed });
}

function entryRule(entry: unknown): string | undefined {
  const rule = isRecord(entry) ? entry.rule : entry;
  return isString(rule) ? rule.trim() : undefined;
}

/** Written only when it is still a rule file that loads. */
function checked(value: Record<string, unknown>): string | { error: string } {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  const parsed = parseRuleFile(text);
  return "error" in parsed ? { error: grantProblems.notARuleFile(parsed.error) } : text;
}

function parsedRules(texts: readonly string[]): Rule[] {
  return texts.map(parseRule).filter((rule): rule is Rule => !("problem" in rule));
}
