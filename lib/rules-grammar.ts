// The rule grammar: `Tool` or `Tool(specifier)`, as in Claude Code's permission settings. Pure.
import { ruleProblems } from "./presenter.ts";
import { isHome } from "./shell-words.ts";
import { flags } from "./shell-wrappers.ts";

/** The tools a path rule names, and the pi tools each covers. */
export const PATH_RULE_TOOLS = {
  Read: ["read", "grep", "find", "ls"],
  Edit: ["edit", "write"],
  Write: ["write"],
  Grep: ["grep"],
  Find: ["find"],
  Ls: ["ls"],
} as const satisfies Record<string, readonly string[]>;
export type PathRuleTool = keyof typeof PATH_RULE_TOOLS;

/** Rule tool names as Claude Code and pi (in lower case) spell them, each read as one of ours. */
const TOOL_SPELLINGS = new Map<string, "Bash" | PathRuleTool>([
  ["LS", "Ls"],
  ...(["Bash", ...Object.keys(PATH_RULE_TOOLS)] as ("Bash" | PathRuleTool)[]).flatMap((tool) => [
    [tool, tool] as const,
    [tool.toLowerCase(), tool] as const,
  ]),
]);

/** Claude Code's tools that pi doesn't have: a rule for them is reported, never silently kept. */
const TOOLS_PI_LACKS = new Set(
  flags(
    "WebFetch WebSearch Task Agent Glob MultiEdit NotebookEdit NotebookRead TodoWrite BashOutput KillShell ExitPlanMode SlashCommand Skill",
  ),
);

/** One word of a bash pattern: text with `*` wildcards inside the word, or `*` alone (any words). */
export type PatternWord = { kind: "any" } | { kind: "literal"; text: string } | { kind: "glob"; regex: RegExp };
export const ANY_WORDS: PatternWord = Object.freeze({ kind: "any" });

export interface BashPattern {
  words: PatternWord[];
}

/** Where a path pattern starts from: the project (cwd), the rule file's project root, home, or `/`. */
export type PathBase = "project" | "root" | "home" | "absolute";

export interface PathPattern {
  base: PathBase;
  /** Tested against the path relative to the base, `/`-separated, without a leading `./`. */
  regex: RegExp;
}

export type RuleTarget =
  /** No pattern: every bash call. */
  | { kind: "bash"; pattern?: BashPattern }
  /** No pattern: every call of the tools it covers. */
  | { kind: "path"; tool: PathRuleTool; pattern?: PathPattern }
  /** A tool by its exact name; `server`: every tool of that MCP server (`mcp__github`). */
  | { kind: "tool"; name: string; server?: true };

export interface Rule {
  /** As written in the rule file. */
  text: string;
  target: RuleTarget;
  /** For the agent, with a deny. */
  reason?: string;
  /** For the Approver, with an ask. */
  guidance?: string;
}

/** A rule that can't be used: `unsupported` for what pi doesn't have, otherwise malformed. */
export interface RuleProblem {
  problem: string;
  unsupported?: true;
}

const RULE = /^([A-Za-z_][\w-]*(?:__\*)?)(?:\(([\s\S]*)\))?$/;

export function parseRule(text: string): Rule | RuleProblem {
  const target = ruleTarget(text.trim());
  return "problem" in target ? target : { text, target };
}

/** What a rule's text (trimmed) names, or why it names nothing pi-permission-hooks can use. */
function ruleTarget(text: string): RuleTarget | RuleProblem {
  const match = RULE.exec(text);
  if (!match) return { problem: ruleProblems.notARule };
  const [, name = "", specifier] = match;
  const tool = TOOL_SPELLINGS.get(name);
  if (tool === "Bash") {
    if (specifier === undefined || specifier.trim() === "*") return { kind: "bash" };
    const pattern = parseBashPattern(specifier);
    return "problem" in pattern ? pattern : { kind: "bash", pattern };
  }
  if (tool) {
    if (specifier === undefined) return { kind: "path", tool };
    const pattern = parsePathPattern(specifier);
    return "problem" in pattern ? pattern : { kind: "path", tool, pattern };
  }
  if (TOOLS_PI_LACKS.has(name)) return { problem: ruleProblems.toolPiLacks(name), unsupported: true };
  if (specifier !== undefined) return { problem: ruleProblems.specifierOnTool(name), unsupported: true };
  // `mcp__github` and `mcp__github__*` name every tool of the server, `mcp__github__create_issue` one.
  if (name.startsWith("mcp__")) {
    const server = name.endsWith("__*") ? name.slice(0, -3) : name;
    if (server !== name || !server.slice(5).includes("__")) return { kind: "tool", name: server, server: true };
  }
  return { kind: "tool", name };
}

