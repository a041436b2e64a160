// Two build passes around the minifiers: the code of modules a start doesn't run (the prompt, the
// /permissions list, the editor, …) is compiled the first time it is used rather than with the rest
// of the bundle. The engine parses every function of the code it compiles, which for the whole
// bundle took about 9 ms of pi's start (docs/design.md).
//
// `deferModules`, on Bun's bundle, moves those modules' declarations into one function that runs them
// once, on first need, and returns what they declare; every other use of one of their names reads it
// from there. The minifiers then work on the code as one, so names stay consistent across the two
// parts. `extractDeferred`, after the last renaming pass, takes that function's body out of the code:
// code-as-text.ts hands it to the bundle as text, which the function compiles in place (a direct
// `eval`, which sees the bundle's own bindings) the first time it is called.

import { type Node, parse } from "acorn";
import uglify from "uglify-js";
import { visit } from "./alias-strings.ts";

/** What marks the deferred function through the minifiers: nothing else in our code says `debugger`. */
const MARK = "debugger;";
/** The name the deferred code is handed to the bundle's code as (code-as-text.ts). */
export const DEFERRED_CODE = "deferredCode";

// The parts of UglifyJS's own API (parser, scopes, walker) used here; its type package covers `minify` only.
interface AstNode {
  start: { pos: number };
  end: { endpos: number };
}
interface Statement extends AstNode {
  TYPE: string;
  definitions?: { name: { name: string } }[];
  name?: { name: string };
}
interface Toplevel extends AstNode {
  body: Statement[];
  figure_out_scope(options: { module: boolean }): void;
  walk(walker: Walker): void;
}
interface SymbolRef extends AstNode {
  name: string;
  definition(): { scope: unknown };
}
interface Walker {
  parent(): AstNode & { left?: unknown; operator?: string };
  stack: unknown[];
}
type Class = abstract new (...args: never[]) => unknown;
const ast = uglify as unknown as {
  parse(code: string, options: { module: boolean }): Toplevel;
  TreeWalker: new (visit: (node: AstNode) => void) => Walker;
  AST_SymbolRef: Class;
  AST_Lambda: Class;
  AST_Assign: Class;
  AST_ObjectKeyVal: Class;
  AST_New: Class;
};

/**
 * `code`, Bun's bundle with its `// lib/x.ts` module comments, with the top-level declarations of
 * the `modules` moved into a function run on first need. A deferred declaration that the rest uses
 * at load, or assigns, or that is not a declaration, stops the build: it would run too late.
 */
