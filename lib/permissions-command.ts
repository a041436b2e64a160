// `/permissions [enable|disable [hook name] | log | test <call> | grant <rule> [--project|--user] | revoke <rule> | new <name> [--project]]`:
// parsing, hook names, argument completion. Pure.
import { type AutocompleteItem, fuzzyFilter } from "@earendil-works/pi-tui";
import { type GrantScopeName, SUBCOMMAND_DESCRIPTIONS } from "./presenter.ts";
import { isRecord } from "./values.ts";
import { toVisible } from "./visible.ts";

export type PermissionsCommand =
  | { kind: "list" }
  /** No name: every hook. */
  | { kind: "switch"; enabled: boolean; name?: string }
  /** This branch's decisions. */
  | { kind: "log" }
  /** A dry run: what the hooks and rules decide about this call. */
  | { kind: "test"; toolName: string; input: Record<string, unknown> }
  /** Don't ask again for this rule, where `scope` says. */
  | { kind: "grant"; rule: string; scope: GrantScopeName }
  | { kind: "revoke"; rule: string }
  /** A module for the hook `name` from a template, in the user's or the project's folder. */
  | { kind: "new"; name: string; scope: "user" | "project" }
  | { kind: "usage" };

const USAGE: PermissionsCommand = { kind: "usage" };
const SUBCOMMANDS = ["enable", "disable", "log", "test", "grant", "revoke", "new"] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

/** Everything after the subcommand is the hook name: hook names may contain spaces. */
export function parsePermissionsCommand(args: string): PermissionsCommand {
  const [word, , rest] = split(args);
  if (!word) return { kind: "list" };
  const name = rest.trim();
  const subcommand = asSubcommand(word);
  switch (subcommand) {
    case "enable":
    case "disable":
      return { kind: "switch", enabled: subcommand === "enable", ...(name !== "" && { name }) };
    case "log":
      return name ? USAGE : { kind: "log" };
    case "test":
      return name ? testCall(name) : USAGE;
    case "grant":
      return grantCommand(name);
    case "revoke":
      return name ? { kind: "revoke", rule: name } : USAGE;
    case "new":
      return newCommand(name);
    default:
      return USAGE;
  }
}

/** `<tool> <JSON object>` is that tool's call; anything else is a bash command. */
function testCall(text: string): PermissionsCommand {
  const [word, , rest] = split(text);
  if (rest.startsWith("{")) {
    try {
      const input: unknown = JSON.parse(rest);
      if (isRecord(input)) return { kind: "test", toolName: word, input };
    } catch {
      // Not JSON: a command such as `echo {a,b}`.
    }
  }
  return { kind: "test", toolName: "bash", input: { command: text } };
}

/**
 * `<rule>` for this branch; `--project` or `--user` before or after it for a rule file. Inside the
 * rule, `--user` is the rule's own text, as in `Bash(pip install --user:*)`.
 */
function grantCommand(text: string): PermissionsCommand {
  const [, before, rule = "", after] = /^(?:--(project|user)\s+)?([\s\S]*?)(?:\s+--(project|user))?$/.exec(text.trim()) ?? [];
  if (["", "--project", "--user"].includes(rule) || (before && after)) return USAGE;
  return { kind: "grant", rule, scope: (before ?? after ?? "branch") as GrantScopeName };
}

/** `<name>` for the user's folder; with `--project` before, inside or after it, for the project's. */
function newCommand(text: string): PermissionsCommand {
  const name = text.replace(/(^|\s+)--project(?=\s|$)/g, "").trim();
  if (!name) return USAGE;
  return { kind: "new", name, scope: name === text.trim() ? "user" : "project" };
}

/** The hook a typed name means: the exact name, else the one name that differs only in case. */
export function resolveHookName(typed: string, names: readonly string[]): string | undefined {
  if (names.includes(typed)) return typed;
  const folded = names.filter((name) => name.toLowerCase() === typed.toLowerCase());
  return new Set(folded).size === 1 ? folded[0] : undefined;
}

export interface CompletionHook {
  name: string;
  description?: string;
  enabled: boolean;
}

/**
 * Completes the subcommand, then the names of the hooks it would switch, or the grants it would
 * revoke; the value is the whole argument.
 */
export function completePermissionsArgs(
  prefix: string,
  hooks: readonly CompletionHook[],
  grants: readonly string[] = [],
): AutocompleteItem[] | null {
  const [word, space, rest] = split(prefix);
  const subcommand = asSubcommand(word);
  const switching = subcommand === "enable" || subcommand === "disable" ? subcommand : undefined;
  const items = !space
    ? subcommandItems(word)
    : switching
      ? hookItems(switching, rest, hooks)
      : subcommand === "revoke"
        ? grantItems(rest, grants)
        : [];
  // A complete argument gets no list: enter on an open list would only re-apply it, not run the command.
  if (!items.length || items.some((item) => item.value === prefix.trim())) return null;
  return items;
}

function subcommandItems(typed: string): AutocompleteItem[] {
  return fuzzyFilter([...SUBCOMMANDS], typed, (subcommand) => subcommand).map((subcommand) => ({
    value: subcommand,
    label: subcommand,
    description: SUBCOMMAND_DESCRIPTIONS[subcommand],
  }));
}

/** The hooks the subcommand would change, each name once. */
function hookItems(subcommand: "enable" | "disable", typed: string, hooks: readonly CompletionHook[]): AutocompleteItem[] {
  const switchable = hooks.filter((hook) => hook.enabled !== (subcommand === "enable"));
  const unique = switchable.filter((hook, index) => switchable.findIndex((other) => other.name === hook.name) === index);
  return fuzzyFilter(unique, typed, (hook) => hook.name).map((hook) => ({
    value: `${subcommand} ${hook.name}`,
    label: toVisible(hook.name),
    ...(hook.description && { description: toVisible(hook.description) }),
  }));
}

/** Each granted rule once. */
function grantItems(typed: string, grants: readonly string[]): AutocompleteItem[] {
  return fuzzyFilter([...new Set(grants)], typed, (rule) => rule).map((rule) => ({
    value: `revoke ${rule}`,
    label: toVisible(rule),
  }));
}

/** The first word, whether a space follows it, and the text after that space. */
function split(args: string): [word: string, space: boolean, rest: string] {
  const [, word = "", space = "", rest = ""] = /^\s*(\S*)(\s*)([\s\S]*)$/.exec(args) ?? [];
  return [word, space !== "", rest];
}

const asSubcommand = (word: string): Subcommand | undefined =>
  SUBCOMMANDS.find((subcommand) => subcommand === word.toLowerCase());