/**
 * `git push:*` (the words, then any words), `git * main` (`*` alone: any words, none included),
 * `ls*` (a word's `*`: any characters; at a word's end also any words after it), `npm test`
 * (exactly these words). Quotes and backslashes decode as in bash; a quoted `*` is a plain star.
 */
export function parseBashPattern(specifier: string): BashPattern | RuleProblem {
  let source = specifier.trim();
  const prefix = source.endsWith(":*");
  if (prefix) source = source.slice(0, -2);
  if (source.includes(":*")) return { problem: ruleProblems.prefixNotAtEnd };
  const tokens = tokenize(source);
  if ("problem" in tokens) return tokens;
  if (!tokens.length) return { problem: ruleProblems.emptyPattern };
  const words: PatternWord[] = [];
  const push = (word: PatternWord) => {
    if (word.kind !== "any" || words.at(-1)?.kind !== "any") words.push(word);
  };
  for (const { text, stars } of tokens) {
    if (!stars.length) push({ kind: "literal", text });
    else if (text === "*" && stars.length === 1) push(ANY_WORDS);
    else {
      push({ kind: "glob", regex: wordGlob(text, stars) });
      if (stars.includes(text.length - 1)) push(ANY_WORDS);
    }
  }
  if (prefix) push(ANY_WORDS);
  return { words };
}

interface Token {
  text: string;
  /** Offsets in `text` of unquoted `*`. */
  stars: number[];
}

function tokenize(source: string): Token[] | RuleProblem {
  const tokens: Token[] = [];
  let current: Token | undefined;
  const add = (text: string, star = false) => {
    current ??= { text: "", stars: [] };
    if (star) current.stars.push(current.text.length);
    current.text += text;
  };
  for (let at = 0; at < source.length; at++) {
    const char = source[at] as string;
    if (/\s/.test(char)) {
      if (current) tokens.push(current);
      current = undefined;
    } else if (char === "\\") {
      add(source[++at] ?? "");
    } else if (char === "'" || char === '"') {
      const close = source.indexOf(char, at + 1);
      if (close === -1) return { problem: ruleProblems.unclosedQuote };
      add(source.slice(at + 1, close));
      at = close;
    } else add(char, char === "*");
  }
  if (current) tokens.push(current);
  return tokens;
}

function wordGlob(text: string, stars: readonly number[]): RegExp {
  let source = "";
  for (let at = 0; at < text.length; at++) source += stars.includes(at) ? "[^]*" : escapeRegex(text[at] as string);
  return new RegExp(`^${source}$`);
}

/**
 * gitignore-style: `//abs` from `/`, `~/x` from home, `/x` from the rule file's project root,
 * `./x` and `x/y` from the project; a pattern without a `/` (`.env`, `*.pem`) matches at any
 * depth. `*` and `?` stay within a name, `**` spans directories. A pattern also matches
 * everything under what it names.
 */
export function parsePathPattern(specifier: string): PathPattern | RuleProblem {
  let source = specifier.trim();
  if (!source) return { problem: ruleProblems.emptyPattern };
  let base: PathBase = "project";
  // Written without `//`, `~/`, `/` or `./` before it.
  let bare = false;
  if (source.startsWith("//")) [base, source] = ["absolute", source.slice(2)];
  else if (isHome(source)) [base, source] = ["home", source.slice(2)];
  else if (source.startsWith("/")) [base, source] = ["root", source.slice(1)];
  else if (source.startsWith("./")) source = source.slice(2);
  else bare = true;
  const glob = source.replace(/\/+$/, "");
  // `x/**` is everything under x, and so x itself, where a search of x would read all of it.
  return { base, regex: pathRegex(glob.replace(/\/\*\*$/, ""), bare && !glob.includes("/")) };
}

function pathRegex(glob: string, anyDepth: boolean): RegExp {
  let source = "";
  for (let at = 0; at < glob.length; at++) {
    const char = glob[at] as string;
    if (char === "*" && glob[at + 1] === "*") {
      const slashAfter = glob[at + 2] === "/";
      source += slashAfter ? "(?:[^]*/)?" : "[^]*";
      at += slashAfter ? 2 : 1;
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else source += escapeRegex(char);
  }
  // An empty glob (`~`, `//`, `/`) names the base itself, and so everything under it.
  if (!source) return /^/;
  return new RegExp(`^${anyDepth ? "(?:[^]*/)?" : ""}${source}(?:/[^]*)?$`);
}

const escapeRegex = (char: string): string => (/[\\^$.*+?()[\]{}|/]/.test(char) ? `\\${char}` : char);
