// Two build passes around the minifiers: the code of modules a start doesn't run (the prompt, the
// /permissions list, the shell parser, …) is compiled the first time it is used rather than with the
// rest of the bundle. The engine parses every function of the code it compiles, which for the whole
// bundle took about 9 ms of pi's start (docs/design.md).
//
// `deferModules`, on Bun's bundle, moves each group of those modules' declarations into a function
// that runs them once, on first need, and returns what they declare; every use of one of their names
// outside the group reads it from there. The minifiers then work on the code as one, so names stay
// consistent across the parts. `extractDeferred`, after the last renaming pass, takes each such
// function's body out of the code: code-as-text.ts hands them to the bundle as text, compiled the
// first time the function is called, with the bundle's bindings it reads as arguments.

import uglify from "uglify-js";

/** What marks a deferred function through the minifiers: nothing else in our code says `debugger`. */
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
  definition(): { scope: unknown; undeclared?: boolean };
}
interface Walker {
  parent(): AstNode & { left?: unknown; operator?: string; name?: unknown; value?: unknown; init?: unknown };
  stack: unknown[];
}
interface Call extends AstNode {
  args: unknown[];
  expression: AstNode & { body: AstNode[] };
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
  AST_Debugger: Class;
  AST_Call: Class;
  AST_Arrow: Class;
  AST_ForIn: Class;
  AST_DefaultValue: Class;
  AST_DestructuredKeyVal: Class;
  AST_DestructuredArray: Class;
};

/**
 * `code`, Bun's bundle with its `// lib/x.ts` module comments, with the top-level declarations of
 * each group of `groups` moved into a function run on first need. A deferred name that code outside
 * its group uses at load, or assigns, or a statement of a group that is not a declaration, stops the
 * build: it would run too late, or load a group at start-up.
 */
export function deferModules(code: string, groups: readonly (readonly string[])[]): string {
  const top = ast.parse(code, { module: true });
  top.figure_out_scope({ module: true });
  const marks = [...code.matchAll(/^\/\/ (\S+)\n/gm)].filter(
    ({ index }) => !top.body.some((statement) => statement.start.pos < index && index < statement.end.endpos),
  );
  const moduleOf = (statement: Statement) => marks.findLast(({ index }) => index < statement.start.pos)?.[1] ?? "";
  const missing = groups.flat().filter((module) => !top.body.some((statement) => moduleOf(statement) === module));
  if (missing.length) throw new Error(`defer-modules: no code of ${missing.join(", ")} in the bundle`);
  const statements = groups.map((modules) => top.body.filter((statement) => modules.includes(moduleOf(statement))));
  /** Each deferred name's group. */
  const owner = new Map<string, number>();
  statements.forEach((group, index) => {
    for (const statement of group) for (const name of declared(statement, moduleOf(statement))) owner.set(name, index);
  });
  const names = freshNames(code, ["deferred", "deferredModules"]);
  const [accessor, cache] = [(group: number) => `${names[0]}${group}`, (group: number) => `${names[1]}${group}`];
  const groupOf = (node: AstNode) =>
    statements.findIndex((group) =>
      group.some((statement) => statement.start.pos <= node.start.pos && node.end.endpos <= statement.end.endpos),
    );
  const edits: { at: number; end: number; text: string }[] = [];
  const walker = new ast.TreeWalker((node) => {
    if (!(node instanceof ast.AST_SymbolRef)) return;
    const ref = node as SymbolRef;
    const group = owner.get(ref.name);
    if (group === undefined || groupOf(ref) === group || ref.definition().scope !== top) return;
    if (!walker.stack.some((outer) => outer instanceof ast.AST_Lambda))
      throw new Error(`defer-modules: ${ref.name} is used at load, outside any function`);
    const parent = walker.parent();
    const assigned = parent instanceof ast.AST_Assign ? parent.left === ref : /^(\+\+|--)$/.test(parent.operator ?? "");
    if (assigned) throw new Error(`defer-modules: ${ref.name} is assigned outside its module`);
    // `new f().X()` would construct `f`: the class is read in parentheses.
    const read = parent instanceof ast.AST_New ? `(${accessor(group)}().${ref.name})` : `${accessor(group)}().${ref.name}`;
    const shorthand = parent instanceof ast.AST_ObjectKeyVal && parent.start.pos === ref.start.pos;
    edits.push({ at: ref.start.pos, end: ref.end.endpos, text: shorthand ? `${ref.name}:${read}` : read });
  });
  top.walk(walker);
  // `code` from `from` to `to`, with the edits in that range made.
  const edited = (from: number, to: number, made: typeof edits) => {
    let text = code.slice(from, to);
    for (const { at, end, text: replacement } of made
      .filter((edit) => from <= edit.at && edit.end <= to)
      .sort((a, b) => b.at - a.at))
      text = text.slice(0, at - from) + replacement + text.slice(end - from);
    return text;
  };
  const removed = statements.flat().map(({ start, end }) => ({ at: start.pos, end: end.endpos, text: "" }));
  const outside = edits.filter((edit) => !removed.some(({ at, end }) => at <= edit.at && edit.end <= end));
  const out = edited(0, code.length, [...outside, ...removed]);
  const functions = statements.map((group, index) => {
    const body = group.map(({ start, end }) => edited(start.pos, end.endpos, edits)).join("\n");
    const exported = [...owner].filter(([, of]) => of === index).map(([name]) => name);
    return `var ${cache(index)};\nfunction ${accessor(index)}() {\n  return ${cache(index)} ??= (() => {\n${MARK}\n${body}\nreturn { ${exported.join(", ")} };\n})();\n}\n`;
  });
  return `${out}\n${functions.join("")}`;
}

