// The properties the build lets terser rename (scripts/build.ts), and the check that keeps that safe.
import { type Node, parse } from "acorn";
import { visit } from "./alias-strings.ts";

/**
 * Properties that only our code reads and writes, on objects it makes for itself (the scanner's
 * frames, the note store's calls, the gatekeeper's state): never persisted, never handed to pi, an
 * Author or another extension. Their names are public to a minifier, which renames them only when
 * told; a one-letter name instead of `expectsCommand` at each use.
 */
export const INTERNAL_PROPERTIES = [
  "andOrDir",
  "beforeGroup",
  "commandsBefore",
  "dirStack",
  "doubleQuoted",
  "doubt",
  "expectsCommand",
  "firstQuote",
  "inDoubleQuotes",
  "lastEnd",
  "paren",
  "pipeDir",
  "discardAll",
  "madeBy",
  "relayed",
  "rootOf",
  "rootRunning",
  "hasPathRules",
  "watchedFolders",
  "onToolCall",
  "onToolResult",
  "onTurnEnd",
  "onTree",
  "setAuditFile",
  "inForce",
  "importAfresh",
  "manifestFailed",
  "modulesTrusted",
  "realBases",
  "noUi",
  "repeatMs",
  "grantRule",
  "grantScopes",
  "withoutUi",
  "agentReads",
  "editorRows",
  "spare",
  "state",
  "conditional",
  "construct",
  "piped",
  "outer",
  "closes",
  "brace",
  "projectModulesTrusted",
  "cmd",
  "bracket",
  "resume",
  "kind",
  "complete",
  "opens",
  "quoted",
  "strip",
  "stars",
  "regex",
  "bases",
  "unsupported",
  "expect",
  "spans",
  "globs",
  "problems",
  "identity",
  "heard",
  "watching",
  "isEnabled",
  "allEnabled",
  "enabled",
  "track",
  "record",
  "covering",
  "remember",
  "relay",
  "consume",
  "signals",
  "timers",
  "deadline",
  "externalEditor",
  "editable",
  "highlights",
  "labels",
  "paint",
  "draw",
  "forget",
  "rewrite",
  "say",
  "tone",
  "scope",
  "files",
  "dontAsk",
  "verdict",
];

/** The internal properties that `api` (the Author API's source) or a text of `bundle` names: renamed, they would break. */
export function unsafeToRename(bundle: string, api: string): string[] {
  const texts = [api];
  visit(parse(bundle, { ecmaVersion: "latest", sourceType: "module" }), null, (node) => {
    if (node.type === "Literal" && typeof (node as Node & { value: unknown }).value === "string") {
      texts.push((node as Node & { value: string }).value);
    } else if (node.type === "TemplateElement") texts.push((node as Node & { value: { raw: string } }).value.raw);
  });
  const words = new Set(texts.flatMap((text) => text.match(/[\w$]+/g) ?? []));
  return INTERNAL_PROPERTIES.filter((name) => words.has(name));
}