export function deferModules(code: string, modules: readonly string[]): string {
  const top = ast.parse(code, { module: true });
  top.figure_out_scope({ module: true });
  const marks = [...code.matchAll(/^\/\/ (\S+)\n/gm)].filter(
    ({ index }) => !top.body.some((statement) => statement.start.pos < index && index < statement.end.endpos),
  );
  const moduleOf = (statement: Statement) => marks.findLast(({ index }) => index < statement.start.pos)?.[1];
  const deferred = top.body.filter((statement) => modules.includes(moduleOf(statement) ?? ""));
  const found = new Set(deferred.map(moduleOf));
  const missing = modules.filter((module) => !found.has(module));
  if (missing.length) throw new Error(`defer-modules: no code of ${missing.join(", ")} in the bundle`);
  const names = new Set<string>();
  for (const statement of deferred) {
    if (statement.TYPE === "Var" || statement.TYPE === "Let" || statement.TYPE === "Const")
      for (const { name } of statement.definitions ?? []) names.add(name.name);
    else if (/Defun$|^DefClass$/.test(statement.TYPE) && statement.name) names.add(statement.name.name);
    else throw new Error(`defer-modules: ${moduleOf(statement)} runs a ${statement.TYPE} at load`);
  }
  const [accessor, cache] = freshNames(code, ["deferred", "deferredModules"]);
  const edits: { at: number; end: number; text: string }[] = [];
  const isDeferred = (node: AstNode) =>
    deferred.some((statement) => statement.start.pos <= node.start.pos && node.end.endpos <= statement.end.endpos);
  const walker = new ast.TreeWalker((node) => {
    if (!(node instanceof ast.AST_SymbolRef)) return;
    const ref = node as SymbolRef;
    if (!names.has(ref.name) || isDeferred(ref) || ref.definition().scope !== top) return;
    if (!walker.stack.some((outer) => outer instanceof ast.AST_Lambda))
      throw new Error(`defer-modules: ${ref.name} is used at load, outside any function`);
    const parent = walker.parent();
    const assigned = parent instanceof ast.AST_Assign ? parent.left === ref : /^(\+\+|--)$/.test(parent.operator ?? "");
    if (assigned) throw new Error(`defer-modules: ${ref.name} is assigned outside its module`);
    // `new f().X()` would construct `f`: the class is read in parentheses.
    const read = parent instanceof ast.AST_New ? `(${accessor}().${ref.name})` : `${accessor}().${ref.name}`;
    const shorthand = parent instanceof ast.AST_ObjectKeyVal && parent.start.pos === ref.start.pos;
    edits.push({ at: ref.start.pos, end: ref.end.endpos, text: shorthand ? `${ref.name}:${read}` : read });
  });
  top.walk(walker);
  for (const { start, end } of deferred) edits.push({ at: start.pos, end: end.endpos, text: "" });
  const body = deferred.map(({ start, end }) => code.slice(start.pos, end.endpos)).join("\n");
  let out = code;
  for (const { at, end, text } of edits.sort((a, b) => b.at - a.at)) out = out.slice(0, at) + text + out.slice(end);
  return `${out}\nvar ${cache};\nfunction ${accessor}() {\n  return ${cache} ??= (() => {\n${MARK}\n${body}\nreturn { ${[...names].join(", ")} };\n})();\n}\n`;
}

/**
 * `code`, minified, without the deferred function's body: the call of that function becomes a
 * direct `eval` of a call of the body, which comes back as `deferred`. Code without the mark is
 * unchanged.
 */
export function extractDeferred(code: string): { code: string; deferred?: string } {
  const program = parse(code, { ecmaVersion: "latest", sourceType: "module" });
  const marks: Node[] = [];
  let call: Node | undefined;
  visit(program, null, (node) => {
    if (node.type === "DebuggerStatement") marks.push(node);
    if (node.type === "Identifier" && (node as Node & { name: string }).name === "eval")
      throw new Error("extract-deferred: the code names eval, which the deferred code's call would mean");
  });
  if (marks.length === 0) return { code };
  if (marks.length > 1) throw new Error("extract-deferred: more than one debugger statement");
  const [mark] = marks;
  visit(program, null, (node) => {
    if (node.type !== "CallExpression") return;
    const { callee, arguments: args } = node as Node & { callee: Node & { body?: Node & { body?: Node[] } }; arguments: Node[] };
    if (args.length === 0 && callee.type === "ArrowFunctionExpression" && callee.body?.body?.includes(mark)) call = node;
  });
  if (!call) throw new Error("extract-deferred: the mark is not in the body of the deferred function's call");
  const { body } = (call as Node & { callee: Node & { body: Node } }).callee;
  // The minifiers may have moved function declarations before the mark: the body is all but the mark.
  const deferred = `(()=>{${code.slice(body.start + 1, mark.start)}${code.slice(mark.end, body.end - 1)}})()`;
  return { code: `${code.slice(0, call.start)}eval(${DEFERRED_CODE}())${code.slice(call.end)}`, deferred };
}

/** Names like `base` that `code` doesn't contain, for the code this pass adds. */
function freshNames(code: string, bases: string[]): string[] {
  return bases.map((base) => {
    let name = `__${base}`;
    while (code.includes(name)) name += "_";
    return name;
  });
}
