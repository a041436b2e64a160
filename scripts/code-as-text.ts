// The last build pass: the bundle's code goes into one string, which the bundle compiles when pi's
// loader runs it. pi loads an extension through jiti, which transforms it with Babel first: for our
// 100 KB of minified code that took 1.1 s and 90 MiB on a first start (after an install, an update,
// or with jiti's cache cleared). Under Bun, pi 0.80 also tries a native import first, which parsed
// all of it only for the bundle to refuse to run natively (docs/pi-resolution.md). A string is
// neither transformed nor parsed as code. It holds what jiti's transform would make of the module:
// a function of `jitiImport` and jiti's `require`, taking Node's built-ins from
// `process.getBuiltinModule` and importing through `jitiImport`.
import { brotliCompressSync, constants } from "node:zlib";
import { type Node, parse } from "acorn";
import { boundNames, visit } from "./alias-strings.ts";
import { DEFERRED_CODE } from "./defer-modules.ts";

/** What a native import of the bundle fails with, before it compiles anything. */
export const NOT_FROM_PI = "pi-permission-hooks must be loaded by pi's extension loader";

/** The names the code is compiled as a function of (lib/host.ts reads them). */
const PARAMETERS = ["jitiImport", "jitiRequire"];

type Import = Node & { source: { value: string }; specifiers: Specifier[] };
type Specifier = Node & { imported?: Node & { name: string }; local: Node & { name: string } };
type Export = Node & {
  declaration: Node | null;
  source: Node | null;
  specifiers: (Node & { local: Node & { name: string }; exported: Node & { name: string } })[];
};

/** `code`, an ES module whose one export is its default, as a module that compiles it on its first run. */
export function codeAsText(code: string, deferred: readonly string[] = []): string {
  const program = parse(code, { ecmaVersion: "latest", sourceType: "module" }) as Node & { body: Node[] };
  const names = new Set<string>();
  visit(program, null, (node) => node.type === "Identifier" && names.add((node as Node & { name: string }).name));
  let builtin = "G";
  for (let suffix = 0; names.has(builtin); suffix++) builtin = `G${suffix}`;
  const builtins: string[] = [];
  const edits: { at: number; end: number; text: string }[] = [];
  let factory: string | undefined;
  for (const statement of program.body) {
    if (statement.type === "ImportDeclaration") {
      builtins.push(builtinDeclaration(statement as Import, builtin));
      edits.push({ at: statement.start, end: statement.end, text: "" });
    } else if (statement.type === "ExportNamedDeclaration") {
      const { declaration, source, specifiers } = statement as Export;
      const [only] = specifiers;
      if (declaration !== null || source !== null || specifiers.length !== 1 || only.exported.name !== "default")
        throw new Error("the bundle may export its default only");
      factory = only.local.name;
      edits.push({ at: statement.start, end: statement.end, text: "" });
    } else if (statement.type.startsWith("Export")) throw new Error(`code-as-text can't move a ${statement.type}`);
    for (const name of declaredNames(statement)) {
      if ([...PARAMETERS, DEFERRED_CODE].includes(name))
        throw new Error(`the bundle declares ${name}, a name its code is compiled with`);
    }
  }
  if (factory === undefined) throw new Error("the bundle has no default export");
  visit(program, null, (node) => {
    // jiti's transform turns `import()` into a call of `jitiImport`; code compiled from a string has no `import()`.
    if (node.type === "ImportExpression") edits.push({ at: node.start, end: node.start + "import".length, text: "jitiImport" });
    if (node.type === "MetaProperty") throw new Error("import.meta has no meaning in code compiled from a string");
  });
  let body = code;
  for (const { at, end, text } of edits.sort((a, b) => b.at - a.at)) body = body.slice(0, at) + text + body.slice(end);
  const declarations = builtins.length > 0 ? `var ${builtin}=m=>process.getBuiltinModule(m),${builtins.join(",")};` : "";
  const parameters = deferred.length ? [...PARAMETERS, DEFERRED_CODE] : PARAMETERS;
  const fn = `(function(${parameters.join(",")}){"use strict";${declarations}${body.trim().replace(/;$/, "")};return ${factory}})`;
  // A syntax error surfaces here rather than when pi loads the bundle.
  parse(fn, { ecmaVersion: "latest", sourceType: "script" });
  // jiti runs a module it transformed as `function (exports, require, module, __filename, …, jitiImport)`.
  return (
    `if("function"!=typeof jitiImport)throw Error(${JSON.stringify(NOT_FROM_PI)});` +
    `export default process.getBuiltinModule("node:vm").runInThisContext(${quoted(fn)},{filename:arguments[3]})` +
    `(jitiImport,arguments[1]${deferred.length ? `,${deferredArgument(deferred)}` : ""})`
  );
}

/**
 * The deferred code (defer-modules.ts) as the function that reads each part of it: it is data until
 * first used, so it is kept Brotli-compressed, in base64. A start with no rule file and no grant
 * decompresses none of it, so pi 0.80.3, which has not loaded zlib by then, doesn't load it.
 */
function deferredArgument(deferred: readonly string[]): string {
  const params = { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT };
  const encoded = deferred.map((code) => {
    parse(`(function(){${code}})`, { ecmaVersion: "latest", sourceType: "script" });
    return JSON.stringify(brotliCompressSync(code, { params }).toString("base64"));
  });
  return `i=>Function(""+process.getBuiltinModule("node:zlib").brotliDecompressSync(Buffer.from([${encoded.join(",")}][i],"base64")))()`;
}

/** `import{a as b}from"node:x"` as the declaration `{a:b}=G("node:x")`, where G gets a built-in module. */
function builtinDeclaration({ source, specifiers }: Import, builtin: string): string {
  if (!source.value.startsWith("node:")) throw new Error(`the bundle imports ${source.value}, not a Node built-in`);
  const module = `${builtin}(${JSON.stringify(source.value)})`;
  if (specifiers.length === 1 && specifiers[0].type === "ImportNamespaceSpecifier")
    return `${specifiers[0].local.name}=${module}`;
  const names = specifiers.map(({ type, imported, local }) => {
    if (type !== "ImportSpecifier" || imported === undefined) throw new Error(`code-as-text can't move a ${type}`);
    return imported.name === local.name ? local.name : `${imported.name}:${local.name}`;
  });
  return `{${names.join(",")}}=${module}`;
}

/** The names a top-level statement declares. */
function declaredNames(statement: Node): string[] {
  if (statement.type === "VariableDeclaration")
    return (statement as Node & { declarations: (Node & { id: Node })[] }).declarations.flatMap(({ id }) => boundNames(id));
  if (statement.type === "FunctionDeclaration" || statement.type === "ClassDeclaration") {
    const { id } = statement as Node & { id: Node | null };
    return id === null ? [] : boundNames(id);
  }
  return [];
}

/** `text` as a string literal in whichever quote it holds fewer of. */
function quoted(text: string): string {
  const quote = text.split("'").length <= text.split('"').length ? "'" : '"';
  const escaped = text
    .replace(/[\\\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\n" ? "\\n" : "\\r"))
    .replaceAll(quote, `\\${quote}`);
  return quote + escaped + quote;
}