/** The names a deferred statement declares; anything else runs at load, which a group can't defer. */
function declared(statement: Statement, module: string): string[] {
  if (statement.TYPE === "Var" || statement.TYPE === "Let" || statement.TYPE === "Const")
    return (statement.definitions ?? []).map(({ name }) => name.name);
  if (/Defun$|^DefClass$/.test(statement.TYPE) && statement.name) return [statement.name.name];
  throw new Error(`defer-modules: ${module} runs a ${statement.TYPE} at load`);
}

/**
 * `code`, minified, without the deferred functions' bodies. Each comes back as the text of a
 * function of the module-level bindings it reads (`deferred[i]`), and its call in the code becomes
 * a call of that function compiled (`deferredCode(i)`) with those bindings. A function of its own, not
 * an `eval` in place: an `eval` makes the engine look up every module-level name the bundle's
 * functions read, which made a tool call take twice as long. A binding the code assigns after its
 * declaration is handed over as a function that reads it; a deferred function that assigns one stops
 * the build.
 */
export function extractDeferred(code: string): { code: string; deferred: string[] } {
  const top = ast.parse(code, { module: true });
  top.figure_out_scope({ module: true });
  const marks: AstNode[] = [];
  const calls: Call[] = [];
  const changing = new Set<string>();
  const walker = new ast.TreeWalker((node) => {
    if (node instanceof ast.AST_Debugger) marks.push(node);
    if (node instanceof ast.AST_SymbolRef && isWrite(node, walker.parent()) && (node as SymbolRef).definition().scope === top)
      changing.add((node as SymbolRef).name);
  });
  top.walk(walker);
  top.walk(
    new ast.TreeWalker((node) => {
      const call = node as Call;
      if (node instanceof ast.AST_Call && call.args.length === 0 && call.expression instanceof ast.AST_Arrow)
        if (call.expression.body.some((statement) => marks.includes(statement))) calls.push(call);
    }),
  );
  if (calls.length !== marks.length) throw new Error("extract-deferred: a mark is not in the body of a deferred function's call");
  const deferred: string[] = [];
  const edits: { at: number; end: number; text: string }[] = [];
  for (const call of calls.sort((a, b) => a.start.pos - b.start.pos)) {
    const { body } = call.expression;
    const from = body[0].start.pos;
    const to = (body.at(-1) as AstNode).end.endpos;
    const inner: { at: number; end: number; text: string }[] = [];
    const mark = body.find((statement) => marks.includes(statement)) as AstNode;
    inner.push({ at: mark.start.pos, end: code[mark.end.endpos] === ";" ? mark.end.endpos + 1 : mark.end.endpos, text: "" });
    const reads = new Set<string>();
    const reader = new ast.TreeWalker((node) => {
      if (!(node instanceof ast.AST_SymbolRef)) return;
      const ref = node as SymbolRef;
      // A global (`Array`, `process`) is the deferred function's to read as it is.
      if (ref.definition().scope !== top || ref.definition().undeclared) return;
      if (isWrite(ref, reader.parent())) throw new Error(`extract-deferred: a deferred function assigns ${ref.name}`);
      reads.add(ref.name);
      if (!changing.has(ref.name)) return;
      const parent = reader.parent();
      const shorthand = parent instanceof ast.AST_ObjectKeyVal && parent.start.pos === ref.start.pos;
      const read = parent instanceof ast.AST_New ? `(${ref.name}())` : `${ref.name}()`;
      inner.push({ at: ref.start.pos, end: ref.end.endpos, text: shorthand ? `${ref.name}:${read}` : read });
    });
    for (const statement of body) (statement as Toplevel).walk(reader);
    let text = code.slice(from, to);
    for (const { at, end, text: replacement } of inner.sort((a, b) => b.at - a.at))
      text = text.slice(0, at - from) + replacement + text.slice(end - from);
    const names = [...reads].sort();
    deferred.push(`"use strict";return(${names.join(",")})=>{${text}}`);
    const args = names.map((name) => (changing.has(name) ? `()=>${name}` : name));
    edits.push({ at: call.start.pos, end: call.end.endpos, text: `${DEFERRED_CODE}(${deferred.length - 1})(${args.join(",")})` });
  }
  let out = code;
  for (const { at, end, text } of edits.sort((a, b) => b.at - a.at)) out = out.slice(0, at) + text + out.slice(end);
  return { code: out, deferred };
}

/** Whether `ref` is written where it stands: assigned, counted, a destructuring's or a loop's target. */
function isWrite(
  ref: AstNode,
  parent: AstNode & { left?: unknown; operator?: string; name?: unknown; value?: unknown; init?: unknown },
): boolean {
  if (parent instanceof ast.AST_Assign) return parent.left === ref;
  if (/^(\+\+|--)$/.test(parent.operator ?? "")) return true;
  if (parent instanceof ast.AST_ForIn) return parent.init === ref;
  if (parent instanceof ast.AST_DefaultValue) return parent.name === ref;
  if (parent instanceof ast.AST_DestructuredKeyVal) return parent.value === ref;
  return parent instanceof ast.AST_DestructuredArray;
}

/** Names like `base` that `code` doesn't contain, for the code this pass adds. */
function freshNames(code: string, bases: string[]): string[] {
  return bases.map((base) => {
    let name = `__${base}`;
    while (code.includes(name)) name += "_";
    return name;
  });
}
